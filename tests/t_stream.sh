# --stream FILE (docs/json.md, "iostorm-stream/1"): a run on two devices
# writes a header, a window, an interval line per device and interval plus
# the total's, and an end line whose report is the one --json writes. The
# intervals add up exactly: per device their IOs, bytes and errors are the
# report's, their histograms merged give the report's count and
# percentiles, and each total line is the sum of its set's device lines.
# sweep and saturate write one window per measurement. A stream that
# cannot be written stops the command before any IO, in one line.
. "$(dirname "$0")/lib.sh"
need_iostorm
need_cmd jq

make_loop a 32
make_data_file f 16
aname=${a#/dev/} fname=${f##*/}
s=$T_DIR/s.jsonl json=$T_DIR/r.json

# whole FILE: every line of FILE is one JSON object with a type
whole() {
	jq -e -s 'all(.[]; type == "object" and (.type | type == "string"))' "$1" >/dev/null 2>&1
}

# ---- a run on two devices, intervals of 500 ms ----
expect_ok "run" run -q --time 2s --ramp 0 --interval 500ms --stream "$s" --json "$json" "$a" "$f"
whole "$s" || fail "run: the stream is not JSON lines: $(head -c 300 "$s")"
jq -e -s --arg a "$aname" --arg f "$fname" '
	.[0].type == "header" and .[0].schema == "iostorm-stream/1" and .[0].command == "run"
	and .[0].interval_s == 0.5 and .[0].hist.sub_bits == 7
	and (.[0].setup.machine | type == "object") and .[0].options.bs == 4096
	and .[1].type == "window" and .[1].run == 0 and .[1].devices == [$a, $f]
	and .[-1].type == "end" and .[-1].how == "completed" and .[-1].exit == 0
	and ([.[] | select(.type == "header" or .type == "end" or .type == "window")] | length) == 3
	and ([.[] | select(.type == "interval" and .device == null)] | length) >= 4
	and ([.[] | select(.type == "interval" and .last)] | length) == 3
' "$s" >/dev/null || check_fail "run: the stream's lines are not header, window, intervals, end: $(jq -c '[.type, .device, .t0, .t1, .last]' "$s")"
# the end line carries the same report as --json
jq -e -s --slurpfile r "$json" '.[-1].report == $r[0]' "$s" >/dev/null ||
	check_fail "run: the end line's report is not the --json report"

# Every device's intervals merged, against its row: IOs, bytes (IOs x bs), errors, CPU
# and the histogram's count, sum, min, max and percentiles, computed from
# the merged buckets as engine/hist.c does (a bucket's midpoint, clamped to
# the min and max; bucket lo of width 2^(floor(log2 lo) - 7) above 127).
merged_check() {
	jq -e -n --slurpfile st "$1" --slurpfile r "$2" '
		def hi: if . < 128 then . else . + pow(2; (log2 | floor) - 7) - 1 end;
		def pct($h; $p):
			($h.count * $p / 100 * (1 - 1e-12) | ceil | if . < 1 then 1 else . end) as $rank
			| [foreach $h.buckets[] as $b (0; . + $b[1]; [., $b[0]])]
			| map(select(.[0] >= $rank)) | .[0][1] as $lo
			| ($lo + ((($lo | hi) - $lo) / 2 | floor))
			| if . < $h.min_ns then $h.min_ns elif . > $h.max_ns then $h.max_ns else . end;
		def merge: {count: (map(.count) | add), sum_ns: (map(.sum_ns) | add),
			min_ns: (map(select(.count > 0) | .min_ns) | min),
			max_ns: (map(select(.count > 0) | .max_ns) | max),
			buckets: ([.[].buckets[]] | group_by(.[0]) | map([.[0][0], (map(.[1]) | add)]))};
		$r[0] as $rep
		| [$st[] | select(.type == "interval")] as $iv
		| all($rep.devices[];
			.name as $n | [$iv[] | select(.device == $n)] as $mine
			| ([$mine[].hist] | merge) as $h
			| ([$mine[].ios] | add) == .ios and ([$mine[].bytes] | add) == .ios * $rep.config.bs
			and ([$mine[].errors] | add) == .errors
			and ((([$mine[].cpu_ns] | add) / 1e9 - .cpu.time_s) | fabs) < 1e-6
			and ((([$mine[].user_ns] | add) / 1e9 - (.cpu.user_s // 0)) | fabs)
			    < (if .cpu.user_s == null then .cpu.tick_s else 1e-6 end)
			and ((([$mine[].sys_ns] | add) / 1e9 - (.cpu.sys_s // 0)) | fabs)
			    < (if .cpu.sys_s == null then .cpu.tick_s else 1e-6 end)
			and $h.count == .ios and $h.min_ns == .lat_ns.min and $h.max_ns == .lat_ns.max
			and pct($h; 50) == .lat_ns.p50 and pct($h; 99) == .lat_ns.p99
			and pct($h; 99.99) == .lat_ns["p99.99"])
	' >/dev/null
}
merged_check "$s" "$json" ||
	check_fail "run: the intervals merged are not the report's rows: $(jq -c '.devices[] | [.name, .ios, .lat_ns]' "$json")"
# each total line is its set's device lines summed (they come just before it)
jq -e -s '
	[.[] | select(.type == "interval")] as $iv
	| [range(0; $iv | length) | select($iv[.].device == null)] as $tot
	| ($tot | length) > 0 and all($tot[];
		. as $k | $iv[$k - 2:$k] as $d
		| ($d | length) == 2 and all($d[]; .device != null and .t1 <= $iv[$k].t1)
		and ([$d[].ios] | add) == $iv[$k].ios and ([$d[].bytes] | add) == $iv[$k].bytes
		and ([$d[].errors] | add) == $iv[$k].errors
		and ([$d[].inflight] | add) == $iv[$k].inflight
		and ([$d[].hist.count] | add) == $iv[$k].hist.count
		and ([$d[].hist.sum_ns] | add) == $iv[$k].hist.sum_ns)
' "$s" >/dev/null || check_fail "run: a total line is not the sum of its devices' lines"
# consecutive: each device's intervals start where its last one ended, on
# the 500 ms grid but the last (the window's end). (t1_seen, when the
# workers counted, is on their own clocks from when each saw the window
# begin, so it is not ordered against t1: no check of it here.)
jq -e -s '[.[] | select(.type == "interval")] | group_by(.device)
	| all(.[]; . as $d | $d[0].t0 == 0 and all(range(1; $d | length); $d[.].t0 == $d[. - 1].t1)
		and all($d[]; .last or ((.t1 * 2) | . == floor)))' \
	"$s" >/dev/null || check_fail "run: a device's intervals are not consecutive on the grid: $(jq -c 'select(.type == "interval") | [.device, .t0, .t1, .t1_seen]' "$s")"

# ---- sweep and saturate: one window per measurement, each with its last interval ----
expect_ok "sweep" sweep -q --time 1s --ramp 0 --qd 1,2 --stream "$s" --json "$json" "$f"
jq -e -s --slurpfile r "$json" '
	[.[] | select(.type == "window")] as $w
	| ($w | length) == ($r[0].points | length) and ($w | map(.run)) == [range(0; $w | length)]
	and ([.[] | select(.type == "interval" and .last and .device == null) | .run]) == ($w | map(.run))
	and .[0].command == "sweep" and .[-1].type == "end" and .[-1].report.command == "sweep"
' "$s" >/dev/null || check_fail "sweep: not one window per point: $(jq -c '[.type, .run, .label]' "$s")"
# saturate on one device measures it alone and all together, at QD 1 and
# its deepest: four windows, each ended, each named by its step (the time
# left is the live line's, not the window's name)
expect_ok "saturate" saturate -q --time 1s --ramp 0 --stream "$s" "$f"
jq -e -s '
	[.[] | select(.type == "window")] as $w
	| ($w | length) == 4 and ($w | map(.run)) == [0, 1, 2, 3]
	and ($w | all(.label | test("^step [0-9]+/[0-9]+ (alone|all) QD[0-9]+ [^,]+$")))
	and ([.[] | select(.type == "interval" and .last and .device == null) | .run]) == [0, 1, 2, 3]
	and .[0].command == "saturate" and .[-1].type == "end" and .[-1].report.command == "saturate"
' "$s" >/dev/null || check_fail "saturate: not one window per measurement: $(jq -c '[.type, .run, .label]' "$s")"

# ---- --stream -: the lines on stdout, the table on stderr ----
run_iostorm latency -q --time 1s --ramp 0 --stream - "$f"
[ "$T_RC" -eq 0 ] && whole "$T_OUT" && [ "$(jq -s '[.[] | select(.type == "end")] | length' "$T_OUT")" -eq 1 ] ||
	{ check_fail "latency --stream -: not JSON lines on stdout"; show_output; }

# ---- a FIFO with its reader: the lines reach it ----
# the test holds it open for writing too, so the reader's open returns at
# once and its end comes when both writers have closed
mkfifo "$T_DIR/fifo0"
exec 3<>"$T_DIR/fifo0"
cat "$T_DIR/fifo0" >"$T_DIR/fifo.out" 3>&- &
reader=$!
run_iostorm run -q --time 1s --ramp 0 --stream "$T_DIR/fifo0" "$f"
rc=$T_RC
exec 3>&-
reap_within "$reader" "$T_TRIES"	# a guard against a hang only
T_RC=$rc
[ "$T_RC" -eq 0 ] && whole "$T_DIR/fifo.out" && [ "$(tail -n 1 "$T_DIR/fifo.out" | jq -r .type)" = end ] ||
	{ check_fail "a FIFO with a reader: not the stream through it (exit $T_RC)"; show_output; }

# ---- a stream that cannot be written: one line, before any IO ----
before=$(dev_reads "$a")
expect_error "unwritable stream" 1 "^iostorm run: --stream $T_DIR/no/s.jsonl: No such file or directory$" \
	run -q --time 1s --ramp 0 --stream "$T_DIR/no/s.jsonl" "$a"
[ "$(dev_reads "$a")" -eq "$before" ] || check_fail "unwritable stream: $a was read"
expect_error "a block device" 2 "^iostorm run: --stream $a: a block device" \
	run -q --time 1s --ramp 0 --stream "$a" "$f"
mkfifo "$T_DIR/fifo"
expect_error "a FIFO without a reader" 1 "^iostorm run: --stream $T_DIR/fifo: a FIFO with no reader yet$" \
	run -q --time 1s --ramp 0 --stream "$T_DIR/fifo" "$a"
expect_error "two on stdout" 2 "both want standard output" run -q --time 1s --stream - --json - "$a"
[ "$(dev_reads "$a")" -eq "$before" ] || check_fail "two on stdout: $a was read"
expect_error "empty name" 2 "^iostorm run: --stream: the file name is empty" run --stream "" "$a"
expect_error "short interval" 2 "--interval" run --interval 10ms "$a"
expect_error "interval and steady" 2 "^iostorm run: --steady counts whole seconds" \
	run --interval 500ms --steady 5%,2s "$a"
expect_error "latency per interval" 2 "^iostorm latency: latency prints a line per second" \
	latency --interval 2s "$a"
[ "$(dev_reads "$a")" -eq "$before" ] || check_fail "refusals: $a was read"
t_done
