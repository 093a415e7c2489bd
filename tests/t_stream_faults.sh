# --stream under faults: every interval the run finished is in the stream,
# and the stream says how the command ended.
# - SIGINT: an end line "interrupted" whose report's IOs are the intervals'.
# - SIGKILL: no end line (a reader knows the stream was cut), every line
#   whole but perhaps the last.
# - a device that stalls: an event line names it, the end says "stalled",
#   and its report names it stalled.
# - a full disk under the stream: the run goes on to its end and report,
#   says in one line that the stream was cut, and exits 1 as for a report
#   it could not write.
# Signals go once the stream shows the run measuring (its interval lines),
# never after a guessed sleep; waits are guards against a hang.
. "$(dirname "$0")/lib.sh"
need_iostorm
need_cmd jq

make_loop a 32
aname=${a#/dev/}
s=$T_DIR/s.jsonl json=$T_DIR/r.json

# await_intervals PID N: waits (0.1 s a try) until the stream has N total
# interval lines while PID runs; 1 when PID ended first or the guard ran out.
await_intervals() {
	local i n
	for ((i = 0; i < T_TRIES; i++)); do
		n=$(grep -c '"type":"interval","run":0,"device":null' "$s" 2>/dev/null)
		[ "${n:-0}" -ge "$2" ] && return 0
		kill -0 "$1" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}

# ---- SIGINT ----
"$IOSTORM" run -q --time 60s --ramp 0 --interval 200ms --stream "$s" --json "$json" "$a" \
	>"$T_OUT" 2>"$T_ERR" </dev/null &
pid=$!
await_intervals "$pid" 2 || check_fail "SIGINT: the stream never showed two intervals"
kill -INT "$pid"
reap_within "$pid" "$T_TRIES"
jq -e -s --slurpfile r "$json" '
	.[-1].type == "end" and .[-1].how == "interrupted" and .[-1].report == $r[0]
	and $r[0].interrupted == true
	and ([.[] | select(.type == "interval" and .device != null) | .ios] | add) == $r[0].devices[0].ios
	and ([.[] | select(.type == "interval" and .last)] | length) == 2
' "$s" >/dev/null ||
	{ check_fail "SIGINT: no end line 'interrupted' with the intervals' IOs (exit $T_RC)"; show_output; }

# ---- SIGKILL ----
rm -f "$s"
"$IOSTORM" run -q --time 60s --ramp 0 --interval 200ms --stream "$s" "$a" >"$T_OUT" 2>"$T_ERR" </dev/null &
pid=$!
await_intervals "$pid" 3 || check_fail "SIGKILL: the stream never showed three intervals"
kill -KILL "$pid"
reap_within "$pid" "$T_TRIES"
n=$(wc -l <"$s")
head -n "$((n - 1))" "$s" | jq -e -s 'length >= 4 and .[0].type == "header" and .[1].type == "window"
	and ([.[] | select(.type == "interval")] | length) >= 4 and all(.[]; .type != "end")' >/dev/null ||
	check_fail "SIGKILL: the lines before the last are not a header, a window and whole intervals"
tail -n 1 "$s" | jq -e 'select(.type == "end")' >/dev/null 2>&1 && check_fail "SIGKILL: an end line"

# ---- a device that stalls, beside a healthy one ----
make_fault_loop bad ctl 32
bname=${bad#/dev/}
rm -f "$s" "$json"
echo "ok 200 hang" >"$ctl"
"$IOSTORM" run -q --no-zero-sample --time 3 --ramp 0 --qd 8 --stall-timeout 1s --stream "$s" \
	--json "$json" "$a" "$bad" >"$T_OUT" 2>"$T_ERR" </dev/null &
pid=$!
(sleep "$T_RUN_GUARD" && echo ok >"$ctl" 2>/dev/null && sleep 1 && kill -KILL "$pid" 2>/dev/null) &
dog=$!
# the end line is the command's last act before it exits (its held reads
# may keep it in the kernel after)
for ((i = 0; i < T_TRIES; i++)); do
	grep -q '"type":"end"' "$s" 2>/dev/null && break
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.1
done
[[ $(cat "$ctl") == "hang "* ]] || check_fail "stall: the stream ended only once the reads were answered"
release_reap "$pid" "$dog" "$ctl"
jq -e -s --arg b "$bname" '
	any(.[]; .type == "event" and .what == "stall" and .device == $b and (.text | test("no completion")))
	and .[-1].type == "end" and .[-1].how == "stalled" and .[-1].exit == 1
	and any(.[-1].report.devices[]; .name == $b and .stalled)
	and ([.[] | select(.type == "interval" and .last)] | length) == 3
' "$s" >/dev/null || { check_fail "stall: no stall event and 'stalled' end (exit $T_RC)"; show_output; }

# ---- a full disk under the stream ----
need_root "a small tmpfs"
small=$T_DIR/small
mkdir "$small"
mount -t tmpfs -o size=64k iostorm-test "$small" || skip "cannot mount a tmpfs here"
T_MOUNTS+=("$small")
rm -f "$json"
run_iostorm run -q --time 2s --ramp 0 --interval 100ms --stream "$small/s.jsonl" --json "$json" "$a"
[ "$T_RC" -eq 1 ] || { check_fail "full disk: exit $T_RC, want 1"; show_output; }
jq -e '.devices[0].ios > 0' "$json" >/dev/null || check_fail "full disk: no report"
[ "$(grep -c 'the stream is cut' "$T_ERR")" -eq 1 ] &&
	grep -q "^iostorm run: --stream $small/s.jsonl: cannot write: No space left on device: the stream is cut here$" "$T_ERR" ||
	{ check_fail "full disk: not one line saying the stream is cut"; show_output; }
grep -q '"type":"end"' "$small/s.jsonl" && check_fail "full disk: an end line in a cut stream"
grep -q '"type":"header"' "$small/s.jsonl" || check_fail "full disk: not even the header"
t_done
