# iostorm plot: each kind of report in tests/fixtures/
# drawn as SVG (it parses, and holds one <g id="gnuplot_plot_..."> group
# per series: a device's curve, a bar series) and as PNG (its IHDR gives
# 900 wide, 380 per panel high); a report whose device names carry quotes,
# newlines, backquotes and gnuplot commands draws them as text and runs
# nothing; bad input is one line, exit 2 for a file that is no report plot
# draws, 1 for an unreadable file, nothing to draw or no gnuplot.
. "$(dirname "$0")/lib.sh"
need_iostorm
need_cmd gnuplot xmllint od

fx=tests/fixtures
pwned=/tmp/iostorm-plot-pwned

# series FILE.svg: how many plot groups gnuplot wrote
series() {
	grep -c '<g id="gnuplot_plot_' "$1"
}

# png_size FILE.png: "WIDTH HEIGHT" from the IHDR chunk (bytes 16-23)
png_size() {
	od -An -tu1 -j16 -N8 "$1" |
		awk '{ printf "%d %d\n", (($1*256+$2)*256+$3)*256+$4, (($5*256+$6)*256+$7)*256+$8 }'
}

# check_svg REPORT SERIES: plotted to SVG, it parses and holds SERIES
check_svg() {
	local report=$1 want=$2 svg=$T_DIR/$(basename "$1" .json).svg n
	expect_ok "plot $report" plot -o "$svg" "$report" || return
	grep -qxF "$svg" "$T_OUT" || check_fail "plot $report: stdout does not name $svg"
	if ! xmllint --noout "$svg" 2>"$T_DIR/xmllint"; then
		check_fail "plot $report: the SVG does not parse: $(head -3 "$T_DIR/xmllint")"
		return
	fi
	n=$(series "$svg")
	[ "$n" -eq "$want" ] || check_fail "plot $report: $n series in the SVG, want $want"
}

# check_svg_as REPORT SVG SERIES ARGS...: plot ARGS -o SVG REPORT parses
# and holds SERIES
check_svg_as() {
	local report=$1 svg=$2 want=$3 n
	shift 3
	expect_ok "plot $* $report" plot "$@" -o "$svg" "$report" || return
	if ! xmllint --noout "$svg" 2>"$T_DIR/xmllint"; then
		check_fail "plot $* $report: the SVG does not parse: $(head -3 "$T_DIR/xmllint")"
		return
	fi
	n=$(series "$svg")
	[ "$n" -eq "$want" ] || check_fail "plot $* $report: $n series in the SVG, want $want"
}

# check_png REPORT PANELS: plotted to PNG, it is 900 x 380*PANELS
check_png() {
	local report=$1 png=$T_DIR/$(basename "$1" .json).png size
	expect_ok "plot $report -o PNG" plot "$report" -o "$png" || return
	size=$(png_size "$png")
	[ "$size" = "900 $((380 * $2))" ] || check_fail "plot $report: PNG is $size, want 900 $((380 * $2))"
	head -c 8 "$png" | od -An -c | grep -q 'P   N   G' || check_fail "plot $report: not a PNG"
}

# run: distribution and IOPS per second of 2 devices; latency: p50, p99,
# max; sweep: IOPS and p99 for all and each of 2 targets; saturate: the
# pair of bars, and the ceiling's utilization where the report has it
check_svg $fx/report-run.json 4
check_svg $fx/report-latency.json 3
check_svg $fx/report-sweep.json 6
# sweep by load: p50, p99, p99.9 and the service p99; achieved and asked
check_svg $fx/report-sweep-rate.json 6
check_svg $fx/report-saturate.json 2
check_svg $fx/report-saturate-ceiling.json 3
check_png $fx/report-run.json 2
check_png $fx/report-latency.json 1
check_png $fx/report-sweep.json 2
check_png $fx/report-sweep-rate.json 2
check_png $fx/report-saturate.json 1
check_png $fx/report-saturate-ceiling.json 2

# the knee and the p99 doubling are marked
svg=$T_DIR/report-sweep.svg
grep -q 'knee QD4' "$svg" || check_fail "sweep: the knee (QD4) is not marked"
grep -q 'p99 doubled at QD2' "$svg" || check_fail "sweep: the p99 doubling (QD2) is not marked"
# the load where p99 doubled, as the report says it
svg=$T_DIR/report-sweep-rate.svg
pct=$(jq -r .p99_double_load_pct $fx/report-sweep-rate.json)
grep -q "p99 doubled at $pct%" "$svg" || check_fail "sweep by load: the p99 doubling ($pct%) is not marked"
grep -q 'loss [0-9.]*%' "$T_DIR/report-saturate.svg" || check_fail "saturate: no loss above the bars"

# default name: the report's with .svg, beside it
cp $fx/report-latency.json "$T_DIR/lat.json"
expect_ok "plot, default name" plot "$T_DIR/lat.json" &&
	{ [ -s "$T_DIR/lat.svg" ] || check_fail "plot without -o did not write lat.svg"; }

# an older report: no lat_ns.cdf (the percentiles instead), no timeline
# (latency's "seconds"); a run without latency: the timeline alone
if command -v jq >/dev/null; then
	jq 'del(.devices[].lat_ns.cdf)' $fx/report-run.json >"$T_DIR/old-run.json"
	check_svg "$T_DIR/old-run.json" 4
	jq 'del(.devices[].timeline)' $fx/report-latency.json >"$T_DIR/old-lat.json"
	check_svg "$T_DIR/old-lat.json" 3
	jq '.devices[].lat_ns = null' $fx/report-run.json >"$T_DIR/nolat.json"
	check_svg "$T_DIR/nolat.json" 2
	check_png "$T_DIR/nolat.json" 1
	jq '.devices = [.devices[0]] | del(.points[].by_device)' $fx/report-sweep.json >"$T_DIR/one.json"
	check_svg "$T_DIR/one.json" 2
	# a drop (devices[].drop) is marked on the timeline where it began;
	# a device without one (null) is not
	jq '.devices[0].drop = {at_s: 3, iops_before: 400000, iops_after: 12000,
		fall_pct: 97, errors_at: 0, throttled_s: null} | .devices[1].drop = null' \
		$fx/report-run.json >"$T_DIR/drop.json"
	check_svg "$T_DIR/drop.json" 4
	grep -q 'disk-a: drop -97% at 3 s' "$T_DIR/drop.svg" || check_fail "run: the drop is not marked"
	grep -q 'disk-b: drop' "$T_DIR/drop.svg" && check_fail "run: a device without a drop is marked"
	# --steady: the window it settled in named, or that it never did
	jq '.steady = {reached: true, at_s: 6, window_s: 4, iops_dev_pct: 1, iops_slope_pct: 1,
		lat_dev_pct: null, lat_slope_pct: null}' $fx/report-run.json >"$T_DIR/steady.json"
	check_svg "$T_DIR/steady.json" 4
	grep -q 'steady window 2-6 s' "$T_DIR/steady.svg" || check_fail "run: the steady window is not marked"
	jq '.steady = {reached: false, at_s: null, window_s: 4, iops_dev_pct: 30, iops_slope_pct: 1,
		lat_dev_pct: null, lat_slope_pct: null}' $fx/report-run.json >"$T_DIR/never.json"
	check_svg "$T_DIR/never.json" 4
	grep -q 'steady state never reached' "$T_DIR/never.svg" || check_fail "run: a run that never settled is not said"
	grep -q 'steady' "$T_DIR/drop.svg" && check_fail "run: a run without --steady has a steady mark"
	# --temperature-every: each drive's temperature beside its IOPS (one
	# more series), on the right-hand axis
	jq '.devices[0].timeline |= (to_entries | map(.value + {temp_c: (40 + .key)}))' \
		$fx/report-run.json >"$T_DIR/temp.json"
	check_svg "$T_DIR/temp.json" 5
	grep -q 'disk-a temperature (C)' "$T_DIR/temp.svg" || check_fail "run: the temperature is not drawn"
	grep -q 'drive temperature (C)' "$T_DIR/temp.svg" || check_fail "run: no axis for the temperature"
fi

# a hostile report: its names hold quotes, a backslash, newlines, gnuplot
# commands (set output, system), backquotes, a macro, a comment, markup and
# control characters; they are drawn as text and nothing runs
rm -f "$pwned"
check_svg $fx/report-hostile.json 4
[ -e "$pwned" ] && { rm -f "$pwned"; check_fail "hostile report: a name's command ran"; }
grep -qF "set output '/tmp/iostorm-plot-pwned'" "$T_DIR/report-hostile.svg" ||
	check_fail "hostile report: the name is not drawn as text"
grep -qF '\x0a' "$T_DIR/report-hostile.svg" ||
	check_fail "hostile report: the newline is not shown as \\x0a"

# ---- compare: per row IOPS and p99, each side a bar at its center with
# its interval, a '*' over a significant change; every figure the report's
if command -v jq >/dev/null; then
	make_data_file cf 16
	q=(-q --time 300ms --ramp 50ms)
	ca=$T_DIR/ca.json cb=$T_DIR/cb.json cc=$T_DIR/cc.json cd=$T_DIR/cd.json
	for x in "$ca --repeat 3" "$cb --repeat 3 --qd 8" "$cc --repeat 2 --qd 4" "$cd"; do
		# shellcheck disable=SC2086
		run_iostorm run "${q[@]}" --json $x "$cf"
		[ "$T_RC" -eq 0 ] || { show_output; fail "run --json $x: exit $T_RC"; }
	done
	run_iostorm compare --force "$ca" "$cb" "$cc" --json "$T_DIR/cmp.json"
	[ "$T_RC" -eq 0 ] || { show_output; fail "compare A B C: exit $T_RC"; }
	run_iostorm compare --force "$ca" "$cd" --json "$T_DIR/cmp1.json"
	[ "$T_RC" -eq 0 ] || { show_output; fail "compare A D: exit $T_RC"; }
	run_iostorm compare --force "$cd" "$ca" --json "$T_DIR/cmp1b.json"
	[ "$T_RC" -eq 0 ] || { show_output; fail "compare D A: exit $T_RC"; }
	# gnuplot that keeps the script it was given ($GP_SCRIPT is its own)
	gp=$(command -v gnuplot)
	# shellcheck disable=SC2016
	printf '#!/bin/sh\ntee "$GP_SCRIPT" | exec %q\n' "$gp" >"$T_DIR/gptee"
	chmod +x "$T_DIR/gptee"

	# block GP NAME: the datablock $NAME of script GP, one row a line
	block() {
		awk -v b="\$$2" '$1 == b && $2 == "<<" { on = 1; next } on && $1 == "EOD" { exit } on' "$1"
	}
	# sides JSON METRIC SCALE S: side S's "center lo hi" per drawn row,
	# from the report: the base's (S 0) or comparison S-1's new side
	sides() {
		jq -r --arg m "$2" --argjson k "$3" --argjson s "$4" '
			def v: if . == null then "nan" else . * $k end;
			(if $s == 0 then .comparisons[0] else .comparisons[$s - 1] end) as $c
			| $c.rows[:12][] | .metrics[] | select(.metric == $m)
			| (if $s == 0 then .base else .new end)
			| "\(.center | v) \(.center_ci[0] | v) \(.center_ci[1] | v)"' "$1"
	}
	# same_numbers A B: the same numbers, each to 1e-6 of the other (nan: nan)
	same_numbers() {
		[ "$(wc -l <"$1")" -eq "$(wc -l <"$2")" ] && [ -s "$1" ] &&
			paste -d' ' "$1" "$2" | awk '{ n = NF / 2
				for (i = 1; i <= n; i++) {
					a = $i; b = $(i + n)
					if ((a == "nan") != (b == "nan")) exit 1
					if (a != "nan" && (a - b > 1e-6 * (b < 0 ? -b : b) + 1e-9 || b - a > 1e-6 * (b < 0 ? -b : b) + 1e-9)) exit 1
				} }'
	}
	# check_sides JSON SIDES: the script's datablocks hold each side's
	# center and interval of IOPS and p99 (us) as the report has them
	check_sides() {
		local j=$1 s m k name
		for ((s = 0; s < $2; s++)); do
			for m in "iops 1" "lat_p99_ns 0.001"; do
				read -r name k <<<"$m"
				block "$T_DIR/cmp.gp" "$name$s" | cut -d' ' -f2- >"$T_DIR/got"
				sides "$j" "$name" "$k" "$s" >"$T_DIR/want"
				same_numbers "$T_DIR/got" "$T_DIR/want" ||
					check_fail "compare $(basename "$j"): side $s's $name: drawn [$(tr '\n' ' ' <"$T_DIR/got")], the report [$(tr '\n' ' ' <"$T_DIR/want")]"
			done
		done
	}
	# plot_cmp JSON SERIES: plotted (its script kept in cmp.gp), parses, SERIES
	plot_cmp() {
		rm -f "$T_DIR/cmp.gp"
		GP_SCRIPT=$T_DIR/cmp.gp IOSTORM_GNUPLOT=$T_DIR/gptee check_svg "$1" "$2"
		svg=$T_DIR/$(basename "$1" .json).svg
	}

	# three reports: each side's bar and error bars in 2 panels
	plot_cmp "$T_DIR/cmp.json" 12
	check_png "$T_DIR/cmp.json" 2
	check_sides "$T_DIR/cmp.json" 3
	key=$(jq -r '.comparisons[0].rows[0].key' "$T_DIR/cmp.json")
	grep -qF "<text>$key</text>" "$svg" || check_fail "compare: the row $key is not drawn"
	for f in "base: $ca" "$cb" "$cc"; do
		[ "$(grep -cF "<text>$f</text>" "$svg")" -eq 2 ] ||
			check_fail "compare: '$f' is not in both panels' legend"
	done
	# a '*' for each significant change of IOPS and p99, whatever this run's are
	want=$(jq '[.comparisons[].rows[:12][].metrics[] | select(.metric == "iops" or .metric == "lat_p99_ns")
		| select(.test.significant == true)] | length' "$T_DIR/cmp.json")
	n=$(grep -c '<text>\*</text>' "$svg")
	[ "$n" -eq "$want" ] || check_fail "compare: $n marks drawn, $want changes significant"
	# only the second report's IOPS significant: one mark, over its bar
	jq '.comparisons[].rows[].metrics[] |= (if .test then .test.significant = false else . end)
		| .comparisons[1].rows[0].metrics[0].test.significant = true' "$T_DIR/cmp.json" >"$T_DIR/sig.json"
	plot_cmp "$T_DIR/sig.json" 12
	read -r x _ _ hi <<<"$(block "$T_DIR/cmp.gp" iops2)"
	marks=$(grep "^set label '\*'" "$T_DIR/cmp.gp")
	[ "$(grep -c '<text>\*</text>' "$svg")" -eq 1 ] && [ "$(wc -l <<<"$marks")" -eq 1 ] &&
		awk -v x="$x" -v hi="$hi" '{ sub(",", "", $5); if ($5 != x || $6 <= hi) exit 1 }' <<<"$marks" ||
		check_fail "compare: the one significant change (report 3's IOPS, x $x, CI to $hi) is marked: [$marks]"

	# --metric: the second panel the CPU cost per IO, each side's center
	# and interval the report's, in us (system time: a tick-sampled user
	# time may be 0 in every repeat of a short run, and then compare has
	# no change to draw). Its series: each side's bars, and its error bars
	# where one of its intervals is bounded (an Hmean's may not be)
	want=$(jq '[range(0; 3) as $s
		| (if $s == 0 then .comparisons[0] else .comparisons[$s - 1] end) as $c
		| [$c.rows[:12][].metrics[] | select(.metric == "cpu_sys_ns_per_io")
		   | if $s == 0 then .base else .new end]
		| select(length > 0)
		| 1 + (if any(.[]; .center_ci[0] != null and .center_ci[1] != null) then 1 else 0 end)] | add // 0' \
		"$T_DIR/cmp.json")
	[ "$want" -ge 3 ] || check_fail "compare --metric: a side without the system CPU per IO"
	rm -f "$T_DIR/cmp.gp"
	GP_SCRIPT=$T_DIR/cmp.gp IOSTORM_GNUPLOT=$T_DIR/gptee \
		check_svg_as "$T_DIR/cmp.json" "$T_DIR/cmpm.svg" $((6 + want)) --metric cpu_sys_ns_per_io
	for s in 0 1 2; do
		block "$T_DIR/cmp.gp" "cpu_sys_ns_per_io$s" | cut -d' ' -f2- >"$T_DIR/got"
		sides "$T_DIR/cmp.json" cpu_sys_ns_per_io 0.001 "$s" >"$T_DIR/want"
		same_numbers "$T_DIR/got" "$T_DIR/want" ||
			check_fail "compare --metric: side $s: drawn [$(tr '\n' ' ' <"$T_DIR/got")], the report [$(tr '\n' ' ' <"$T_DIR/want")]"
	done
	grep -qF '<text>system CPU time per IO (us)</text>' "$T_DIR/cmpm.svg" ||
		check_fail "compare --metric: the panel's axis does not name the metric"
	block "$T_DIR/cmp.gp" lat_p99_ns0 | grep -q . &&
		check_fail "compare --metric: p99 drawn too"

	# a sweep of depths: each point's and each target's own CPU per IO
	make_data_file cf2 16
	sw=$T_DIR/sw.json
	run_iostorm sweep "${q[@]}" --ramp 0 --qd 1,4 --json "$sw" "$cf" "$cf2"
	[ "$T_RC" -eq 0 ] || { show_output; fail "sweep --json: exit $T_RC"; }
	rm -f "$T_DIR/cmp.gp"
	GP_SCRIPT=$T_DIR/cmp.gp IOSTORM_GNUPLOT=$T_DIR/gptee \
		check_svg_as "$sw" "$T_DIR/swm.svg" 6 --metric cpu_sys_ns_per_io
	block "$T_DIR/cmp.gp" all | cut -d' ' -f1,3 >"$T_DIR/got"
	jq -r '.points[] | "\(.qd) \(.cpu.sys_ns_per_io / 1000)"' "$sw" >"$T_DIR/want"
	same_numbers "$T_DIR/got" "$T_DIR/want" ||
		check_fail "sweep --metric: drawn [$(tr '\n' ' ' <"$T_DIR/got")], the report [$(tr '\n' ' ' <"$T_DIR/want")]"
	block "$T_DIR/cmp.gp" dev1 | cut -d' ' -f1,3 >"$T_DIR/got"
	jq -r '.points[] | "\(.qd) \(.by_device[1].cpu.sys_ns_per_io / 1000)"' "$sw" >"$T_DIR/want"
	same_numbers "$T_DIR/got" "$T_DIR/want" ||
		check_fail "sweep --metric, a target: drawn [$(tr '\n' ' ' <"$T_DIR/got")], the report [$(tr '\n' ' ' <"$T_DIR/want")]"
	grep -qF 'system CPU time per IO against queue depth' "$T_DIR/swm.svg" ||
		check_fail "sweep --metric: the panel's title does not name the metric"

	# --metric where it draws nothing, or names no metric: one line, exit 2
	expect_error "plot --metric of a run" 2 'a run report draws no chosen metric' \
		plot --metric ios_per_cpu_s -o "$T_DIR/x.svg" "$ca"
	expect_error "plot --metric of a sweep by load" 2 'a sweep by load' \
		plot --metric ios_per_cpu_s -o "$T_DIR/x.svg" $fx/report-sweep-rate.json
	expect_error "plot --metric unknown" 2 "unknown metric 'cpu'.*ios_per_cpu_s" \
		plot --metric cpu -o "$T_DIR/x.svg" "$sw"

	# one repeat on a side: its bar without error bars
	plot_cmp "$T_DIR/cmp1.json" 6
	check_sides "$T_DIR/cmp1.json" 2
	plot_cmp "$T_DIR/cmp1b.json" 6
	check_sides "$T_DIR/cmp1b.json" 2
	grep -qF "<text>base: $cd</text>" "$svg" || check_fail "compare D A: no 'base: $cd' in the legend"

	# 20 rows: the first 12 drawn, and the title says so
	jq '.comparisons = [.comparisons[0] | .rows |= [range(20) as $i | .[0] | .key = "row\($i)"]]' \
		"$T_DIR/cmp.json" >"$T_DIR/rows.json"
	plot_cmp "$T_DIR/rows.json" 8
	grep -qF 'first 12 of 20 rows' "$svg" || check_fail "compare, 20 rows: the title does not say 12 of 20"
	grep -qF '<text>row11</text>' "$svg" && ! grep -qF '<text>row12</text>' "$svg" ||
		check_fail "compare, 20 rows: not rows 0 to 11 drawn"
	check_sides "$T_DIR/rows.json" 2

	# a hostile row key and file name are text
	rm -f "$pwned"
	jq --arg p "$pwned" '.comparisons[0].rows[0].key = "x'"'"'\nsystem(\"touch \($p)\")\n'"'"'"
		| .comparisons[0].file = "`touch \($p)`"' "$T_DIR/cmp.json" >"$T_DIR/hostile-cmp.json"
	plot_cmp "$T_DIR/hostile-cmp.json" 12
	[ -e "$pwned" ] && { rm -f "$pwned"; check_fail "hostile compare: a key's command ran"; }
	grep -qF "\`touch $pwned\`" "$svg" || check_fail "hostile compare: the file name is not drawn as text"

	# nothing to draw: no row with IOPS, no comparison
	jq 'del(.comparisons[].rows[].metrics[] | select(.metric == "iops"))' "$T_DIR/cmp.json" >"$T_DIR/noiops.json"
	expect_error "compare without IOPS" 1 'noiops.json: nothing to plot: no row with IOPS' \
		plot -o "$T_DIR/noiops.svg" "$T_DIR/noiops.json"
	jq '.comparisons = []' "$T_DIR/cmp.json" >"$T_DIR/nocmp.json"
	expect_error "compare without comparisons" 1 'nothing to plot' plot -o "$T_DIR/nocmp.svg" "$T_DIR/nocmp.json"
fi

# bad input: one line; 2 for no report plot draws, 1 for runtime
echo 'not json' >"$T_DIR/bad.json"
echo '{"schema": "iostorm/1", "command": "topo", "nodes": []}' >"$T_DIR/topo.json"
echo '{"schema": "other/2", "command": "run"}' >"$T_DIR/other.json"
echo '[1, 2]' >"$T_DIR/array.json"
echo '{"schema": "iostorm/1", "command": "run", "devices": [{"name": "x"}]}' >"$T_DIR/empty.json"
expect_error "not JSON" 2 'bad.json: not an iostorm report \(not JSON' plot "$T_DIR/bad.json"
expect_error "a topo report" 2 "a report of 'topo'.*saturate, compare and tune reports" plot "$T_DIR/topo.json"
expect_error "another schema" 2 'not an iostorm report' plot "$T_DIR/other.json"
expect_error "a JSON array" 2 'not an iostorm report' plot "$T_DIR/array.json"
expect_error "nothing to draw" 1 'nothing to plot' plot "$T_DIR/empty.json"
expect_error "missing report" 1 'nonexistent.json: No such file' plot "$T_DIR/nonexistent.json"
expect_error "no report" 2 'no REPORT.json given' plot
expect_error "two reports" 2 'one REPORT.json at a time' plot $fx/report-run.json $fx/report-run.json
expect_error "-o x.pdf" 2 "-o: '.*x.pdf' does not end in .svg or .png" plot -o "$T_DIR/x.pdf" $fx/report-run.json
expect_error "unwritable -o" 1 'nonexistent/x.svg' plot -o "$T_DIR/nonexistent/x.svg" $fx/report-run.json
IOSTORM_GNUPLOT=$T_DIR/no-gnuplot expect_error "no gnuplot" 1 'gnuplot-nox' plot \
	-o "$T_DIR/n.svg" $fx/report-run.json
[ -e "$T_DIR/n.svg" ] && check_fail "no gnuplot: a picture was left behind"
ls "$T_DIR"/n.svg.tmp-* >/dev/null 2>&1 && check_fail "no gnuplot: a temporary file was left behind"
# gnuplot that fails: its last line, exit 1, no picture
printf '#!/bin/sh\ncat >/dev/null\necho "line 3: something broke" >&2\nexit 1\n' >"$T_DIR/gp"
chmod +x "$T_DIR/gp"
IOSTORM_GNUPLOT=$T_DIR/gp expect_error "gnuplot fails" 1 'gnuplot failed: line 3: something broke' \
	plot -o "$T_DIR/f.svg" $fx/report-run.json
[ -e "$T_DIR/f.svg" ] && check_fail "failed gnuplot: a picture was left behind"
t_done
