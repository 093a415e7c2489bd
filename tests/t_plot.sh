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
check_svg $fx/report-saturate.json 2
check_svg $fx/report-saturate-ceiling.json 3
check_png $fx/report-run.json 2
check_png $fx/report-latency.json 1
check_png $fx/report-sweep.json 2
check_png $fx/report-saturate.json 1
check_png $fx/report-saturate-ceiling.json 2

# the knee and the p99 doubling are marked
svg=$T_DIR/report-sweep.svg
grep -q 'knee QD4' "$svg" || check_fail "sweep: the knee (QD4) is not marked"
grep -q 'p99 doubled at QD2' "$svg" || check_fail "sweep: the p99 doubling (QD2) is not marked"
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

# bad input: one line; 2 for no report plot draws, 1 for runtime
echo 'not json' >"$T_DIR/bad.json"
echo '{"schema": "iostorm/1", "command": "topo", "nodes": []}' >"$T_DIR/topo.json"
echo '{"schema": "other/2", "command": "run"}' >"$T_DIR/other.json"
echo '[1, 2]' >"$T_DIR/array.json"
echo '{"schema": "iostorm/1", "command": "run", "devices": [{"name": "x"}]}' >"$T_DIR/empty.json"
expect_error "not JSON" 2 'bad.json: not an iostorm report \(not JSON' plot "$T_DIR/bad.json"
expect_error "a topo report" 2 "a report of 'topo'" plot "$T_DIR/topo.json"
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
