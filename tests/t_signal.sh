# SIGINT (and SIGTERM) mid-run: the run stops cleanly and the report holds
# what was measured up to then, as valid JSON. Every signal goes only once
# the run says which phase it is in (its live line on a terminal, see
# live_iostorm in lib.sh), never after a guessed sleep: a slow start would
# put it in the ramp, or before the handlers are set.
. "$(dirname "$0")/lib.sh"
need_iostorm
need_cmd jq timeout script

make_data_file f 32
json=$T_DIR/r.json

# measured [JSON]: a 60 s run with a short ramp, its JSON to JSON (default
# $json), started live; returns once it says it is measuring (1 when it
# never did: said).
measured() {
	rm -f "$json"
	live_iostorm run --time 60s --ramp 200ms --json "${1:-$json}" "$f"
	await_live "run]" 300 && return 0
	check_fail "the run never said it was measuring"
	kill -s KILL "$T_PID" 2>/dev/null
	live_reap 50
	show_output
	return 1
}

# SIGINT with the JSON on stdout (the table then goes to stderr), SIGTERM
# with it in a file
for sig in INT TERM; do
	dest=$json j=$json table=$T_OUT
	[ "$sig" = TERM ] || dest=- j=$T_OUT table=$T_ERR
	measured "$dest" || continue
	kill -s "$sig" "$T_PID"
	live_reap 300
	rc=$T_RC
	if [ "$rc" -ne 0 ]; then
		check_fail "SIG$sig: exit $rc: not stopped cleanly"
		show_output
		continue
	fi
	if ! json_check "$j" run 1; then
		check_fail "SIG$sig: partial report is not a valid report"
		show_output
		continue
	fi
	# cut short: the window is the part measured before the signal, which
	# came once the runner had measured its first second (the worker may
	# have seen the start a little after the runner: not a full second)
	jq -e '.interrupted == true and .devices[0].elapsed_s > 0.5
		and .devices[0].elapsed_s < 60' "$j" >/dev/null ||
		check_fail "SIG$sig: elapsed says the run was not cut short"
	grep -q ", INTERRUPTED$" "$table" ||
		{ check_fail "SIG$sig: the table is not marked INTERRUPTED"; show_output; }
done

# One stop request delivered twice is one request: GNU timeout signals its
# child and then its own process group, and a shell's two quick kills come
# from one sender too. Both must stop cleanly with a report, not kill it.
if measured; then
	kill -TERM "$T_PID"
	kill -TERM "$T_PID"
	live_reap 300
	[ "$T_RC" -eq 0 ] && jq -e '.interrupted == true' "$json" >/dev/null ||
		{ check_fail "SIGTERM twice from one sender: exit $T_RC, want a clean stop"; show_output; }
fi
# timeout's own alarm (SIGALRM) is its time running out: it sends TERM to
# its child, then to its process group, as when its time is up
rm -f "$json"
live_cmd timeout -s TERM 300 "$IOSTORM" run --time 60s --ramp 200ms --json "$json" "$f"
if await_live "run]" 300; then
	kill -s ALRM "$T_PID"
	live_reap 300
	# 124: timeout's own status for "timed out"; a kill by the signal is 143
	[ "$T_RC" -eq 124 ] && jq -e '.interrupted == true' "$json" >/dev/null ||
		{ check_fail "SIGTERM from timeout (child and group): exit $T_RC, want a clean stop"; show_output; }
else
	check_fail "under timeout: the run never said it was measuring"
	kill -s KILL "$T_PID" 2>/dev/null
	live_reap 50
fi

# SIGINT during the ramp: nothing was measured, and nothing may pose as a
# measurement (no rate, no latency from the ramp's IOs). The signal goes
# once the run says it is ramping; the ramp is far longer than that takes.
rm -f "$json"
live_iostorm run --time 60s --ramp 300s --json "$json" "$f"
if await_live "run, ramp]" 300; then
	kill -s INT "$T_PID"
	live_reap 300
	rc=$T_RC
	if [ "$rc" -ne 0 ] || ! jq -e '.schema == "iostorm/1" and .command == "run"' "$json" >/dev/null; then
		check_fail "SIGINT in the ramp: exit $rc or no valid report"
		show_output
	elif ! jq -e '.interrupted == true and .devices[0].ios == 0 and .devices[0].iops == 0
			and .devices[0].lat_ns == null' "$json" >/dev/null; then
		check_fail "SIGINT in the ramp: the report shows figures that were not measured"
		show_output
	fi
	grep -q "^nothing was measured" "$T_OUT" ||
		{ check_fail "SIGINT in the ramp: the table does not say nothing was measured"; show_output; }
else
	check_fail "the run never said it was ramping"
	kill -s KILL "$T_PID" 2>/dev/null
	live_reap 50
fi
t_done
