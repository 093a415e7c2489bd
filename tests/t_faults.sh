# IO errors are named: a device whose reads start failing with
# EIO once the run has measured a second, beside a healthy one, makes run
# exit 1 after the full report and JSON; the report names the error, its
# errno and when it began, after the report's own first one-second sample
# (the switch comes once the run's live line says it measured that
# second); the healthy device is unaffected. A device whose every IO fails
# has no latency. sweep, latency and saturate exit 1 on failed IOs too.
. "$(dirname "$0")/lib.sh"
need_iostorm
need_cmd jq script

make_loop good 64
make_fault_loop bad ctl 64
gname=${good#/dev/} bname=${bad#/dev/}
json=$T_DIR/r.json

# ---- EIO from after the first measured second; stopped once it failed ----
echo ok >"$ctl"
live_iostorm run --time 60 --ramp 0 --qd 8 --json "$json" "$good" "$bad"
await_live "run]" 300 || check_fail "EIO mid-run: the run never said it was measuring"
echo eio >"$ctl"
await_fault "$ctl" failed 100 300 || check_fail "EIO mid-run: the device failed no reads"
kill -INT "$T_PID"
live_reap 300
echo ok >"$ctl"
[ "$T_RC" -eq 1 ] || { check_fail "EIO mid-run: exit $T_RC, want 1"; show_output; }
jq -e . "$json" >/dev/null 2>&1 || check_fail "EIO mid-run: the JSON is not complete"
jq -e --arg g "$gname" '.devices[] | select(.name == $g)
	| .errors == 0 and .ios > 0 and .first_error == null and .most_common_error == null' \
	"$json" >/dev/null || check_fail "EIO mid-run: the healthy $gname has errors or no IOs"
jq -e --arg b "$bname" '.devices[] | select(.name == $b)
	| .errors > 0 and .first_error.name == "EIO" and .first_error.errno == 5
	and .first_error.text == "Input/output error"
	and .timeline[0].ios > 0 and .first_error.at_s >= .timeline[0].t_s
	and .first_error.at_s <= .elapsed_s
	and (.first_error.at_s as $e | all(.timeline[]; .t_s - .dt_s < $e + 0.1 or .ios == 0))
	and .most_common_error.name == "EIO" and .most_common_error.count > 0
	and .most_common_error.count <= .errors' \
	"$json" >/dev/null || { check_fail "EIO mid-run: $bname's errors are not named"; \
		jq -c '.devices[] | {name, ios, errors, first_error, most_common_error, timeline}' "$json" >&2; }
grep -Eq "^$bname: [0-9]+ errors from [0-9.]+s: first EIO \(Input/output error\), most EIO$" \
	"$T_OUT" || { check_fail "EIO mid-run: no footer line for $bname"; show_output; }
grep -q "^$gname:" "$T_OUT" && check_fail "EIO mid-run: a footer line for the healthy $gname"

# ---- every IO fails from the start ----
echo eio >"$ctl"
run_iostorm run -q --time 500ms --ramp 0 --json "$json" "$bad"
[ "$T_RC" -eq 1 ] || { check_fail "all fail: exit $T_RC, want 1"; show_output; }
jq -e '.devices[0] | .ios == 0 and .errors > 0 and .lat_ns == null
	and .first_error.name == "EIO" and .first_error.at_s >= 0
	and .first_error.at_s <= .elapsed_s' "$json" >/dev/null ||
	{ check_fail "all fail: latency reported, or errors not named"; jq -c '.devices[0]' "$json" >&2; }
grep -Eq "^$bname +0 +0\.0 +- +- " "$T_OUT" ||
	{ check_fail "all fail: the table shows a latency"; show_output; }

# ---- the other commands that measure reads ----
run_iostorm sweep -q --qd 1,2 --time 300ms --ramp 0 "$bad"
[ "$T_RC" -eq 1 ] || { check_fail "sweep: exit $T_RC, want 1"; show_output; }
grep -q "^$bname: [0-9]* errors from .*first EIO" "$T_OUT" ||
	{ check_fail "sweep: no error line"; show_output; }
run_iostorm latency -q --time 1 --ramp 0 "$bad"
[ "$T_RC" -eq 1 ] || { check_fail "latency: exit $T_RC, want 1"; show_output; }
run_iostorm saturate -q --time 200ms --ramp 0 "$bad"
[ "$T_RC" -eq 1 ] || { check_fail "saturate: exit $T_RC, want 1"; show_output; }
echo ok >"$ctl"

# the same device, healthy again: a clean run exits 0
expect_ok "healthy again" run -q --time 300ms --ramp 0 "$bad"
t_done
