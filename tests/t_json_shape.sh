# docs/json.md is the JSON's one source of truth, held both ways: every key
# path that run, nop, latency, sweep, saturate, plan, topo, check and compare write (arrays
# as []), and every line of a --stream (as stream_TYPE), is documented for that command with its type, every documented key
# is written by some case here, and each value has a documented type. A key
# marked "(only ...)" may be missing from a report, but a case here writes
# it, or the test says why none can on this machine.
. "$(dirname "$0")/lib.sh"
need_iostorm
need_cmd jq awk

here=$(cd "$(dirname "$0")" && pwd)
fx=$here/fixtures
awk -f "$here/json_doc.awk" "$here/../docs/json.md" >"$T_DIR/doc.tsv" ||
	fail "docs/json.md: its tables cannot be read (lines above)"
[ -s "$T_DIR/doc.tsv" ] || fail "docs/json.md documents no key"
reports=$T_DIR/reports
mkdir "$reports"
q=(-q --time 300ms --ramp 0)
n=0
# why a conditional key is seen by no case here: "path-regex<TAB>reason"
: >"$T_DIR/unseeable"

# report WHAT RC ARGS...: iostorm ARGS --json FILE exits RC (1 for the
# cases with a failing device) with a report, whose keys are gathered below
report() {
	local what=$1 rc=$2 f
	shift 2
	n=$((n + 1))
	f=$reports/$n.json
	run_iostorm "$@" --json "$f"
	if [ "$T_RC" -ne "$rc" ]; then
		check_fail "$what: exit $T_RC, want $rc: iostorm $*"
		show_output
	fi
	if ! jq -e '.command | type == "string"' "$f" >/dev/null 2>&1; then
		check_fail "$what: no JSON report (exit $T_RC): iostorm $*"
		show_output
		rm -f "$f"
	fi
}

make_data_file file 16
# As root the loop and fault devices are required (make_loop and
# make_fault_loop skip, naming why, where they cannot be made); as another
# user the cases that need them do not run and the test ends in a skip
# that says so, after every other check has passed.
loop= fault=
if [ "$(id -u)" -eq 0 ]; then
	make_loop loop 16
	make_fault_loop fault ctl 16
fi

# ---- run: two workers pinned; a device and a file; no latency ----
report "run" 0 run "${q[@]}" --jobs-per-device 2 --cpus 0,1 "$file"
[ -z "$loop" ] || report "run, two targets" 0 run "${q[@]}" "$loop" "$file"
report "run, no latency" 0 run "${q[@]}" --no-latency "$file"
# more workers than this machine has cores: placement's shared-cores note
report "run, cores shared" 0 run "${q[@]}" --jobs-per-device "$(($(nproc) + 1))" "$file"
jq -e '[.placement_notes.notes[].kind] | index("shared_cores")' "$reports/$n.json" >/dev/null ||
	check_fail "run with more workers than cores: no shared_cores note in placement_notes"
report "run, placement none" 0 run "${q[@]}" --placement none "$file"
jq -e '.placement_notes == null' "$reports/$n.json" >/dev/null ||
	check_fail "run --placement none: placement_notes is not null"
# ---- run --steady: a wide band, settled at its first window (2 s); the
# temperature asked of a file, which has none ----
report "run, steady" 0 run -q --ramp 0 --time 3s --steady 90%,2s,lat --temperature-every 1s "$file"
jq -e '.steady.reached' "$reports/$n.json" >/dev/null ||
	printf '%s\t%s\n' '^steady\.at_s' 'the run did not settle within 90% here' >>"$T_DIR/unseeable"
printf '%s\t%s\n' '^(config\.)?steady\.|^temperature\.' '--steady and --temperature-every are options of run only' >>"$T_DIR/unseeable"
# ---- run: a target whose reads fail (first_error, most_common_error) ----
if [ -n "$fault" ]; then
	echo eio >"$ctl"
	report "run, failing reads" 1 run "${q[@]}" "$file" "$fault"
	echo ok >"$ctl"
else
	printf '%s\t%s\n' 'first_error\.|most_common_error\.' \
		'no FUSE fault device here for a failing target' >>"$T_DIR/unseeable"
fi
report "nop" 0 nop "${q[@]}"
report "latency" 0 latency "${q[@]}" "$file"
# ---- sweep, with a target failing at the first depth ----
if [ -n "$fault" ]; then
	echo eio >"$ctl"
	report "sweep, a failing target" 1 sweep "${q[@]}" --qd 1,2 "$file" "$fault"
	echo ok >"$ctl"
else
	report "sweep" 0 sweep "${q[@]}" --qd 1,2 "$file"
	printf '%s\t%s\n' '^failed\[\]' 'no FUSE fault device here for a failing target' \
		>>"$T_DIR/unseeable"
fi
sweepjson=$reports/$n.json
# ---- saturate: placement compared, ceiling solved, a failing device ----
sat=("$file")
sat_rc=0
[ -z "$loop" ] || sat+=("$loop")
[ -z "$fault" ] || { echo eio >"$ctl"; sat+=("$fault"); sat_rc=1; }
report "saturate" "$sat_rc" saturate "${q[@]}" --qd 4 --compare-placement "${sat[@]}"
[ -z "$fault" ] || echo ok >"$ctl"
satjson=$reports/$n.json
if [ -f "$satjson" ] && jq -e '.smt == null' "$satjson" >/dev/null; then
	printf '%s\t%s\n' '^smt\.' 'this machine has no core with two PUs (saturate wrote smt null)' \
		>>"$T_DIR/unseeable"
fi
# a spread of the split's parts is null where some repeat's part is below
# one scheduler tick (docs/cpu.md): a short repeat's user time may be
if [ -f "$satjson" ] && jq -e '[.devices[]?.qdn?.all?.repeats? | objects |
	.cpu_user_ns_per_io, .cpu_sys_ns_per_io] | any(. == null)' "$satjson" >/dev/null; then
	printf '%s\t%s\n' 'repeats\.cpu_(user|sys)_ns_per_io\.' \
		'a repeat'"'"'s user or system CPU time was below one tick here (saturate wrote the spread null)' \
		>>"$T_DIR/unseeable"
fi
# ---- plan: moves, every option, --from the saturate report above ----
report "plan" 0 plan --topology "$fx/topo-1node-2hb.xml" --drive-iops 1m
report "plan, every option" 0 plan --topology "$fx/topo-unknown-hb.xml" --drive-iops 1m \
	--memory-bw 4g --host-bridge-bw 8g ${satjson:+--from "$satjson"}
# ---- topo: multipath and a degraded link on recorded sysfs; targets live ----
IOSTORM_SYSFS_ROOT=$fx/sysfs-multipath report "topo multipath" 0 topo --topology "$fx/topo-multipath.xml"
IOSTORM_SYSFS_ROOT=$fx/sysfs-degraded report "topo degraded" 0 topo --topology "$fx/topo-degraded-link.xml"
report "topo 2 nodes" 0 topo --topology "$fx/topo-2node-imbalance.xml"
report "topo live" 0 topo ${loop:+"$loop"} "$file"
report "topo cpukinds" 0 topo --topology "$fx/topo-cpukinds.xml"
# ---- check: recorded machines (a finding of most kinds, queues with their
# interrupts), and live targets ----
for m in setup-strict setup-onequeue setup-poll; do
	IOSTORM_SYSFS_ROOT=$fx/$m/sys IOSTORM_PROCFS_ROOT=$fx/$m/proc \
		report "check $m" 3 check --jobs-per-device 2 --completion poll
done
# --measure on the loop device (root), its queue set to cost IOPS first;
# two rounds, so each row has its test
if [ -n "$loop" ]; then
	lq=/sys/block/${loop#/dev/}/queue
	T_SYSFS+=("$lq/iostats $(cat "$lq/iostats")")
	echo 1 >"$lq/iostats" || fail "cannot set iostats on $loop"
	IOSTORM_JOURNAL=$T_DIR/settings.journal \
		report "check --measure" 3 check --measure --rounds 2 --time 100ms --ramp 0 --qd 2 "$loop"
else
	printf '%s\t%s\n' '^measured' 'check --measure needs root and a loop device' >>"$T_DIR/unseeable"
fi
# live, nothing or something may cost IOPS: 0 or 3, never anything else
run_iostorm check "$file" ${loop:+"$loop"}
case $T_RC in
0 | 3) report "check live" "$T_RC" check "$file" ${loop:+"$loop"} ;;
*) check_fail "check live: exit $T_RC, want 0 or 3"; show_output ;;
esac

# ---- compare: repeated runs, rows only one side has, a changed option,
# a side of one run ----
make_data_file file2 16
report "run, repeated" 0 run "${q[@]}" --repeat 2 "$file"
rep1=$reports/$n.json
report "run, repeated, two targets" 0 run "${q[@]}" --repeat 2 --batch 4 "$file" "$file2"
rep2=$reports/$n.json
report "compare" 0 compare "$rep1" "$rep2"
# one run of one repeat a side: each side's percentiles carry their own
# intervals (pct_ci)
report "compare, one run a side" 0 compare "$reports/1.json" "$reports/1.json"
report "run, open loop" 0 run "${q[@]}" --rate 200 --arrival poisson "$file" "$file2"
report "sweep, by load" 0 sweep "${q[@]}" --rate 20%,40% --qd 2 "$file"
sweepload=$reports/$n.json
report "saturate, open loop" 0 saturate "${q[@]}" --rate 200 --qd 2 --compare-placement "$file"
# sweep (its first point, or by load its closed-loop maximum) and
# saturate (its step all at once) carry placement's notes; a loop device
# has no PCI locality, and placement says so
for j in "$sweepjson" "$sweepload" "$satjson" "$reports/$n.json"; do
	[ -f "$j" ] || continue
	jq -e '.placement_notes | type == "object"' "$j" >/dev/null ||
		check_fail "$(jq -r .command "$j") report $(basename "$j"): placement_notes is not an object"
done
no_pci() {
	[ -f "$1" ] && jq -e --arg d "$(basename "$2")" \
		'[.placement_notes.notes[] | select(.device == $d) | .kind] | index("no_pci")' \
		"$1" >/dev/null ||
		check_fail "$(jq -r .command "$1" 2>/dev/null) report: no no_pci note of $2 in placement_notes"
}
[ -z "$fault" ] || no_pci "$sweepjson" "$fault"
[ -z "$loop" ] || no_pci "$satjson" "$loop"
# the gate may or may not be met by noise: 0 or 4, never anything else
run_iostorm compare --fail-worse 50 "$rep2" "$rep1" "$reports/1.json"
case $T_RC in
0 | 4) report "compare --fail-worse" "$T_RC" compare --fail-worse 50 "$rep2" "$rep1" "$reports/1.json" ;;
*) check_fail "compare --fail-worse: exit $T_RC, want 0 or 4"; show_output ;;
esac
# --ab runs both sides itself: its own options before the first '--', so
# report's trailing --json would be B's
n=$((n + 1))
run_iostorm compare --ab 2 --json "$reports/$n.json" -- run "${q[@]}" "$file" -- run "${q[@]}" "$file"
[ "$T_RC" -eq 0 ] && jq -e '.ab.rounds == 2' "$reports/$n.json" >/dev/null ||
	{ check_fail "compare --ab: exit $T_RC, or no report"; show_output; }

# ---- tune: the placement stage alone, the least budget it takes; a
# winner other than the default (its final, knobs) is t_tune's to see ----
# its candidates follow this machine's CPUs: the least budget is asked first
run_iostorm tune --budget 10s --ramp 0 --stages placement "$file"
least=$(sed -nE 's/.*it needs at least ([0-9]+)s.*/\1/p' "$T_ERR")
[ -n "$least" ] ||
	{ check_fail "tune --budget 10s: no least budget named"; show_output; least=60; }
report "tune" 0 tune --budget "$((least + 5))s" --ramp 0 --stages placement \
	--write-config "$T_DIR/tune.ini" "$file"
tj=$reports/$n.json
# unseen(JQ REGEX WHY): REGEX's keys are unseeable where JQ holds of the report
unseen() { if jq -e "$1" "$tj" >/dev/null 2>&1; then printf '%s\t%s\n' "$2" "$3" >>"$T_DIR/unseeable"; fi; }
won='the default configuration won here (t_tune sees a winner other than it)'
unseen '.tune.final == null' '^tune\.final\.' "$won"
unseen '.tune.undecided == null' '^tune\.undecided\[' "$won"
unseen '.tune.knobs == []' '^tune\.knobs\[' "$won"
unseen '[.tune.stages[].tests[]] | length == 0' '^tune\.stages\[\]\.tests\[' \
	'no stage here had a best to set against what it carried in (t_tune sees one)'
unseen '.tune.not_tried == []' '^tune\.not_tried\[' 'this machine could run every candidate'
unseen '.tune.winner.figure_ci == null' '^tune\.winner\.figure_ci\[' "$won"
unseen '[.tune.candidates[].config.cpus | arrays] | length > 0' '^tune\..*\.cpus\[\]$' \
	'a candidate names its CPUs here; the default, the winner and a base name them only as the options or the winner do'
unseen '.tune.check.figure_ci == null' '^tune\.check\.figure_ci\[' \
	'the check run had too few intervals for an interval'

# ---- --stream: each line type a "report" of its own, stream_TYPE; an end
# line's report is checked as its command's. A stall event: the fault device
# hangs after 200 reads ----
streams=$T_DIR/streams
mkdir "$streams"
# stream WHAT RC ARGS...: iostorm ARGS --stream FILE exits RC
stream() {
	local what=$1 rc=$2 f
	shift 2
	f=$streams/$((n + 1)).jsonl
	n=$((n + 1))
	run_iostorm "$@" --stream "$f"
	[ "$T_RC" -eq "$rc" ] || { check_fail "$what: exit $T_RC, want $rc: iostorm $*"; show_output; }
	jq -e -s 'length > 0 and .[-1].type == "end"' "$f" >/dev/null 2>&1 ||
		{ check_fail "$what: no whole stream: iostorm $*"; show_output; }
}
stream "stream run" 0 run "${q[@]}" --interval 100ms "$file"
stream "stream, no latency" 0 run "${q[@]}" --no-latency "$file"
# a command refused before its first run writes nothing into a stream
# file (t_outsafe): its header and end line are read off stdout
run_iostorm run "${q[@]}" --rate 100 --engine libaio "$file" --stream -
n=$((n + 1))
cp "$T_OUT" "$streams/$n.jsonl"
[ "$T_RC" -eq 2 ] && jq -e -s 'length == 2 and .[-1].type == "end"' "$streams/$n.jsonl" >/dev/null 2>&1 ||
	{ check_fail "stream, refused: exit $T_RC (want 2), or no header and end on stdout"; show_output; }
if [ -n "$fault" ]; then
	echo "ok 200 hang" >"$ctl"
	stream "stream, a stall" 1 run -q --no-zero-sample --time 1s --ramp 0 --qd 4 \
		--stall-timeout 200ms "$file" "$fault"
	echo ok >"$ctl"
else
	printf '%s\t%s\n' '^stream_event' 'no FUSE fault device here for a stalled target' \
		>>"$T_DIR/unseeable"
fi
printf '%s\t%s\n' '^rank$' 'only iostorm-mpi writes a rank (t_mpi_stream checks it)' >>"$T_DIR/unseeable"
for f in "$streams"/*.jsonl; do
	jq -c 'select(.type == "end" and .report != null) | .report' "$f" >"$reports/end-${f##*/}.json"
	[ -s "$reports/end-${f##*/}.json" ] || rm -f "$reports/end-${f##*/}.json"
done

# the drive's SMART / Health log is read only as root on an NVMe drive
if ! jq -e '[.devices[]?.drive.smart_before // empty] | length > 0' "$reports"/*.json >/dev/null 2>&1; then
	printf '%s\t%s\n' 'drive\.smart_(before|after|change)\.' \
		'no NVMe drive whose log root can read here' >>"$T_DIR/unseeable"
fi
# a drop needs 3 seconds on each side of it: t_drop writes one
printf '%s\t%s\n' 'devices\[\]\.drop\.' \
	'a drop takes 6 s or more of a device that slows down (t_drop checks it)' >>"$T_DIR/unseeable"
printf '%s\t%s\n' 'critical_warnings\[\]|new_warnings\[\]|\.warnings\[\]' \
	'no drive here holds a critical warning' >>"$T_DIR/unseeable"

# ---- every key written, with its command and type ----
: >"$T_DIR/emitted.tsv"
for f in "$reports"/*.json; do
	[ -f "$f" ] || continue
	c=$(jq -r .command "$f")
	jq -r -f "$here/json_paths.jq" "$f" | sed "s/^/$c\t/" >>"$T_DIR/emitted.tsv" ||
		check_fail "cannot walk $f"
done
# a stream's lines: the options and the end's report are checked above, as
# the config and the report
for f in "$streams"/*.jsonl; do
	while IFS= read -r line; do
		c=stream_$(jq -r .type <<<"$line")
		jq -r -f "$here/json_paths.jq" <<<"$line" | grep -Ev '^(options|report)\.' |
			sed "s/^/$c\t/" >>"$T_DIR/emitted.tsv" || check_fail "cannot walk a line of $f"
	done <"$f"
done
sort -u "$T_DIR/emitted.tsv" -o "$T_DIR/emitted.tsv"
[ -s "$T_DIR/emitted.tsv" ] || fail "no report to compare"

# ---- both ways ----
awk -F'\t' '
	FILENAME == ARGV[1] { why[$1] = $2; next }
	FILENAME == ARGV[2] {
		doc[$1 SUBSEP $2] = $3; cond[$1 SUBSEP $2] = $4; next
	}
	{
		k = $1 SUBSEP $2
		wrote[k] = 1
		seen_path[$2] = 1
		if (!(k in doc)) {
			if (!((k, "u") in said))
				print "undocumented: " $1 " writes " $2 " (" $3 ")"
			said[k, "u"] = 1
			next
		}
		n = split(doc[k], t, ",")
		ok = 0
		for (i = 1; i <= n; i++)
			if (t[i] == $3 || (t[i] == "number" && $3 == "integer"))
				ok = 1
		if (!ok)
			print "type: " $1 " writes " $2 " as " $3 ", documented " doc[k]
	}
	END {
		for (k in doc) {
			if (k in wrote)
				continue
			split(k, p, SUBSEP)
			if (!cond[k]) {
				print "never written: " p[1] " " p[2]
				continue
			}
			if (p[2] in seen_path)
				continue	# a conditional key of a shared shape
			reason = ""
			for (r in why)
				if (p[2] ~ r)
					reason = why[r]
			if (reason != "")
				print "note: " p[1] " " p[2] " not seen: " reason
			else
				print "never written: " p[1] " " p[2] " (conditional, and no case here writes it)"
		}
	}' "$T_DIR/unseeable" "$T_DIR/doc.tsv" "$T_DIR/emitted.tsv" | sort >"$T_DIR/diff"

while IFS= read -r line; do
	case $line in
	note:*) echo "$line" ;;
	*) check_fail "$line" ;;
	esac
done <"$T_DIR/diff"
echo "$(wc -l <"$T_DIR/emitted.tsv") key paths written by $n reports, $(wc -l <"$T_DIR/doc.tsv") documented"
[ -n "$fault" ] || skip "checked without the loop and fault devices' cases: they need root"
t_done
