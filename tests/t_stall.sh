# Stalls are detected and bounded (issue 10, items 1 and 2): a device whose
# reads stop completing a second into a 4 s run, beside a healthy one, is
# named on stderr as it happens; the run ends within its time plus the
# drain grace (not when the device recovers), reports the device stalled
# with inflight_at_end in a complete JSON file, gives the healthy device
# its full rate over the run's own window, and exits 1. Held reads are
# always released: by the test once it has looked, by its watchdog if
# iostorm overruns, and by the EXIT trap. A device that fails reads with
# EIO and then hangs has its errors named although it is stalled.
. "$(dirname "$0")/lib.sh"
need_iostorm
need_cmd jq

make_loop good 64
make_fault_loop bad ctl 64
gname=${good#/dev/} bname=${bad#/dev/}
json=$T_DIR/r.json

"$IOSTORM" run -q --time 4 --ramp 0 --qd 8 --stall-timeout 1s --json "$json" \
	"$good" "$bad" >"$T_OUT" 2>"$T_ERR" </dev/null &
pid=$!
# the watchdog: released and killed after 30 s whatever happens
(sleep 30 && echo ok >"$ctl" 2>/dev/null && sleep 1 && kill -KILL "$pid" 2>/dev/null) &
dog=$!
t0=$(date +%s.%N)
sleep 1 && echo hang >"$ctl"
# done once the JSON is written (the process itself may stay in the
# kernel until the held reads are released)
await_json "$pid" "$json" 250
t1=$(date +%s.%N)
release_reap "$pid" "$dog" "$ctl"
rc=$T_RC

took=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
awk -v t="$took" 'BEGIN { exit !(t < 12) }' ||
	{ check_fail "hang: the report came after ${took}s, want about 4 + 1 s grace"; show_output; }
[ "$rc" -eq 1 ] || { check_fail "hang: exit $rc, want 1"; show_output; }
grep -Eq "(^|: )$bname: no completion for [0-9.]+ s, [0-9]+ IOs in flight$" "$T_ERR" ||
	{ check_fail "hang: no stall line for $bname on stderr"; show_output; }
grep -Eq "(^|: )$gname: no completion" "$T_ERR" &&
	check_fail "hang: the healthy $gname is named as stalled"
grep -Eq "^$bname: stalled: [0-9]+ IOs? still in flight" "$T_OUT" ||
	{ check_fail "hang: the report does not say $bname stalled"; show_output; }
jq -e . "$json" >/dev/null 2>&1 || check_fail "hang: the JSON is not complete"
jq -e --arg b "$bname" '.devices[] | select(.name == $b)
	| .stalled == true and .inflight_at_end > 0 and .ios > 0
	and .elapsed_s > 3.5 and .elapsed_s < 4.5' "$json" >/dev/null ||
	{ check_fail "hang: $bname is not reported stalled with its window"; jq -c '.devices[]' "$json" >&2; }
# the healthy device's window is the run's 4 s, not 4 s + the grace
jq -e --arg g "$gname" '.devices[] | select(.name == $g)
	| .stalled == false and .inflight_at_end == 0 and .ios > 0 and .errors == 0
	and .elapsed_s > 3.5 and .elapsed_s < 4.2' "$json" >/dev/null ||
	{ check_fail "hang: the healthy $gname has no IOs or a longer window"; jq -c '.devices[]' "$json" >&2; }

# ---- the watch off: the end waits for the IOs, a second request ends it ----
rm -f "$json"
"$IOSTORM" run -q --time 20 --ramp 0 --qd 8 --stall-timeout 0 --json "$json" \
	"$good" "$bad" >"$T_OUT" 2>"$T_ERR" </dev/null &
pid=$!
(sleep 30 && echo ok >"$ctl" 2>/dev/null && sleep 1 && kill -KILL "$pid" 2>/dev/null) &
dog=$!
sleep 1 && echo hang >"$ctl"
sleep 1 && kill -INT "$pid"
# the first request ends the window; the drain then waits on the held IOs
sleep 2.5
jq -e . "$json" >/dev/null 2>&1 && check_fail "second signal: the report came before it"
kill -TERM "$pid"
await_json "$pid" "$json" 50
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
(sleep 30 && echo ok >"$ctl" 2>/dev/null && sleep 1 && kill -KILL "$pid" 2>/dev/null) &
dog=$!
await_json "$pid" "$json" 150 || check_fail "--ios: no report within 15 s"
release_reap "$pid" "$dog" "$ctl"
rc=$T_RC
[ "$rc" -eq 1 ] || { check_fail "--ios: exit $rc, want 1"; show_output; }
jq -e --arg b "$bname" --arg g "$gname" '(.devices[] | select(.name == $b) | .stalled == true)
	and (.devices[] | select(.name == $g) | .ios == 20000 and .stalled == false)' \
	"$json" >/dev/null || { check_fail "--ios: $bname not stalled or $gname short"; show_output; }

# ---- errors, then a hang: the stalled device's errors are named ----
# The worker is still in the kernel when the report is written: its errors
# come from what it published, and must name EIO with its time, as for a
# worker that stopped.
echo ok >"$ctl"
rm -f "$json"
"$IOSTORM" run -q --time 3 --ramp 0 --qd 8 --stall-timeout 1s --json "$json" \
	"$good" "$bad" >"$T_OUT" 2>"$T_ERR" </dev/null &
pid=$!
(sleep 30 && echo ok >"$ctl" 2>/dev/null && sleep 1 && kill -KILL "$pid" 2>/dev/null) &
dog=$!
sleep 0.7 && echo eio >"$ctl" && sleep 0.5 && echo hang >"$ctl"
await_json "$pid" "$json" 150
release_reap "$pid" "$dog" "$ctl"
rc=$T_RC
[ "$rc" -eq 1 ] || { check_fail "eio then hang: exit $rc, want 1"; show_output; }
jq -e --arg b "$bname" '.devices[] | select(.name == $b)
	| .stalled == true and .inflight_at_end > 0 and .errors > 0
	and .first_error.name == "EIO" and .first_error.errno == 5
	and .first_error.at_s >= 0.3 and .first_error.at_s <= 2.5
	and .most_common_error.name == "EIO" and .most_common_error.count > 0
	and .most_common_error.count <= .errors' "$json" >/dev/null ||
	{ check_fail "eio then hang: the stalled $bname's errors are not named"; \
		jq -c '.devices[] | {name, stalled, ios, errors, first_error, most_common_error}' \
		"$json" >&2; }
grep -Eq "^$bname: [0-9]+ errors from [0-9.]+s: first EIO \(Input/output error\), most EIO$" \
	"$T_OUT" || { check_fail "eio then hang: no error line for $bname"; show_output; }

# the device recovered: a clean run exits 0
expect_ok "healthy again" run -q --time 300ms --ramp 0 --stall-timeout 1s "$bad"
t_done
