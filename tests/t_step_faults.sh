# saturate, sweep and latency never hang, and a device that fails is
# named first. Beside a healthy loop device, a
# fault-injecting one (tests/fusefault.c) fails its reads with EIO, holds
# them for ever, or answers ENODEV as a device that went away:
#   - saturate: the failing device is named in the step it failed, left
#     out of the later steps, out of the system sums (which list the
#     devices they cover), and first in the findings and the verdict;
#   - sweep: left out of the deeper points, each point lists its devices;
#   - a stalled device ends saturate and latency by themselves: the JSON is
#     complete while its reads are still held;
#   - run: a device that went away mid-run (ENODEV, after a count of good
#     reads) stops alone, the others go on, the report names it, exit 1.
# No check is on a wall clock: waits are guards against a hang. Held reads
# are always released: by the test, by a watchdog and by the EXIT trap
# (tests/lib.sh).
. "$(dirname "$0")/lib.sh"
need_iostorm
need_cmd jq

make_loop good 64
make_fault_loop bad ctl 64
gname=${good#/dev/} bname=${bad#/dev/}
json=$T_DIR/r.json

# bg_until_json ARGS...: runs iostorm in the background until its JSON
# ($json) is complete or it exits, then releases held reads and waits.
# T_RC is its exit status; T_HELD what the fault file said just before the
# release ("hang served N failed N held N": held > 0, the report came
# while the reads were still held).
bg_until_json() {
	local pid dog
	rm -f "$json"
	"$IOSTORM" "$@" >"$T_OUT" 2>"$T_ERR" </dev/null &
	pid=$!
	(sleep "$T_RUN_GUARD" && echo ok >"$ctl" 2>/dev/null && sleep 1 && kill -KILL "$pid" 2>/dev/null) &
	dog=$!
	await_json "$pid" "$json" "$T_TRIES" || check_fail "iostorm $1: no report, and still running"
	T_HELD=$(cat "$ctl")
	release_reap "$pid" "$dog" "$ctl"
}

# held_at_report WHAT: the report came while the reads were held.
held_at_report() {
	[[ $T_HELD == "hang "* && ! $T_HELD =~ " held 0"$ ]] ||
		check_fail "$1: the report came only once the reads were answered ($T_HELD)"
}

# ---- saturate: EIO from the start on the second device ----
echo eio >"$ctl"
run_iostorm saturate -q --time 300ms --ramp 0 --qd 4 --json "$json" "$good" "$bad"
echo ok >"$ctl"
[ "$T_RC" -eq 1 ] || { check_fail "saturate EIO: exit $T_RC, want 1"; show_output; }
grep -Eq "(^|: )$bname: [0-9]+ EIO errors? in step alone QD1; left out of the later steps$" "$T_ERR" ||
	{ check_fail "saturate EIO: no line leaving $bname out"; show_output; }
jq -e --arg g "$gname" --arg b "$bname" '
	(.devices[] | select(.name == $b) | .failed != null and .qd1.solo.errors > 0
	 and .qdn.solo == null and .qd1.all == null and .qdn.all == null)
	and (.devices[] | select(.name == $g) | .failed == null and .qdn.all.ios > 0)
	and .system.devices == [$g]
	and .findings[0].kind == "failed_device" and .findings[0].device == $b
	and .verdict.kind == "failed_device"
	and (.verdict.text | startswith("failing device: " + $b + ". The other 1: "))' \
	"$json" >/dev/null || { check_fail "saturate EIO: JSON does not leave $bname out or name it first"; \
		jq -c '{devices: [.devices[] | {name, failed, qd1, qdn}], system, findings, verdict}' "$json" >&2; }
grep -Eq "^system .*\(1 of 2 devices; left out, failed: $bname\)$" "$T_OUT" ||
	{ check_fail "saturate EIO: the system rows do not say which devices they cover"; show_output; }
grep -q "^verdict: failing device: $bname\." "$T_OUT" ||
	{ check_fail "saturate EIO: the verdict does not name $bname first"; show_output; }

# ---- sweep: EIO from the start, left out of the deeper points ----
echo eio >"$ctl"
run_iostorm sweep -q --qd 1,2,4 --time 300ms --ramp 0 --json "$json" "$good" "$bad"
echo ok >"$ctl"
[ "$T_RC" -eq 1 ] || { check_fail "sweep EIO: exit $T_RC, want 1"; show_output; }
grep -Eq "(^|: )$bname: [0-9]+ EIO errors? at QD1; left out of the deeper points$" "$T_ERR" ||
	{ check_fail "sweep EIO: no line leaving $bname out"; show_output; }
jq -e --arg g "$gname" --arg b "$bname" '
	(.points | length) == 3
	and .points[0].devices == [$g, $b] and .points[0].errors > 0
	and .points[1].devices == [$g] and .points[1].errors == 0 and .points[1].ios > 0
	and .points[2].devices == [$g]
	and .failed == [{"name": $b, "why": .failed[0].why}]' "$json" >/dev/null ||
	{ check_fail "sweep EIO: points do not leave $bname out"; jq -c '{points, failed}' "$json" >&2; }

# ---- saturate: the second device never answers ----
echo hang >"$ctl"
bg_until_json saturate -q --no-zero-sample --time 1 --ramp 0 --qd 4 --stall-timeout 1s --json "$json" "$good" "$bad"
[ "$T_RC" -eq 1 ] || { check_fail "saturate hang: exit $T_RC, want 1"; show_output; }
# the steps after the stalled one go on without it: the report is out
# while its reads are still held, not for ever
held_at_report "saturate hang"
grep -Eq "(^|: )$bname: no completion for [0-9.]+ s, [0-9]+ IOs? in flight$" "$T_ERR" ||
	{ check_fail "saturate hang: no stall line for $bname"; show_output; }
grep -Eq "(^|: )$bname: stalled in step alone QD1; left out of the later steps$" "$T_ERR" ||
	{ check_fail "saturate hang: no line leaving $bname out"; show_output; }
jq -e --arg g "$gname" --arg b "$bname" '
	(.devices[] | select(.name == $b) | .failed == "stalled in step alone QD1")
	and (.devices[] | select(.name == $g) | .qd1.all.ios > 0 and .qdn.all.ios > 0)
	and .system.devices == [$g] and .verdict.kind == "failed_device"' "$json" >/dev/null ||
	{ check_fail "saturate hang: JSON incomplete or $bname not left out"; \
		jq -c '{devices: [.devices[] | {name, failed}], system, verdict}' "$json" >&2; }

# ---- latency: the device never answers ----
echo hang >"$ctl"
bg_until_json latency -q --no-zero-sample --time 2 --ramp 0 --stall-timeout 1s --json "$json" "$bad"
[ "$T_RC" -eq 1 ] || { check_fail "latency hang: exit $T_RC, want 1"; show_output; }
held_at_report "latency hang"
jq -e '.devices[0].stalled == true and .devices[0].inflight_at_end == 1' "$json" >/dev/null ||
	{ check_fail "latency hang: not reported stalled"; jq -c '.devices' "$json" >&2; }

# ---- run: a device that goes away mid-run (read straight from the FUSE
# file: a loop device would turn ENODEV into EIO) ----
data=${ctl%/ctl}/data
echo "ok 2000 gone" >"$ctl"
run_iostorm run -q --no-zero-sample --time 3 --ramp 0 --qd 4 --buffered --json "$json" "$good" "$data"
gone=$(fault_count "$ctl" failed)
echo ok >"$ctl"
[ "$T_RC" -eq 1 ] || { check_fail "gone: exit $T_RC, want 1"; show_output; }
[ "$gone" -gt 0 ] || check_fail "gone: the device never went away (2000 reads took the whole run?)"
# the device that went away is rated over the run's window, like the
# other, whose window is the run's --time 3 (a worker may see the start a
# little after the runner does)
jq -e --arg g "$gname" '.elapsed_s as $w
	| (.devices[] | select(.name == "data") | .stopped_by == "ENODEV"
	 and .first_error.name == "ENODEV" and .ios > 0 and .ios <= 2000
	 and .elapsed_s == $w)
	and (.devices[] | select(.name == $g) | .stopped_by == null and .errors == 0
	 and .elapsed_s == $w and .elapsed_s > 2.9)' "$json" >/dev/null ||
	{ check_fail "gone: the device is not named, or the run did not go on"; jq -c '.devices' "$json" >&2; }
grep -Eq "^data: [0-9]+ errors? from [0-9.]+s: first ENODEV \(No such device\), most ENODEV; ENODEV stopped it, the others went on$" \
	"$T_OUT" || { check_fail "gone: no footer line"; show_output; }
t_done
