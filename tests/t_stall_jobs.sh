# One stalled worker among several on one device:
# --jobs-per-device 4 at QD1 on a fault device that holds exactly one read
# (after 100 served) and serves every other: the worker whose read is held
# stops, the other three go on. The device's completions never stop, so no
# stall is named while it runs; at the end the held worker cannot drain,
# and the report (complete while the read is still held) names the device
# stalled with that one IO in flight, counts the other workers' IOs, and
# the run exits 1. The order, not a clock: the signal goes once the read
# is held and the others have completed 1000 more.
. "$(dirname "$0")/lib.sh"
need_iostorm
need_cmd jq

make_fault_loop bad ctl 64
bname=${bad#/dev/}
json=$T_DIR/r.json
# a loop device without direct IO serves its reads one at a time in one
# kernel thread: one held read would hold every worker's
[ "$(cat "/sys/block/$bname/loop/dio" 2>/dev/null)" = 1 ] ||
	skip "the loop device on FUSE has no direct IO here: one held read holds them all"

echo "ok 100 hang 1 ok" >"$ctl"
"$IOSTORM" run -q --no-zero-sample --time 300 --ramp 0 --qd 1 --jobs-per-device 4 --stall-timeout 1s \
	--json "$json" "$bad" >"$T_OUT" 2>"$T_ERR" </dev/null &
pid=$!
# the watchdog: released and killed after 120 s whatever happens
(sleep "$T_RUN_GUARD" && echo ok >"$ctl" 2>/dev/null && sleep 1 && kill -KILL "$pid" 2>/dev/null) &
dog=$!
await_fault "$ctl" held 1 600 || check_fail "no read was ever held"
# served counts from the command: the reads after the held one were the
# other workers'
before=$(fault_count "$ctl" served)
await_fault "$ctl" served $((before + 1000)) 600 ||
	check_fail "the other workers did not go on ($(cat "$ctl"))"
after=$(fault_count "$ctl" served)
kill -INT "$pid"
await_json "$pid" "$json" "$T_TRIES" || check_fail "no report, and iostorm still running"
st=$(cat "$ctl")
[[ $st == "ok "* && $st == *" held 1" ]] ||
	check_fail "the report came only once the read was answered ($st)"
release_reap "$pid" "$dog" "$ctl"

[ "$T_RC" -eq 1 ] || { check_fail "exit $T_RC, want 1"; show_output; }
jq -e . "$json" >/dev/null 2>&1 || check_fail "the JSON is not complete"
jq -e --arg b "$bname" --argjson n $((after - before)) '.interrupted == true
	and (.devices | length == 1)
	and (.devices[0] | .name == $b and (.cpus | length) == 4 and .stalled == true
		and .inflight_at_end == 1 and .ios >= $n)
	and .total.ios == .devices[0].ios' "$json" >/dev/null ||
	{ check_fail "$bname not stalled with one IO in flight, or the others' $((after - before)) IOs not counted"; \
		jq -c '.devices[] | {name, cpus, stalled, inflight_at_end, ios}' "$json" >&2; }
grep -Eq "^$bname: stalled: 1 IO still in flight" "$T_OUT" ||
	{ check_fail "the report does not say $bname stalled"; show_output; }
grep -q "no completion" "$T_ERR" &&
	{ check_fail "a stall named while three workers completed reads"; show_output; }
t_done
