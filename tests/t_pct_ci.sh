#!/bin/bash
# Every percentile with its 95% interval (issue 41; docs/intervals.md):
# each lat object in run's, latency's and saturate's JSON holds ios and
# p50_ci .. p99.99_ci around their percentiles; a run of a few thousand
# IOs states no p99.99 (too few IOs beyond it: "(N)" in the table, the
# interval's high end null) and a run of several intervals widens the
# intervals by batch means (ci_batches). Counts and order only, no times.
. "$(dirname "$0")/lib.sh"
need_iostorm
need_cmd jq

make_loop a 64
json=$T_DIR/r.json

# every lat object (devices, total, seconds' lat_ns) brackets its
# percentiles: lo <= value <= hi, an end null only where unbounded
brackets='def br(l):
	l == null or
	([[["p50", "p50_ci"], ["p90", "p90_ci"], ["p99", "p99_ci"], ["p99.9", "p99.9_ci"],
	   ["p99.99", "p99.99_ci"]][] as [$p, $c]
	  | (l[$c] | type) == "array"
	    and (l[$c][0] == null or l[$c][0] <= l[$p])
	    and (l[$c][1] == null or l[$c][1] >= l[$p])] | all)
	and (l.ios | type) == "number" and (l.ci_batches | type) == "number";'

# 3,000 IOs at QD1: p99.99 rests on no IO beyond it
expect_ok "run --ios 3000" run --ios 3000 --qd 1 --ramp 0 --json "$json" "$a"
jq -e "$brackets"'br(.devices[0].lat_ns) and .devices[0].lat_ns.ios == .devices[0].ios
	and .devices[0].lat_ns["p99.99_ci"][1] == null
	and .devices[0].lat_ns.p50_ci[0] != null and .devices[0].lat_ns.p50_ci[1] != null' \
	"$json" >/dev/null || { check_fail "run --ios 3000: lat_ns's intervals"; jq -c '.devices[0].lat_ns | del(.cdf, .above)' "$json" >&2; }
row=$(grep "^${a#/dev/} " "$T_OUT")
# p99.99, the ninth column, is "(N)" with N < 10; the legend says why
[[ $(awk '{ print $9 }' <<<"$row") =~ ^\(([0-9])\)$ ]] ||
	check_fail "run --ios 3000: p99.99 is stated: $row"
grep -q '^(N): only N IOs lie beyond that percentile' "$T_OUT" ||
	check_fail "run --ios 3000: no line explaining (N)"

# compare, one run a side: each side's p50 interval follows its figure,
# the same as the JSON's pct_ci, with whether the two are apart
cp "$json" "$T_DIR/r1.json"
expect_ok "run --ios 3000, again" run -q --ios 3000 --qd 1 --ramp 0 --json "$T_DIR/r2.json" "$a"
expect_ok "compare, one run a side" compare --json "$T_DIR/c.json" "$T_DIR/r1.json" "$T_DIR/r2.json"
line=$(grep -E '^ +p50 us ' "$T_OUT")
want=$(jq -r 'def us: if . == null then null else . / 1000 end;
	.comparisons[0].rows[0].metrics[] | select(.metric == "lat_p50_ns")
	| [.base.pct_ci, .new.pct_ci] | map(map(us)) as [$b, $n]
	| ($b[0] > $n[1] or $n[0] > $b[1]) as $apart
	| "\($b[0]) \($b[1]) \($n[0]) \($n[1]) \(if $apart then "apart" else "overlapping" end)"' "$T_DIR/c.json")
got=$(sed -nE 's/.*95% intervals, us: base \[([0-9.]+), ([0-9.]+)\], new \[([0-9.]+), ([0-9.]+)\] \((apart|overlapping)\).*/\1 \2 \3 \4 \5/p' <<<"$line")
read -r b0 b1 n0 n1 w <<<"$want"
read -r g0 g1 h0 h1 v <<<"$got"
# the text rounds to its precision (cli_fmt_us): within 0.1% or 0.06 us
near() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 0.06 || d <= 0.001 * b) }'; }
if [ -z "$got" ] || [ "$v" != "$w" ] || ! near "$g0" "$b0" || ! near "$g1" "$b1" ||
	! near "$h0" "$n0" || ! near "$h1" "$n1"; then
	check_fail "compare, one run a side: p50's intervals in the text ($got) are not the JSON's ($want): $line"
fi
grep -q "says nothing of the drift between runs" "$T_OUT" ||
	check_fail "compare, one run a side: no line saying the intervals do not measure drift"

# six intervals of 200 ms: the batch means widen the intervals
expect_ok "run --interval 200ms" run -q --time 1.2s --interval 200ms --ramp 0 --qd 4 \
	--json "$json" "$a"
jq -e "$brackets"'br(.devices[0].lat_ns) and .devices[0].lat_ns.ci_batches >= 4
	and ([.devices[0].timeline[] | .p99_ns_ci == null or
	      ((.p99_ns_ci[0] == null or .p99_ns_ci[0] <= .p99_ns)
	       and (.p99_ns_ci[1] == null or .p99_ns_ci[1] >= .p99_ns))] | all)' \
	"$json" >/dev/null || { check_fail "run --interval 200ms: no batch means, or an interval off"; jq -c '.devices[0].lat_ns | del(.cdf, .above)' "$json" >&2; }

# latency's seconds carry their p50 and p99 intervals
expect_ok latency latency -q --time 1s --ramp 0 --json "$json" "$a"
jq -e "$brackets"'br(.devices[0].lat_ns)
	and ([.seconds[].lat_ns | (.p99_ci | type) == "array" and (.p50_ci | type) == "array"] | all)' \
	"$json" >/dev/null || { check_fail "latency: the seconds' intervals"; jq -c '.seconds' "$json" >&2; }
t_done
