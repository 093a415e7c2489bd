# The open loop (--rate): the window holds its schedule's IOs, as the
# report's own counts (uniform within 1%, split over workers too; Poisson
# within its own noise), also when the window began with the worker
# behind (the ramp's IOs are dropped, not counted as rate); Little's law
# holds for the measured depth and the service time; a rate the device
# cannot keep up with is said in one line and in the JSON, with its
# backlog, and the run still ends with its report; a stall is counted
# once per IO scheduled into it (no coordinated omission), where a closed
# loop counts it once per slot; bad combinations are refused before any
# IO.
#
# A loaded machine may hold a worker back (a backlog at the window's end,
# an overload verdict) or slow the IOs at the window's edges (Little's law
# over a 1 s window, the IOs over 100 ms around a stall): a case that
# misses only that way runs again, at most three times, and a pass after a
# miss is said as retried (retry_load). What no load excuses is checked on
# every run.
. "$(dirname "$0")/lib.sh"
need_iostorm
need_cmd jq

make_loop dev 64
make_loop dev2 64
q=(-q --ramp 200ms --time 1s)

# retry_load WHAT CASE ARGS...: CASE ARGS (a function) at most three
# times while it misses in a way a loaded machine can cause: it returns 1
# with MISS set (what missed); 1 with MISS empty is a failure it has said,
# and ends the tries. Three misses fail; a pass after one is said.
retry_load() {
	local what=$1 try first=
	shift
	for try in 1 2 3; do
		MISS=
		"$@" && break
		[ -n "$MISS" ] || return 0
		MISS="$MISS (load $(cut -d' ' -f1 /proc/loadavg))"
		first=${first:-$MISS}
		echo "note: $what, run $try: $MISS" >&2
	done
	if [ -n "$MISS" ]; then
		check_fail "$what, in 3 runs: $MISS"
	elif [ "$try" -gt 1 ]; then
		retried "$what: $((try - 1)) run(s) missed before one did not: $first"
	fi
}

# ---- the rate is met: the window holds what the schedule put in it ----
# rate_met WHAT TOL ARGS...: every device's window holds its schedule's
# IOs: those it completed and those due by its end but never issued (the
# backlog) are the rate asked over its length, within TOL (a fraction)
# and the IOs in flight at its two edges (at most --qd per worker and
# repeat: the ramp's that complete in it, its own that complete after).
# That holds whatever the machine's load, on every run. So does the
# overload verdict's definition: a backlog over 1% of the IOs asked, in
# the JSON and in one line per device. A loop device keeps these rates,
# so a run called overloaded missed (the machine held a worker back), as
# does one where Little's law misses (slow IOs at the window's edges).
# The total's asked, backlog and dropped are the devices' sums.
rate_met() {
	retry_load "$1" rate_met_once "$@"
}
rate_met_once() {
	local what=$1 tol=$2 over failed=$T_FAILED
	shift 2
	expect_ok "$what" run "${q[@]}" --json - "$@" || return 1
	jq -e --argjson tol "$tol" '
		(.config.qd * .config.jobs_per_device * .config.repeat) as $edges |
		[.devices[] | ((.ios + .open_loop.backlog - .open_loop.asked_iops * .elapsed_s) | fabs)
			<= $tol * .open_loop.asked_iops * .elapsed_s + $edges] | all' \
		"$T_OUT" >/dev/null ||
		check_fail "$what: IOs and backlog not the rate asked over the window within $tol: $(jq -c '[.devices[] | {ios, backlog: .open_loop.backlog, dropped: .open_loop.dropped, elapsed_s, asked_iops: .open_loop.asked_iops}]' "$T_OUT")"
	jq -e '[.devices[] | .open_loop.overloaded ==
		(.open_loop.backlog > 0.01 * .open_loop.asked_iops * .elapsed_s)] | all' \
		"$T_OUT" >/dev/null ||
		check_fail "$what: overloaded is not its backlog over 1%: $(jq -c '[.devices[] | {overloaded: .open_loop.overloaded, backlog: .open_loop.backlog, elapsed_s}]' "$T_OUT")"
	[ "$(jq '[.devices[] | select(.open_loop.overloaded)] | length' "$T_OUT")" = \
		"$(grep -c ": overloaded: " "$T_ERR")" ] ||
		check_fail "$what: not one overload line per overloaded device"
	jq -e '.total.open_loop.asked_iops == ([.devices[].open_loop.asked_iops] | add) and
		.total.open_loop.backlog == ([.devices[].open_loop.backlog] | add) and
		.total.open_loop.dropped == ([.devices[].open_loop.dropped] | add)' "$T_OUT" >/dev/null ||
		check_fail "$what: the total's open loop is not the devices' sum"
	[ "$T_FAILED" = "$failed" ] || return 1
	over=$(jq -c '[.devices[].open_loop | select(.overloaded) |
		{asked_iops, achieved_iops, backlog}]' "$T_OUT")
	[ "$over" = "[]" ] || { MISS="overloaded: $over"; return 1; }
	jq -e '[.devices[].open_loop | .achieved_iops * .service_lat_ns.mean / 1e9 / .mean_inflight - 1
		| fabs < 0.05] | all' "$T_OUT" >/dev/null || {
		MISS="IOPS x mean service time is not the mean depth: $(jq -c '[.devices[].open_loop | {achieved_iops, svc: .service_lat_ns.mean, mean_inflight}]' "$T_OUT")"
		return 1
	}
}
rate_met "uniform 2000/s" 0.01 --rate 2000 "$dev"
rate_met "uniform 20k/s, 2 workers" 0.01 --rate 20k --jobs-per-device 2 "$dev"
rate_met "uniform 5000/s, 2 devices" 0.01 --rate 5000 "$dev" "$dev2"
# repeats merged: IOs and windows summed, so the rate and the law still hold
rate_met "uniform 3000/s, 2 repeats" 0.01 --rate 3000 --repeat 2 "$dev"
# 20000 Poisson arrivals in 1 s: a standard deviation of 0.7%
rate_met "poisson 20k/s" 0.03 --rate 20k --arrival poisson "$dev"

# ---- Little's law: mean depth = achieved IOPS x mean service time ----
# little WHAT ARRIVAL: one run: what holds on any run, then the law (a
# miss: retry_load)
little() {
	local what=$1 a=$2 failed=$T_FAILED
	expect_ok "$what" run "${q[@]}" --rate 10k --arrival "$a" --qd 16 --json - "$dev" || return 1
	# from when due is never shorter than from submission
	jq -e '.devices[0] | .lat_ns.mean >= .open_loop.service_lat_ns.mean' "$T_OUT" >/dev/null ||
		check_fail "$what: latency from schedule below the service time"
	grep -Eq "^$(basename "$dev"): open loop at 10000 IOPS asked; service time" "$T_ERR" ||
		{ check_fail "$what: no open-loop line in the table"; show_output; }
	[ "$T_FAILED" = "$failed" ] || return 1
	jq -e '.devices[0].open_loop | .mean_inflight > 0 and
		(.achieved_iops * .service_lat_ns.mean / 1e9 / .mean_inflight - 1 | fabs < 0.05)' \
		"$T_OUT" >/dev/null || {
		MISS="IOPS x mean service time is not the mean depth: $(jq -c '.devices[0].open_loop | {achieved_iops, svc: .service_lat_ns.mean, mean_inflight}' "$T_OUT")"
		return 1
	}
}
for a in uniform poisson; do
	retry_load "little $a" little "little $a" "$a"
done

# ---- --ios ends an open loop: exactly that many, nothing left behind ----
if expect_ok "ios" run -q --ramp 0 --rate 5000 --ios 3000 --json - "$dev"; then
	jq -e '.devices[0] | .ios == 3000 and .open_loop.backlog == 0 and
		(.open_loop.overloaded | not) and .elapsed_s > 0' "$T_OUT" >/dev/null ||
		check_fail "ios: $(jq -c '.devices[0] | {ios, elapsed_s, backlog: .open_loop.backlog}' "$T_OUT")"
fi

# ---- overload: far more than a loop device at --qd 2 can do ----
if expect_ok "overload" run "${q[@]}" --rate 10m --qd 2 --json - "$dev"; then
	name=$(basename "$dev")
	grep -Eq "^$name: overloaded: [0-9]+ of 10000000 IOPS asked \([0-9.]+%\), [0-9]+ IOs due and never issued at the end, [0-9.]+% started over 100us late$" "$T_ERR" ||
		{ check_fail "overload: no overload line"; show_output; }
	jq -e '.devices[0] | .open_loop.overloaded and .open_loop.late_share > 0.5 and
		.open_loop.achieved_iops < 0.5 * .open_loop.asked_iops and
		.elapsed_s > 0 and .ios > 0' "$T_OUT" >/dev/null ||
		check_fail "overload: JSON does not say so: $(jq -c '.devices[0].open_loop | del(.service_lat_ns)' "$T_OUT")"
	# the backlog is at least the window's own shortfall, at most all
	# that was due in the window: what the ramp left was dropped when
	# the window began (the schedule is fixed in advance: a uniform one
	# holds asked x elapsed, to one IO)
	jq -e '.devices[0] | .open_loop.backlog >= 0.99 * (.open_loop.asked_iops - .iops) * .elapsed_s and
		.open_loop.backlog <= .open_loop.asked_iops * .elapsed_s + 1 and
		.open_loop.dropped > 0' "$T_OUT" >/dev/null ||
		check_fail "overload: backlog $(jq -c '.devices[0] | {backlog: .open_loop.backlog, dropped: .open_loop.dropped, elapsed_s}' "$T_OUT") does not fit the shortfall"
	grep -Eq "^$name: began behind its schedule: [0-9]+ IOs due in the ramp and never issued, dropped when the window began$" "$T_ERR" ||
		{ check_fail "overload: no line for the ramp's IOs dropped"; show_output; }
fi

# ---- saturate: every step at the rate, its overloads named, no ceiling
# modelled from rate-held IOPS ----
if expect_ok "saturate" saturate -q --ramp 100ms --time 1s --rate 10m --qd 2 --json - "$dev"; then
	name=$(basename "$dev")
	for step in "QD1 alone" "QD2 alone"; do
		grep -Eq "^$name: $step: overloaded: [0-9]+ of 10000000 IOPS asked, [0-9]+ IOs due and never issued at the end$" "$T_ERR" ||
			{ check_fail "saturate: no overload line for $step"; show_output; }
	done
	grep -q "^ceiling: not modelled (--rate held every step to the rate asked" "$T_ERR" ||
		check_fail "saturate: a ceiling modelled from rate-held IOPS"
	jq -e '.devices[0] | [.qd1.solo, .qdn.solo] | map(.open_loop.asked_iops == 10000000 and
		.open_loop.overloaded and .open_loop.service_lat_ns.mean > 0) | all' "$T_OUT" >/dev/null ||
		check_fail "saturate: steps' open_loop: $(jq -c '.devices[0].qd1.solo.open_loop | del(.service_lat_ns)' "$T_OUT")"
fi

# ---- refused before any IO, with one line and exit 2 ----
expect_error "rate 0" 2 "^iostorm run: --rate: " run "${q[@]}" --rate 0 "$dev"
expect_error "rate junk" 2 "^iostorm run: --rate: " run "${q[@]}" --rate fast "$dev"
expect_error "arrival junk" 2 "^iostorm run: --arrival: unknown arrival 'bursty' \(uniform or poisson\) " \
	run "${q[@]}" --rate 100 --arrival bursty "$dev"
expect_error "libaio" 2 "--engine libaio has no open loop" run "${q[@]}" --rate 100 --engine libaio "$dev"
expect_error "sqpoll" 2 "--completion sqpoll" run "${q[@]}" --rate 100 --completion sqpoll "$dev"
expect_error "group on" 2 "--group on" run "${q[@]}" --rate 100 --group on "$dev" "$dev2"
expect_error "fewer than workers" 2 "--rate 1 is fewer IOs per second than the 2 workers" \
	run "${q[@]}" --rate 1 --jobs-per-device 2 "$dev"
expect_error "nop" 2 "rate" nop "${q[@]}" --rate 100
# ---- coordinated omission: a stall of ~300 ms at 2000/s ----
# The fault device holds every read from its 600th on (tests/fusefault.c);
# the test lets them go about 300 ms after it sees one held. The stall's
# length S is not assumed: it is the longest service time the report
# measured (the held reads'). An open loop schedules S x 2000 IOs into the
# stall, and those due more than 100 ms before it ended wait longer than
# that: about (S - 100 ms) x 2000 of them, counted from the histogram
# (lat_ns.above). Their service times are short: only the --qd held reads
# took the stall. A closed loop at the same depth sees the stall in those
# --qd IOs alone.
make_fault_loop fdev ctl 64
# stall_run WHAT ARGS...: the run, stalled once; its report in $T_OUT
stall_run() {
	local what=$1 pid
	shift
	echo "ok 600 hang" >"$ctl"
	"$IOSTORM" run -q --no-zero-sample --ramp 0 --time 2s --qd 8 --stall-timeout 10s --json - "$@" "$fdev" \
		>"$T_OUT" 2>"$T_ERR" </dev/null &
	pid=$!
	await_fault "$ctl" held 1 "$T_TRIES" || check_fail "$what: no read was ever held"
	sleep 0.3
	echo ok >"$ctl"
	reap_within "$pid" "$T_TRIES"
	[ "$T_RC" -eq 0 ] || { check_fail "$what: exit $T_RC"; show_output; return 1; }
}
above='(.[] | select(.[0] == 100000000) | .[1])'
# open_stall: the open loop's stall, counted (a machine that slows more
# than the held reads past 100 ms misses: retry_load)
open_stall() {
	stall_run "open loop stall" --rate 2000 || return 1
	jq -e --argjson qd 8 "
		.devices[0] | (.open_loop.service_lat_ns.max / 1e9) as \$s |
		(.lat_ns.above | $above) as \$n |
		(.open_loop.service_lat_ns.above | $above) as \$svc |
		\$s > 0.2 and \$n >= 0.8 * (\$s - 0.1) * 2000 and \$n <= 1.5 * \$s * 2000 + \$qd and
		\$svc <= \$qd and \$n > 10 * \$qd" "$T_OUT" >/dev/null || {
		MISS="IOs over 100 ms from schedule do not match the stall: $(jq -c '.devices[0] | {stall_s: (.open_loop.service_lat_ns.max / 1e9), above: .lat_ns.above, svc_above: .open_loop.service_lat_ns.above}' "$T_OUT")"
		return 1
	}
}
retry_load "open loop stall" open_stall
# ---- a late start: the ramp's IOs are dropped, not counted as rate ----
# The fault device holds every read from the 200th on, in the ramp, so
# the worker's depth fills with held reads and the IOs due after them
# wait. The reads are let go only once the window has begun (its line in
# the --stream file, written after the ramp ended): the worker then owes
# the ramp's IOs. Issued in the window on top of the window's own, their
# catching up would count as rate (about 1800 more IOs in a window of
# 4000); the window drops them instead and holds its own schedule's, as
# rate_met checks (the held reads, in flight at its start, complete in
# it: the --qd of the edges).
echo "ok 200 hang" >"$ctl"
"$IOSTORM" run -q --no-zero-sample --ramp 1s --time 2s --qd 8 --rate 2000 --stall-timeout 10s \
	--stream "$T_DIR/late.jsonl" --json - "$fdev" >"$T_OUT" 2>"$T_ERR" </dev/null &
pid=$!
await_fault "$ctl" held 1 "$T_TRIES" || check_fail "late start: no read was ever held"
for ((i = 0; i < T_TRIES; i++)); do
	grep -q '"type":"window"' "$T_DIR/late.jsonl" 2>/dev/null && break
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.1
done
grep -q '"type":"window"' "$T_DIR/late.jsonl" || check_fail "late start: the window never began"
echo ok >"$ctl"
reap_within "$pid" "$T_TRIES"
if [ "$T_RC" -ne 0 ]; then
	check_fail "late start: exit $T_RC"
	show_output
else
	jq -e '.devices[0] | .open_loop.dropped > 100 and
		((.ios + .open_loop.backlog - .open_loop.asked_iops * .elapsed_s) | fabs)
			<= 0.01 * .open_loop.asked_iops * .elapsed_s + 8' "$T_OUT" >/dev/null ||
		check_fail "late start: the window does not hold its own schedule: $(jq -c '.devices[0] | {ios, elapsed_s, backlog: .open_loop.backlog, dropped: .open_loop.dropped}' "$T_OUT")"
fi

closed_stall() {
	stall_run "closed loop stall" || return 1
	jq -e "
		.devices[0] | (.lat_ns.max / 1e9) as \$s | (.lat_ns.above | $above) as \$n |
		\$s > 0.2 and \$n <= 8" "$T_OUT" >/dev/null || {
		MISS="more IOs over 100 ms than slots: $(jq -c '.devices[0] | {max: .lat_ns.max, above: .lat_ns.above}' "$T_OUT")"
		return 1
	}
}
retry_load "closed loop stall" closed_stall

t_done
