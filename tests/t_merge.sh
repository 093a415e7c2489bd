#!/bin/bash
# iostorm merge on streams written by test_merge from known histograms
# (tests/fixtures/streams/: alpha has two devices and errors on one, beta
# one device, gamma a sweep of two windows; each end line carries the
# truth's figures, as run's own report would): the merged report has the
# truth's IOs and percentiles; two hosts add up with a row each; halves
# (--to, --from) add up to the whole; --device and --host select; a cut
# stream and a corrupt line are named by line and the rest is kept;
# windows are reported apart or picked with --run; compare and plot take
# the report; every refusal is one line, before any report. Impossible
# figures are named by line and skipped, names are shown escaped, a line
# over 1 MiB is skipped and /dev/zero refused under a memory cap, and
# 20,000 devices fit under 500 MiB (their peak read from VmHWM).
. "$(dirname "$0")/lib.sh"
need_iostorm
need_cmd jq

fx=$IOSTORM_SRC/tests/fixtures/streams
A=$fx/alpha.jsonl B=$fx/beta.jsonl G=$fx/gamma.jsonl
r=$T_DIR

# end FILE FILTER: FILTER on the stream's end report
end() { tail -n 1 "$1" | jq -r ".report | $2"; }

# ---- the whole of one stream: the truth's IOs and percentiles ----
if expect_ok "beta whole" merge --json "$r/b.json" "$B"; then
	for k in p50 p99 '"p99.9"' '"p99.99"'; do
		want=$(end "$B" ".total.lat_ns.$k")
		got=$(jq -r ".total.lat_ns.$k" "$r/b.json")
		[ "$got" = "$want" ] || check_fail "beta: total $k $got, the run's $want"
	done
	jq -e --argjson ios "$(end "$B" .total.ios)" '.command == "run" and .total.ios == $ios
		and .devices[0].name == "loopC" and .devices[0].ios == $ios
		and .merge.window.covered_from_s == 0 and .merge.window.covered_to_s == 9.5
		and .merge.window.intervals == 10 and .merge.streams[0].ended == "completed"
		and .setup.machine.hostname == "beta" and .config.qd == 32
		and (.devices[0].timeline | length) == 10 and (.hosts | length) == 1
		and .devices[0].ios_per_call == null and .total.ios_per_call == null' \
		"$r/b.json" >/dev/null || check_fail "beta: the merged report is not the run's (or claims IOs per call, which streams do not carry)"
	grep -q '^merge: run 0 ("run") of 1 stream, 1 host: 10 intervals from 0.000s to 9.500s' "$T_OUT" ||
		{ check_fail "beta: no window line"; show_output; }
fi
# a device's IOs that failed: exit 1, as run's
run_iostorm merge --json "$r/a.json" "$A"
[ "$T_RC" -eq 1 ] || check_fail "alpha (errors): exit $T_RC, want 1"
jq -e --slurpfile s <(tail -n 1 "$A") '
	[.devices[] | {name, ios, p99: .lat_ns.p99}] ==
	[$s[0].report.devices[] | {name, ios, p99: .lat_ns.p99}]
	and .total.errors == 2 and .total.lat_ns.p99 == $s[0].report.total.lat_ns.p99' \
	"$r/a.json" >/dev/null || check_fail "alpha: devices differ from the run's report"
grep -q '^loopB: 2 errors from 3.00s' "$T_OUT" || check_fail "alpha: no errors line"

# ---- two hosts: the sum, a row each and the cluster's ----
run_iostorm merge --json "$r/ab.json" "$A" "$B"
jq -e --argjson a "$(end "$A" .total.ios)" --argjson b "$(end "$B" .total.ios)" '
	.total.ios == $a + $b and ([.hosts[].name] == ["alpha", "beta"])
	and ([.hosts[].ios] == [$a, $b]) and ([.devices[].name] == ["alpha:loopA", "alpha:loopB", "beta:loopC"])
	and ([.merge.streams[].setup.machine.hostname] == ["alpha", "beta"])' \
	"$r/ab.json" >/dev/null || check_fail "alpha + beta: not the sum, or no host rows"
for h in alpha beta cluster; do
	grep -Eq "^$h +[0-9]+ +[0-9]+" "$T_OUT" || check_fail "alpha + beta: no $h row"
done

# ---- halves add up to the whole; an interval across the edge is in neither ----
expect_ok "first half" merge --to 4 --json "$r/h1.json" "$B"
expect_ok "second half" merge --from 4 --json "$r/h2.json" "$B"
jq -e -n --slurpfile a "$r/h1.json" --slurpfile b "$r/h2.json" --slurpfile w "$r/b.json" '
	$a[0].total.ios + $b[0].total.ios == $w[0].total.ios
	and $a[0].merge.window.intervals == 4 and $b[0].merge.window.intervals == 6
	and $a[0].merge.window.covered_to_s == 4 and $b[0].merge.window.covered_from_s == 4
	and $a[0].merge.window.to_s == 4' >/dev/null ||
	check_fail "--to 4 and --from 4 do not add up to the whole"
expect_ok "across the edge" merge --from 3.5 --to 5 --json "$r/x.json" "$B"
jq -e '.merge.window.intervals == 1 and .merge.window.covered_from_s == 4' "$r/x.json" >/dev/null ||
	check_fail "--from 3.5 --to 5 took an interval not wholly inside"

# ---- selections ----
expect_ok "--host beta" merge --host beta --json "$r/s.json" "$A" "$B"
jq -e --argjson b "$(end "$B" .total.ios)" '.total.ios == $b and [.devices[].name] == ["loopC"]
	and .merge.selected.hosts == ["beta"]' "$r/s.json" >/dev/null || check_fail "--host beta"
expect_ok "--device" merge --device loopA,beta:loopC --json "$r/d.json" "$A" "$B"
jq -e '[.devices[].name] == ["alpha:loopA", "beta:loopC"] and .total.errors == 0' "$r/d.json" \
	>/dev/null || check_fail "--device loopA,beta:loopC"

# ---- damage: a cut stream, a corrupt line ----
head -c "$(($(head -n 17 "$A" | wc -c) + 100))" "$A" >"$r/cut.jsonl"
expect_ok "cut stream" merge --device loopA --json "$r/c.json" "$r/cut.jsonl"
grep -q "cut.jsonl:18: the last line is cut short, skipped" "$T_ERR" &&
	grep -q "alpha: stream ends at t=5.000s of run 0, cut short (no end line)" "$T_ERR" ||
	{ check_fail "cut stream: not named"; show_output; }
jq -e '.merge.streams[0].ended == "cut short" and .merge.streams[0].cut_line == 18
	and .merge.window.intervals == 5 and .interrupted' "$r/c.json" >/dev/null ||
	check_fail "cut stream: the JSON does not say it"
# the streams left out have no say: beta alone, beside the cut alpha, completed
expect_ok "cut stream left out" merge --host beta --json "$r/c2.json" "$r/cut.jsonl" "$B"
jq -e '.interrupted == false and .setup.machine.hostname == "beta" and ([.merge.streams[].ended] == ["cut short", "completed"])' \
	"$r/c2.json" >/dev/null || check_fail "--host beta beside a cut stream: interrupted, or alpha's setup"
# beta: header, window, then loopC's and the total's line per interval:
# line 9 is loopC's of interval 3
sed '9s/.*/{"type":"interval","ru/' "$B" >"$r/bad.jsonl"
lost=$(sed -n 9p "$B" | jq .ios)
run_iostorm merge --json "$r/bad.json" "$r/bad.jsonl"
[ "$T_RC" -eq 1 ] || check_fail "corrupt line: exit $T_RC, want 1"
grep -q "bad.jsonl:9: not a JSON object" "$T_ERR" &&
	grep -q "bad.jsonl: 1 bad line skipped" "$T_ERR" || { check_fail "corrupt line: not named"; show_output; }
jq -e --argjson w "$(jq .total.ios "$r/b.json")" --argjson l "$lost" \
	'.total.ios == $w - $l and .merge.streams[0].bad == [{"line": 9, "why": .merge.streams[0].bad[0].why}]' \
	"$r/bad.json" >/dev/null || check_fail "corrupt line: the rest not kept"

# an event line: said, and a stall makes the device's row say so (exit 1, as run's)
sed '$i {"type":"event","run":0,"device":"loopC","t":3.2,"what":"stall","text":"no completion for 10s"}' \
	"$B" >"$r/ev.jsonl"
run_iostorm merge "$r/ev.jsonl"
[ "$T_RC" -eq 1 ] && grep -q '^iostorm merge: beta: loopC stall at 3.20s of run 0: no completion for 10s$' "$T_ERR" &&
	grep -q '^loopC: stalled' "$T_OUT" || { check_fail "event: not said, or the stall not in the report"; show_output; }

# ---- windows: each its own section, or --run N; stdin ----
expect_ok "sweep text" merge "$G"
[ "$(grep -c '^merge: run' "$T_OUT")" -eq 2 ] && grep -q '^merge: run 1 ("qd 4")' "$T_OUT" ||
	check_fail "sweep: not a section per window"
expect_ok "windows of one index, labelled apart" merge --run 0 "$G" "$B"
grep -q 'run 0: the streams. windows differ ("qd 1", "run" on beta): merged by their index' "$T_ERR" ||
	{ check_fail "windows labelled apart: not said"; show_output; }
timeout -k 5 "$T_RUN_GUARD" "$IOSTORM" merge --run 1 --json - - <"$G" >"$T_OUT" 2>"$T_ERR" ||
	check_fail "--run 1 from stdin: exit $?"
jq -e '.merge.run == 1 and .merge.label == "qd 4" and .merge.runs == [0, 1]
	and .merge.streams[0].file == "-"' "$T_OUT" >/dev/null || check_fail "--run 1 from stdin"

# ---- compare and plot take the report ----
expect_ok "compare" compare "$r/h1.json" "$r/b.json"
grep -q "loopC" "$T_OUT" || check_fail "compare: no loopC row"
if command -v gnuplot >/dev/null; then
	expect_ok "plot" plot -o "$r/b.svg" "$r/b.json"
fi

# ---- refusals: one line, exit 2 (a file that cannot be read: 1) ----
echo '{"schema": "iostorm/1", "command": "run"}' >"$r/report.json"
: >"$r/empty.jsonl"
expect_error "no stream" 2 'no stream: name one or more files' merge
expect_error "missing" 1 'nosuch.jsonl: cannot open' merge "$B" "$r/nosuch.jsonl"
expect_error "a report" 2 'report.json: not an iostorm stream' merge "$r/report.json"
expect_error "empty" 2 'empty.jsonl: not an iostorm stream \(empty\)' merge "$r/empty.jsonl"
expect_error "--from abc" 2 "--from: 'abc' is not a duration" merge --from abc "$B"
expect_error "--to before --from" 2 '--to must be after --from' merge --from 5 --to 2 "$B"
expect_error "--device a,," 2 "--device: 'a,,' has an empty name" merge --device a,, "$B"
expect_error "--host nosuch" 2 '--host nosuch: no stream is from it' merge --host nosuch "$B"
expect_error "--device nosuch" 2 '--device nosuch: no stream holds' merge --device nosuch "$B"
expect_error "--run 5" 2 '--run 5: the streams hold no interval of it in the window asked .windows 0 to 1.' merge --run 5 "$G"
expect_error "--json, two windows" 2 '--json: the streams hold 2 windows' merge --json - "$G"
expect_error "nothing in the window" 1 'nothing to report' merge --from 100 "$B"
expect_error "stdin twice" 2 '^iostorm merge: -: named twice$' merge - -
expect_error "a file twice" 2 'beta.jsonl: named twice' merge "$B" "$A" "$B"
ln -s "$B" "$r/link.jsonl"
expect_error "a file twice, by two names" 2 'link.jsonl: named twice' merge "$B" "$r/link.jsonl"
cp "$B" "$r/mine.jsonl"
expect_error "--json over a stream" 2 'mine\.jsonl: is the input .*mine\.jsonl, which is only read, never written' merge --json "$r/mine.jsonl" "$r/mine.jsonl"
cmp -s "$B" "$r/mine.jsonl" || check_fail "--json over a stream: the stream was written"
expect_error "a directory" 1 "^iostorm merge: $r: a directory, not a stream$" merge "$r"

# ---- impossible figures: a stream line each (beta's line 3, loopC's first
# interval, made impossible), named FILE:LINE and skipped, exit 1, the
# rest reported with finite figures (docs/merge.md) ----
# bad NAME WHY JQ: beta's header, window, line 3 made by JQ, the rest
bad() {
	local name=$1 why=$2 f=$r/$1.jsonl
	# jq holds numbers as doubles: "BIG" is put in as text
	{
		head -n 2 "$B"
		sed -n 3p "$B" | jq -c "$3" | sed 's/"BIG"/9223372036854775807/g'
		tail -n +4 "$B"
	} >"$f"
	run_iostorm merge --json "$r/$name.json" "$f"
	[ "$T_RC" -eq 1 ] && grep -Fq "$name.jsonl:3: $why, skipped" "$T_ERR" &&
		jq -e --argjson w "$(jq .total.ios "$r/b.json")" --argjson l "$(sed -n 3p "$B" | jq .ios)" \
			'.total.ios == $w - $l and (.total.iops | isinfinite | not)' "$r/$name.json" \
			>/dev/null || { check_fail "$name: not named at line 3 with '$why', or not skipped"; show_output; }
}
bad negative '"ios" is not a count (an integer, 0 or more)' '.ios = -1'
bad negbucket 'histogram bucket 0 is not [lo_ns, count] of two counts' '.hist.buckets[0][1] = -1'
bad sum 'histogram buckets hold 46 IOs, its count says 47' '.hist.count = 47'
# two buckets of 2^63 - 1 and one of 3: 1 in 64-bit arithmetic
bad wrap 'histogram buckets hold more than 2^63 - 1 IOs' \
	'.hist |= (.count = 1 | .sum_ns = 20000 | .min_ns = 20000 | .max_ns = 20000
		| .buckets = [[19968, "BIG"], [24960, "BIG"], [29952, 3]])'
bad minmax 'histogram min_ns 215001 above its max_ns 215000' '.hist.min_ns = .hist.max_ns + 1'
bad nothing '46 IOs in no time (t0 = t1 = 0)' '.t1 = .t0'
# one interval of 2^63 - 1 IOs and the next's: past what JSON holds
{
	head -n 2 "$B"
	sed -n 3p "$B" | jq -c '.ios = "BIG" | .hist = null'
	sed -n 5p "$B" | jq -c '.ios = "BIG" | .hist = null'
} | sed 's/"BIG"/9223372036854775807/' >"$r/wrap2.jsonl"
run_iostorm merge "$r/wrap2.jsonl"
[ "$T_RC" -eq 1 ] && grep -q "wrap2.jsonl:4: its ios would take the streams' sum past 2^63 - 1, skipped" "$T_ERR" &&
	grep -Eq '^loopC +92233720368547758[0-9]{2} ' "$T_OUT" ||
	{ check_fail "ios that wrap int64: not named, or the report holds the wrapped sum"; show_output; }

# ---- names: control characters in a host's, a device's and a window's
# name reach the terminal escaped, never raw (an OSC title, a clear) ----
sed 's/"host":"beta"/"host":"be\\u001b]0;owned\\u0007ta"/; s/"loopC"/"lo\\u001b[2Jop"/g
	s/"label":"run"/"label":"r\\u001b[31mun"/' "$B" >"$r/esc.jsonl"
run_iostorm merge "$r/esc.jsonl" "$A"
if LC_ALL=C grep -q '[[:cntrl:]]' <(tr -d '\n' <"$T_OUT") || LC_ALL=C grep -q '[[:cntrl:]]' <(tr -d '\n' <"$T_ERR"); then
	check_fail "control characters in names reached the terminal raw"
fi
grep -Fq 'be\x1b]0;owned\x07ta:lo\x1b[2Jop ' "$T_OUT" && grep -Fq 'run 0 ("r\x1b[31mun")' "$T_OUT" &&
	grep -Eq '^be\\x1b\]0;owned\\x07ta +1 ' "$T_OUT" ||
	{ check_fail "names: not shown escaped in the device row, the host row and the head"; show_output; }

# ---- memory: lines over 1 MiB, endless input, 20,000 devices ----
# a 64 MB line (jansson's tree of it took 2 GB): named and skipped, under a
# 64 MiB cap, where the line itself could not be held
pre='{"type":"event","run":0,"text":"' post='"}'
{
	head -n 3 "$B"
	printf '%s' "$pre"
	head -c $((64 << 20)) /dev/zero | tr '\0' x
	printf '%s\n' "$post"
	tail -n +4 "$B"
} >"$r/long.jsonl"
run_iostorm_capped 64 merge "$r/long.jsonl"
n=$((${#pre} + (64 << 20) + ${#post} + 1))
[ "$T_RC" -eq 1 ] && grep -q "long.jsonl:4: a line of $n bytes, over the 1 MiB a line may hold, skipped" "$T_ERR" &&
	grep -q '^loopC ' "$T_OUT" || { check_fail "a 64 MB line under a 64 MiB cap: not named and skipped"; show_output; }
rm -f "$r/long.jsonl"
T_CAP_MB=256 expect_error "/dev/zero" 2 '/dev/zero: not an iostorm stream \(its first line is over 1 MiB\)' \
	merge /dev/zero
# a header just under 1 MiB that jansson cannot hold in 48 MiB (an array of
# empty objects: 85 MB of tree): out of memory, exit 1, never "not a
# stream". Not under a sanitizer: its RSS limit is polled, so the parse
# may finish before it bites
if [ -z "${SANITIZE:-}" ]; then
	{
		head -n 1 "$B" | sed 's/}$/,"pad":[/' | tr -d '\n'
		yes '{},' | head -n 340000 | tr -d '\n'
		printf '{}]}\n'
	} >"$r/fat.jsonl"
	[ "$(wc -c <"$r/fat.jsonl")" -lt $((1 << 20)) ] || fail "the fat header is over 1 MiB"
	T_CAP_MB=48 expect_error "a header jansson cannot hold" 1 '^iostorm merge: out of memory$' merge "$r/fat.jsonl"
fi

# 20,000 devices (1,000 hosts of 20 drives), beta's first interval each:
# under a 500 MiB cap, and the peak read from VmHWM while merge holds them
# all (it has built the report when the table's first line comes: stdout
# is a FIFO read no further, so merge is alive and waits there). A
# sanitizer's shadow, redzones and quarantine take about as much again
# (716 MB under ASan): twice the bounds there.
cap=500 lim=250000
[ -n "${SANITIZE:-}" ] && cap=1000 lim=1000000
{
	head -n 2 "$B"
	sed -n 3p "$B" | awk '{ for (i = 0; i < 20000; i++) { l = $0
		sub(/"device":"loopC"/, sprintf("\"device\":\"d%05d\"", i), l); print l } }'
	tail -n 1 "$B"
} >"$r/20k.jsonl"
run_iostorm_capped "$cap" merge "$r/20k.jsonl"
[ "$T_RC" -eq 0 ] && grep -Eq '^total +920000 ' "$T_OUT" ||
	{ check_fail "20,000 devices under a $cap MiB cap: exit $T_RC, or not every IO"; tail -n 3 "$T_ERR" >&2; }
mkfifo "$r/fifo"
timeout -k 5 "$T_RUN_GUARD" "$IOSTORM" merge "$r/20k.jsonl" >"$r/fifo" 2>"$T_ERR" &
pid=$!
exec 3<"$r/fifo"
if read -r -u 3 head; then
	# timeout's child
	child=$(pgrep -P "$pid" -x iostorm)
	hwm=$(awk '/^VmHWM:/ { print $2 }' "/proc/${child:-none}/status" 2>/dev/null)
	echo "20,000 devices: VmHWM ${hwm:-?} kB"
	[ -n "$hwm" ] && [ "$hwm" -lt "$lim" ] || check_fail "20,000 devices: VmHWM ${hwm:-unread} kB, want under $lim"
else
	check_fail "20,000 devices: no report"
fi
cat <&3 >/dev/null
exec 3<&-
wait "$pid" || check_fail "20,000 devices: exit $?"
rm -f "$r/20k.jsonl"

t_done
