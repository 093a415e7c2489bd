# Stalls are detected and bounded: a device whose
# reads stop completing early in a 4 s run (after its first 2000 reads),
# beside a healthy one, is named on stderr as it happens; the run ends on
# its own, its report and JSON complete while the device still holds the
# reads (not when it recovers), reports the device stalled with
# inflight_at_end, gives the healthy device its window of --time, and exits
# 1. A device that fails reads with EIO and then hangs has its errors
# named although it is stalled. Nothing here waits a guessed time: the
# fault device switches after a count of reads (tests/fusefault.c), a
# signal goes once the run has said what it is doing, and a test's waits
# are only guards against a hang. Held reads are always released: by the
# test once it has looked, by its watchdog if iostorm hangs, and by the
# EXIT trap.
. "$(dirname "$0")/lib.sh"
need_iostorm
need_cmd jq script

make_loop good 64
make_fault_loop bad ctl 64
gname=${good#/dev/} bname=${bad#/dev/}
json=$T_DIR/r.json

# watchdog PID: answers the held reads and kills PID 60 s from now, whatever
# happens (a guard against a hang: a test that needed it has failed, as the
# reads it looks at are no longer held); its pid in $dog.
watchdog() {
	(sleep "$T_RUN_GUARD" && echo ok >"$ctl" 2>/dev/null && sleep 1 && kill -KILL "$1" 2>/dev/null) &
	dog=$!
}

# still_held WHAT: the fault device still holds reads, in a hang, now that
# the report is out: the run ended without them.
still_held() {
	local st
	st=$(cat "$ctl")
	[[ $st == "hang "* ]] && [ "$(fault_count "$ctl" held)" -gt 0 ] ||
		check_fail "$1: the report came only once the reads were answered ($st)"
}

# ---- a device that hangs after 2000 reads of a 4 s run ----
# 2000, not 200: with --ramp 0 the workers read from the run's start and
# begin measuring at their next loop once the runner says so; a runner
# the machine holds back for 25 ms in between (seen once under TSan in the
# full suite) let a worker at QD8 pass its 200 reads unmeasured and hang
# before it measured anything. 2000 reads take about 250 ms here.
echo "ok 2000 hang" >"$ctl"
"$IOSTORM" run -q --no-zero-sample --time 4 --ramp 0 --qd 8 --stall-timeout 1s --json "$json" \
	"$good" "$bad" >"$T_OUT" 2>"$T_ERR" </dev/null &
pid=$!
watchdog "$pid"
# done once the JSON is written (the process itself may stay in the
# kernel until the held reads are released)
await_json "$pid" "$json" "$T_TRIES" || check_fail "hang: no report, and iostorm still running"
still_held hang
release_reap "$pid" "$dog" "$ctl"
rc=$T_RC

[ "$rc" -eq 1 ] || { check_fail "hang: exit $rc, want 1"; show_output; }
grep -Eq "(^|: )$bname: no completion for [0-9.]+ s, [0-9]+ IOs in flight$" "$T_ERR" ||
	{ check_fail "hang: no stall line for $bname on stderr"; show_output; }
grep -Eq "(^|: )$gname: no completion" "$T_ERR" &&
	check_fail "hang: the healthy $gname is named as stalled"
grep -Eq "^$bname: stalled: [0-9]+ IOs? still in flight" "$T_OUT" ||
	{ check_fail "hang: the report does not say $bname stalled"; show_output; }
jq -e . "$json" >/dev/null 2>&1 || check_fail "hang: the JSON is not complete"
# Both windows are the run's --time 4, ended by the stop request, not 4 s
# plus the 1 s drain grace: the report's window against the configured
# one (a worker may see the start a little after the runner does).
jq -e --arg b "$bname" '.devices[] | select(.name == $b)
	| .stalled == true and .inflight_at_end > 0 and .ios > 0 and .ios <= 2000
	and .elapsed_s > 3.9 and .elapsed_s < 5' "$json" >/dev/null ||
	{ check_fail "hang: $bname is not reported stalled with its window"; jq -c '.devices[]' "$json" >&2; }
jq -e --arg g "$gname" '.devices[] | select(.name == $g)
	| .stalled == false and .inflight_at_end == 0 and .ios > 0 and .errors == 0
	and .elapsed_s > 3.9 and .elapsed_s < 5' "$json" >/dev/null ||
	{ check_fail "hang: the healthy $gname has no IOs or a longer window"; jq -c '.devices[]' "$json" >&2; }

# ---- the watch off: the end waits for the IOs, a second request ends it ----
rm -f "$json"
echo "ok 200 hang" >"$ctl"
"$IOSTORM" run -q --no-zero-sample --time 60 --ramp 0 --qd 8 --stall-timeout 0 --json "$json" \
	"$good" "$bad" >"$T_OUT" 2>"$T_ERR" </dev/null &
pid=$!
watchdog "$pid"
await_fault "$ctl" held 1 300 || check_fail "second signal: no read was ever held"
kill -INT "$pid"
# the first request ends the window: the healthy device's worker drains
# and ends; the held one's cannot, and with the watch off the end waits
for ((i = 0; i < 300; i++)); do
	[ "$(workers "$pid")" -le 1 ] && break
	sleep 0.1
done
[ "$(workers "$pid")" -eq 1 ] ||
	check_fail "second signal: $(workers "$pid") workers left after the first, want the held one"
jq -e . "$json" >/dev/null 2>&1 && check_fail "second signal: the report came before it"
kill -TERM "$pid"
await_json "$pid" "$json" "$T_TRIES" || check_fail "second signal: no report after it"
still_held "second signal"
release_reap "$pid" "$dog" "$ctl"
rc=$T_RC
[ "$rc" -eq 1 ] || { check_fail "second signal: exit $rc, want 1"; show_output; }
jq -e --arg b "$bname" '.interrupted == true and (.devices[] | select(.name == $b)
	| .stalled == true and .inflight_at_end > 0)' "$json" >/dev/null ||
	{ check_fail "second signal: no complete JSON with $bname stalled"; show_output; }
grep -q "^$bname: no completion" "$T_ERR" &&
	check_fail "second signal: a stall named with the watch off"

# ---- --ios: a stalled device that never reaches its count ends the run ----
echo hang >"$ctl"
rm -f "$json"
"$IOSTORM" run -q --ios 20k --qd 8 --stall-timeout 1s --json "$json" \
	"$good" "$bad" >"$T_OUT" 2>"$T_ERR" </dev/null &
pid=$!
watchdog "$pid"
await_json "$pid" "$json" "$T_TRIES" || check_fail "--ios: no report, and iostorm still running"
still_held "--ios"
release_reap "$pid" "$dog" "$ctl"
rc=$T_RC
[ "$rc" -eq 1 ] || { check_fail "--ios: exit $rc, want 1"; show_output; }
jq -e --arg b "$bname" --arg g "$gname" '(.devices[] | select(.name == $b) | .stalled == true)
	and (.devices[] | select(.name == $g) | .ios == 20000 and .stalled == false)' \
	"$json" >/dev/null || { check_fail "--ios: $bname not stalled or $gname short"; show_output; }

# ---- errors, then a hang: the stalled device's errors are named ----
# The worker is still in the kernel when the report is written: its errors
# come from what it published, and must name EIO with its time, as for a
# worker that stopped. The errors begin once the run has said it measured
# its first second (its live line), so after the first second's sample:
# the report's first_error.at_s must come after that sample's end.
echo ok >"$ctl"
rm -f "$json"
live_iostorm run --time 60 --ramp 0 --qd 8 --stall-timeout 1s --json "$json" "$good" "$bad"
watchdog "$T_PID"
await_live "run]" 300 || check_fail "eio then hang: the run never said it was measuring"
echo "eio 500 hang" >"$ctl"
await_fault "$ctl" held 1 300 || check_fail "eio then hang: no read was held after the errors"
for ((i = 0; i < 300; i++)); do
	grep -q "$bname: no completion for" "$T_ERR" && break
	sleep 0.1
done
kill -INT "$T_PID"
await_json "$T_PID" "$json" "$T_TRIES" || check_fail "eio then hang: no report"
still_held "eio then hang"
echo ok >"$ctl"
live_reap 300
kill "$dog" 2>/dev/null
wait "$dog" 2>/dev/null
rc=$T_RC
[ "$rc" -eq 1 ] || { check_fail "eio then hang: exit $rc, want 1"; show_output; }
jq -e --arg b "$bname" '.devices[] | select(.name == $b)
	| .stalled == true and .inflight_at_end > 0 and .errors > 0 and .errors <= 500
	and .first_error.name == "EIO" and .first_error.errno == 5
	and .timeline[0].ios > 0 and .first_error.at_s >= .timeline[0].t_s
	and .first_error.at_s <= .elapsed_s
	and .most_common_error.name == "EIO" and .most_common_error.count > 0
	and .most_common_error.count <= .errors' "$json" >/dev/null ||
	{ check_fail "eio then hang: the stalled $bname's errors are not named"; \
		jq -c '.devices[] | {name, stalled, ios, errors, first_error, most_common_error, tl: .timeline[0]}' \
		"$json" >&2; }
grep -Eq "^$bname: [0-9]+ errors from [0-9.]+s: first EIO \(Input/output error\), most EIO$" \
	"$T_OUT" || { check_fail "eio then hang: no error line for $bname"; show_output; }
grep -Eq "(^|: )$bname: no completion for [0-9.]+ s, [0-9]+ IOs in flight$" "$T_ERR" ||
	{ check_fail "eio then hang: no stall line for $bname"; show_output; }

# the device recovered: a clean run exits 0
expect_ok "healthy again" run -q --time 300ms --ramp 0 --stall-timeout 1s "$bad"
t_done
