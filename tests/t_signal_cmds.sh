# SIGINT during sweep, saturate and latency (issue 17, item 8): each stops
# cleanly, its JSON says "interrupted": true and its table carries the
# INTERRUPTED marker. The signal goes once the command's live line says it
# is measuring (a sweep point, a saturate step, latency's window: see
# live_iostorm in lib.sh), never after a guessed sleep.
. "$(dirname "$0")/lib.sh"
need_iostorm
need_cmd jq script

make_data_file f 32
json=$T_DIR/r.json

# await_out TEXT TRIES: waits (0.1 s a try) until stdout has TEXT (latency
# draws no live line: its own line a second on stdout says it measures).
await_out() {
	local i
	for ((i = 0; i < $2; i++)); do
		grep -qF -- "$1" "$T_OUT" 2>/dev/null && return 0
		kill -0 "$T_LIVE" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}

# interrupt WHAT PHASE TABLE ARGS...: runs iostorm ARGS... live, sends one
# SIGINT once its live line shows PHASE (out:TEXT: once stdout has TEXT),
# then checks exit 0, the JSON and that a line of the table matches the
# extended regex TABLE.
interrupt() {
	local what=$1 phase=$2 table=$3 seen
	shift 3
	rm -f "$json"
	live_iostorm "$@" --json "$json" "$f"
	if [[ $phase == out:* ]]; then
		await_out "${phase#out:}" 300
	else
		await_live "$phase" 300
	fi
	seen=$?
	if [ "$seen" -ne 0 ]; then
		check_fail "$what: the run never showed $phase"
		kill -s KILL "$T_PID" 2>/dev/null
		live_reap 50
		show_output
		return
	fi
	kill -s INT "$T_PID"
	live_reap 300
	[ "$T_RC" -eq 0 ] || { check_fail "$what: exit $T_RC, want a clean stop (0)"; show_output; }
	jq -e --arg c "$1" '.schema == "iostorm/1" and .command == $c and .interrupted == true' \
		"$json" >/dev/null 2>&1 ||
		{ check_fail "$what: no complete JSON with \"interrupted\": true"; show_output; }
	grep -Eq -- "$table" "$T_OUT" ||
		{ check_fail "$what: the table has no INTERRUPTED marker (/$table/)"; show_output; }
}

# A measured phase shows on the live line after its first second; each
# lasts far longer than the signal takes to follow. sweep: in its second
# point (a sweep stopped in its first has no point to report); the point
# it was measuring is left out.
interrupt sweep "sweep QD2 (2/3)]" "^INTERRUPTED after [12] of 3 depths$" \
	sweep --qd 1,2,4 --time 5s --ramp 0
interrupt saturate "step 1/" "^iostorm saturate: .*, INTERRUPTED$" \
	saturate --qd 4 --time 60s --ramp 0
interrupt latency "out:   1: " "^iostorm latency: .*, INTERRUPTED$" \
	latency --time 60s --ramp 0
t_done
