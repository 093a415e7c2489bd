#!/bin/bash
# --group: devices whose workers are placed on one CPU share one worker
# thread and io_uring ring. With one CPU allowed (taskset), three devices
# on --group on are driven by one iostorm-w thread: each still has its own
# IOs (its --ios exactly), latency, CPU share and calls, they add up to the
# total, and the report says devices_per_worker 3 and config.group. off
# and auto (interrupts: not polled) keep a worker per device. A device of
# the group that stalls is the only one named stalled; the others keep
# their figures, also with --ios and no time limit (the run ends when only
# the stalled one is left), and when only the end-of-run drain sees the
# held reads (the watchdog longer than the run). Refusals are one line, exit 2. Polled auto grouping needs
# poll queues: t_vm_completion.
. "$(dirname "$0")/lib.sh"
need_iostorm
need_cmd jq taskset

make_data_file f1 8
make_data_file f2 8
make_data_file f3 8
json=$T_DIR/g.json
cpu=$(taskset -pc $$ | sed 's/.*: //; s/[,-].*//')

# ---- three devices, one CPU, --group on ----
taskset -c "$cpu" "$IOSTORM" run -q --ramp 0 --ios 3000 --qd 8 --group on --json "$json" \
	"$f1" "$f2" "$f3" >"$T_OUT" 2>"$T_ERR"
rc=$?
[ "$rc" -eq 0 ] || { check_fail "on: exit $rc"; show_output; }
json_check "$json" run 3
jq -e '.config.group == "on"
	and ([.devices[] | select(.devices_per_worker == 3 and .ios == 3000 and .errors == 0
		and .lat_ns.mean > 0 and .calls > 0)] | length) == 3
	and ([.devices[].cpus[0]] | unique | length) == 1
	and ([.devices[].ios] | add) == .total.ios
	and ([.devices[].calls] | add) == .total.calls' "$json" >/dev/null ||
	{ check_fail "on: three devices with their own figures on one worker"; jq -c '.config.group, [.devices[] | {name, ios, devices_per_worker, cpus, calls}], .total.ios' "$json" >&2; }
# the shared CPU time and calls: the same per IO for each device, as they
# are one thread's (calls are whole: the remainder of the split goes to
# the first device, fewer than one per device)
jq -e '[.devices[] | .cpu.time_s / .ios] as $c
	| ($c | max) <= ($c | min) * 1.01 + 1e-9
	and ([.devices[].calls] | (max - min) <= 3)' "$json" >/dev/null ||
	{ check_fail "on: CPU or calls per IO differ between devices of one worker"; jq -c '[.devices[] | {cpu, ios, calls}]' "$json" >&2; }
n1=$(basename "$f1") n2=$(basename "$f2") n3=$(basename "$f3")
grep -q "^iostorm run: $n1, $n2, $n3 share one worker and ring on CPU $cpu (--group on)$" "$T_ERR" ||
	{ check_fail "on: stderr does not say which devices share a worker"; show_output; }

# ---- off, and auto with interrupts: a worker each ----
for g in off auto; do
	rm -f "$json"
	taskset -c "$cpu" "$IOSTORM" run -q --ramp 0 --ios 2000 --group "$g" --json "$json" \
		"$f1" "$f2" >"$T_OUT" 2>"$T_ERR"
	rc=$?
	[ "$rc" -eq 0 ] || { check_fail "$g: exit $rc"; show_output; }
	jq -e --arg g "$g" '.config.group == $g
		and ([.devices[] | select(.devices_per_worker == 1 and .ios == 2000)] | length) == 2' \
		"$json" >/dev/null ||
		{ check_fail "$g: the devices shared a worker"; jq -c '.config.group, [.devices[] | {name, ios, devices_per_worker}]' "$json" >&2; }
	grep -q "share one worker" "$T_ERR" && { check_fail "$g: stderr says devices share a worker"; show_output; }
done

# ---- refusals: one line, exit 2, before any IO ----
expect_error "libaio" 2 "^iostorm run: --group on shares an io_uring ring between devices: --engine libaio has none$" \
	run --group on --engine libaio --ios 100 -q "$f1" "$f2"
expect_error "sqpoll" 2 "^iostorm run: --group on drives devices from one thread's ring: --completion sqpoll hands the ring to a kernel thread$" \
	run --group on --completion sqpoll --ios 100 -q "$f1" "$f2"
expect_error "a bad value" 2 "^iostorm run: --group: unknown group 'sometimes' \\(auto, on or off\\)" \
	run --group sometimes --ios 100 -q "$f1"

# ---- a device of the group that stalls: only it is named stalled ----
make_loop good 64
make_fault_loop bad ctl 64
gname=${good#/dev/} bname=${bad#/dev/}

# Runs the two devices on one worker, the fault device answering 200
# reads and then holding every read: pid, and dog (the guard that
# answers the reads and kills iostorm should it hang).
start_held()
{
	rm -f "$json"
	echo "ok 200 hang" >"$ctl"
	taskset -c "$cpu" "$IOSTORM" run -q --no-zero-sample --ramp 0 --qd 8 --group on "$@" \
		--json "$json" "$good" "$bad" >"$T_OUT" 2>"$T_ERR" </dev/null &
	pid=$!
	(sleep "$T_RUN_GUARD" && echo ok >"$ctl" 2>/dev/null && sleep 1 && kill -KILL "$pid" 2>/dev/null) &
	dog=$!
}

# The report must come while the reads are still held; then they are
# answered, iostorm reaped, and its exit must be 1. $1 names the case.
report_while_held()
{
	await_json "$pid" "$json" "$T_TRIES" || check_fail "$1: no report, and iostorm still running"
	[[ $(cat "$ctl") == "hang "* ]] && [ "$(fault_count "$ctl" held)" -gt 0 ] ||
		check_fail "$1: the report came only once the reads were answered"
	release_reap "$pid" "$dog" "$ctl"
	[ "$T_RC" -eq 1 ] || { check_fail "$1: exit $T_RC, want 1"; show_output; }
}

start_held --time 4 --stall-timeout 1s
# once the fault device holds reads, every worker has started: one
await_fault "$ctl" held 1 300 || check_fail "stall: no read was ever held"
[ "$(workers "$pid")" -eq 1 ] || check_fail "stall: $(workers "$pid") worker threads for one group"
report_while_held stall
jq -e --arg b "$bname" --arg g "$gname" '
	(.devices[] | select(.name == $b) | .stalled and .inflight_at_end > 0 and .ios > 0
		and .devices_per_worker == 2)
	and (.devices[] | select(.name == $g) | (.stalled | not) and .inflight_at_end == 0
		and .ios > 0 and .errors == 0 and .lat_ns.mean > 0 and .devices_per_worker == 2)' \
	"$json" >/dev/null ||
	{ check_fail "stall: want $bname stalled and $gname whole"; jq -c '.devices[] | {name, stalled, inflight_at_end, ios, errors, devices_per_worker}' "$json" >&2; }
grep -Eq "(^|: )$gname: no completion" "$T_ERR" && check_fail "stall: the healthy $gname is named as stalled"

# ---- reads held at the end, the watchdog longer than the run: only the
# end-of-run drain can name the device; its lane must not settle while it
# holds them ----
start_held --time 2 --stall-timeout 1h
report_while_held drain
jq -e --arg b "$bname" --arg g "$gname" '
	(.devices[] | select(.name == $b) | .stalled and .inflight_at_end > 0 and .lat_ns == null)
	and (.devices[] | select(.name == $g) | (.stalled | not) and .inflight_at_end == 0
		and .ios > 0 and .lat_ns.mean > 0)' "$json" >/dev/null ||
	{ check_fail "drain: want $bname named stalled by the drain, $gname whole"; jq -c '.devices[] | {name, stalled, inflight_at_end, ios, lat: .lat_ns.mean}' "$json" >&2; }

# ---- the same with --ios and no time limit: the healthy device done, the
# run ends on the stalled one's watch, not when its reads come back ----
start_held --ios 3000 --stall-timeout 1s
report_while_held ios
jq -e --arg b "$bname" --arg g "$gname" '
	(.devices[] | select(.name == $b) | .stalled)
	and (.devices[] | select(.name == $g) | (.stalled | not) and .ios == 3000 and .errors == 0)' \
	"$json" >/dev/null ||
	{ check_fail "ios: want $bname stalled and $gname with its 3000 IOs"; jq -c '.devices[] | {name, stalled, ios, errors}' "$json" >&2; }
t_done
