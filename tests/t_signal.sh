# SIGINT (and SIGTERM) mid-run: the run stops cleanly and the report holds
# what was measured up to then, as valid JSON.
. "$(dirname "$0")/lib.sh"
need_iostorm
need_cmd jq timeout

make_data_file f 32
for sig in INT TERM; do
	signal_iostorm "$sig" 2 run -q --time 60s --ramp 200ms --json - "$f"
	rc=$T_RC
	if [ "$rc" -ne 0 ]; then
		check_fail "SIG$sig: exit $rc: not stopped cleanly"
		show_output
		continue
	fi
	if ! json_check "$T_OUT" run 1; then
		check_fail "SIG$sig: partial report is not a valid report"
		show_output
		continue
	fi
	# measured well under the 60 s asked for
	jq -e '.devices[0].elapsed_s < 30 and .interrupted == true' "$T_OUT" >/dev/null ||
		check_fail "SIG$sig: elapsed says the run was not cut short"
done

# One stop request delivered twice is one request: GNU timeout signals its
# child and then its own process group, and a shell's two quick kills come
# from one sender too. Both must stop cleanly with a report, not kill it.
"$IOSTORM" run -q --time 60s --ramp 200ms --json - "$f" >"$T_OUT" 2>"$T_ERR" </dev/null &
pid=$!
sleep 1
kill -TERM "$pid"
kill -TERM "$pid"
wait "$pid"
rc=$?
[ "$rc" -eq 0 ] && jq -e '.interrupted == true' "$T_OUT" >/dev/null ||
	{ check_fail "SIGTERM twice from one sender: exit $rc, want a clean stop"; show_output; }
timeout -s TERM 1 "$IOSTORM" run -q --time 60s --ramp 200ms --json - "$f" >"$T_OUT" 2>"$T_ERR" </dev/null
rc=$?
# 124: timeout's own status for "timed out"; a kill by the signal is 143
[ "$rc" -eq 124 ] && jq -e '.interrupted == true' "$T_OUT" >/dev/null ||
	{ check_fail "SIGTERM from timeout (child and group): exit $rc, want a clean stop"; show_output; }

# SIGINT during the ramp: nothing was measured, and nothing may pose as a
# measurement (no rate, no latency from the ramp's IOs)
signal_iostorm INT 1 run -q --time 60s --ramp 30s --json - "$f"
rc=$T_RC
if [ "$rc" -ne 0 ] || ! jq -e '.schema == "iostorm/1" and .command == "run"' "$T_OUT" >/dev/null; then
	check_fail "SIGINT in the ramp: exit $rc or no valid report"
	show_output
elif ! jq -e '.interrupted == true and .devices[0].ios == 0 and .devices[0].iops == 0
		and .devices[0].lat_ns == null' "$T_OUT" >/dev/null; then
	check_fail "SIGINT in the ramp: the report shows figures that were not measured"
	show_output
fi
grep -q "nothing was measured" "$T_ERR" || check_fail "SIGINT in the ramp: the table does not say nothing was measured"
t_done
