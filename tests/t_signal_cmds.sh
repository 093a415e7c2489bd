# SIGINT during sweep, saturate and latency: each stops
# cleanly, its JSON says "interrupted": true and its table carries the
# INTERRUPTED marker. The signal goes once the command's live line says it
# is measuring (a sweep point, a saturate step, latency's window: see
# live_iostorm in lib.sh), never after a guessed sleep.
. "$(dirname "$0")/lib.sh"
need_iostorm
need_cmd jq script

make_data_file f 32
json=$T_DIR/r.json

# interrupt WHAT PHASE TABLE JQ ARGS...: runs iostorm ARGS... live, sends
# one SIGINT once its live line shows PHASE (out:TEXT: once stdout has
# TEXT), then checks exit 0, the JSON (and the jq filter JQ on it) and that
# a line of the table matches the extended regex TABLE.
interrupt() {
	local what=$1 phase=$2 table=$3 filter=$4 seen
	shift 4
	rm -f "$json"
	live_iostorm "$@" --json "$json" "$f"
	if [[ $phase == out:* ]]; then
		# latency draws no live line: its line a second on stdout
		# says it measures
		await_in "$T_OUT" "${phase#out:}" 300
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
	jq -e "$filter" "$json" >/dev/null 2>&1 ||
		{ check_fail "$what: the JSON does not hold what was measured ($filter)"; show_output; }
	grep -Eq -- "$table" "$T_OUT" ||
		{ check_fail "$what: the table has no INTERRUPTED marker (/$table/)"; show_output; }
}

# A measured phase shows on the live line after its first second; each
# lasts far longer than the signal takes to follow. sweep: the point it was
# measuring keeps the part it measured, marked, in its first point too (it
# was lost: a sweep stopped there wrote no report); one stopped in its
# first ramp reports no point, and says so.
pt='(.points | length) as $n'
interrupt "sweep in its second point" "sweep QD2 (2/3)]" \
	"^INTERRUPTED in depth 2 of 3 \(QD2, part of its window\)$" \
	"$pt | \$n == 2 and .points[0].interrupted == false and .points[1].interrupted == true
		and .points[1].ios > 0 and .points[1].qd == 2" \
	sweep --qd 1,2,4 --time 5s --ramp 0
interrupt "sweep in its first point" "sweep QD1 (1/3)]" \
	"^ +1 .*\(interrupted: part of its window\)$" \
	"$pt | \$n == 1 and .points[0].interrupted == true and .points[0].ios > 0
		and .knee_qd == null" \
	sweep --qd 1,2,4 --time 30s --ramp 0
interrupt "sweep in its first ramp" "sweep QD1 (1/3), ramp]" "^INTERRUPTED after 0 of 3 depths$" \
	'.points == [] and .knee_qd == null' \
	sweep --qd 1,2,4 --time 5s --ramp 30s
interrupt saturate "step 1/" "^iostorm saturate: .*, INTERRUPTED$" true \
	saturate --qd 4 --time 60s --ramp 0
interrupt latency "out:   1: " "^iostorm latency: .*, INTERRUPTED$" true \
	latency --time 60s --ramp 0
t_done
