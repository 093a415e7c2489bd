# iostorm compare's statistics on synthetic reports of known distributions
# (tests/compare_synth.awk, fixed seeds, so every run of this test draws
# the same figures): each run of one setup drifts from the next (2% CoV
# per run and row) and its repeats share that drift (0.5% noise among
# them), as real runs do on a shared machine.
# - Same setup, 3 runs a side, 200 comparisons of 21 rows x 5 metrics: the
#   tests across runs reject at about alpha (2% to 6% of them, Welch
#   being a little conservative at 3 runs), the Benjamini-Hochberg marks
#   appear in at most 10% of the comparisons (under no change at all the
#   FDR is the chance of any mark: alpha, 5%, plus 3 binomial sd of 200),
#   and the Holm gate (--fail-worse 0) fails as rarely.
# - The same data one run a side: the repeats, blind to the drift, are
#   marked often; compare says drift is not measured and the gate does
#   not fail, unless --trust-repeats, where it does.
# - A 10% drop of one row's IOPS, 5 runs a side at 1% drift: found
#   (marked, worse, the gate met, exit 4) in each of 20 comparisons, and
#   at 2% drift in most (at least 15 of 20).
# - Every change lies inside its own interval, and each metric is pooled
#   by the estimator that fits how the repeats were bounded (time or IOs).
. "$(dirname "$0")/lib.sh"
need_iostorm
need_cmd jq awk

here=$(cd "$(dirname "$0")" && pwd)
d=$T_DIR
synth() {
	local dir=$1
	shift
	mkdir -p "$dir"
	awk -v dir="$dir" -v repeats=3 -v rows=20 -v noise=0.005 "$@" -f "$here/compare_synth.awk" ||
		fail "compare_synth.awk failed"
}

# sides T N: trial T's base runs, '--', its new runs (N each)
sides() {
	local i
	for ((i = 1; i <= $3; i++)); do echo "$1/t$2-a$i.json"; done
	echo --
	for ((i = 1; i <= $3; i++)); do echo "$1/t$2-b$i.json"; done
}

# ---- the same setup, across runs ----
synth "$d/null" -v trials=200 -v runs=3 -v drift=0.02 -v seed=7
bad=0
for t in $(seq 1 200); do
	run_iostorm compare --fail-worse 0 --json "$d/null/c$t.json" $(sides "$d/null" "$t" 3)
	case $T_RC in
	0 | 4) ;;
	*) bad=1; check_fail "null trial $t: exit $T_RC"; show_output; break ;;
	esac
done
if [ "$bad" -eq 0 ]; then
	jq -s '{tests: (map(.family.tests) | add),
		rejected: ([.[].comparisons[0].rows[].metrics[] | select(.test.p < 0.05)] | length),
		marked: (map(select(.family.marked > 0)) | length),
		gated: (map(select(.fail_worse)) | length),
		stated: all(.[]; .family.marks == "benjamini-hochberg" and .family.gate == "holm"
			and .comparisons[0].drift_measured),
		runs: all(.[].comparisons[0].rows[].metrics[]; .level == "runs" and .base.n == 3),
		one_estimator: all(.[].comparisons[0].rows[].metrics[];
			((.change_pct - 100 * (.new.center / .base.center - 1)) | fabs)
			<= 1e-9 * (.change_pct | fabs) + 1e-9)}' \
		"$d"/null/c*.json >"$d/null.json"
	echo "same setup, 200 comparisons: $(jq -c . "$d/null.json")"
	jq -e '.tests == 21000 and .rejected >= 420 and .rejected <= 1260' "$d/null.json" >/dev/null ||
		check_fail "the tests across runs reject $(jq .rejected "$d/null.json") of $(jq .tests "$d/null.json"), want 2% to 6%"
	jq -e '.marked <= 20' "$d/null.json" >/dev/null ||
		check_fail "Benjamini-Hochberg: $(jq .marked "$d/null.json") of 200 same-setup comparisons marked, want at most 20"
	jq -e '.gated <= 20' "$d/null.json" >/dev/null ||
		check_fail "Holm: the gate failed $(jq .gated "$d/null.json") of 200 same-setup comparisons, want at most 20"
	jq -e '.stated and .runs' "$d/null.json" >/dev/null ||
		check_fail "the corrections or the level are not stated in the JSON"
	jq -e '.one_estimator' "$d/null.json" >/dev/null ||
		check_fail "a change is not its sides' figures' change (the estimator of the change differs from the sides')"
	jq -se '[.[].comparisons[0].rows[].metrics[] | select(.tested)
		| select((.test.change_pct_ci[0] <= .change_pct and (.test.change_pct_ci[1] == null
			or .change_pct <= .test.change_pct_ci[1])) | not)] | length == 0' \
		"$d"/null/c*.json >/dev/null ||
		check_fail "a change outside its own interval: $(jq -sc '[.[].comparisons[0].rows[].metrics[] | select(.tested) | select(.test.change_pct_ci[0] > .change_pct)][0]' "$d"/null/c*.json)"
fi
run_iostorm compare $(sides "$d/null" 1 3)
grep -q "^105 tests: \* where Benjamini-Hochberg's q < 0.05 (false-discovery rate)" "$T_OUT" ||
	{ check_fail "the text does not state Benjamini-Hochberg"; show_output; }
run_iostorm compare --fail-worse 3 $(sides "$d/null" 1 3)
grep -q "; --fail-worse 3%: Holm's p < 0.05 (family-wise), [0-9]* met\.$" "$T_OUT" ||
	{ check_fail "the text does not state Holm's gate"; show_output; }
grep -q 'noise' "$T_OUT" || { check_fail "no noise column"; show_output; }

# ---- the estimators: as the repeats were bounded ----
# a run's figure is its repeats pooled, a side's its runs': over equal
# time the Amean of the IOPS and the Hmean of the mean latencies, over
# equal IOs (--ios) the other way round; the percentiles' Amean either way
# est FILES...: row d1's base IOPS and mean latency pooled both ways, from
# the reports themselves
est() {
	jq -s '[.[].devices[] | select(.name == "d1") | .repeats.runs] as $runs
		| def am: add / length; def hm: length / (map(1 / .) | add);
		{iops_am: ([$runs[] | map(.iops) | am] | am),
		 iops_hm: ([$runs[] | map(.iops) | hm] | hm),
		 mean_am: ([$runs[] | map(.lat_mean_ns) | am] | am),
		 mean_hm: ([$runs[] | map(.lat_mean_ns) | hm] | hm),
		 p99_am: ([$runs[] | map(.lat_p99_ns) | am] | am)}' "$@"
}
# near A B: to 1e-9
near='def near(a; b): ((a - b) | fabs) <= 1e-9 * (b | fabs);'
est "$d"/null/t1-a[123].json >"$d/est.json"
run_iostorm compare --json "$d/est-time.json" $(sides "$d/null" 1 3)
jq -e --slurpfile e "$d/est.json" "$near"'
	.estimators == {"bound": "time", "iops": "amean", "lat_mean_ns": "hmean",
		"lat_p50_ns": "amean", "lat_p99_ns": "amean", "lat_p999_ns": "amean",
		"cpu_user_ns_per_io": "hmean", "cpu_sys_ns_per_io": "hmean", "ios_per_cpu_s": "amean"}
	and (.comparisons[0].rows[0].metrics | (.[0].estimator == "amean" and near(.[0].base.center; $e[0].iops_am))
		and (.[1].estimator == "hmean" and near(.[1].base.center; $e[0].mean_hm))
		and (.[3].estimator == "amean" and near(.[3].base.center; $e[0].p99_am)))' \
	"$d/est-time.json" >/dev/null ||
	check_fail "over equal time: $(jq -c '[.estimators, (.comparisons[0].rows[0].metrics[] | [.estimator, .base.center])]' "$d/est-time.json"), want $(jq -c . "$d/est.json")"
for i in 1 2 3; do
	for s in a b; do
		jq '.config.ios = 100000' "$d/null/t1-$s$i.json" >"$d/ios-$s$i.json"
	done
done
run_iostorm compare --json "$d/est-ios.json" "$d"/ios-a[123].json -- "$d"/ios-b[123].json
jq -e --slurpfile e "$d/est.json" "$near"'
	.estimators.bound == "ios" and .estimators.iops == "hmean" and .estimators.lat_mean_ns == "amean"
	and (.comparisons[0].rows[0].metrics | (.[0].estimator == "hmean" and near(.[0].base.center; $e[0].iops_hm))
		and (.[1].estimator == "amean" and near(.[1].base.center; $e[0].mean_am)))' \
	"$d/est-ios.json" >/dev/null ||
	check_fail "over equal IOs: $(jq -c '[.estimators, (.comparisons[0].rows[0].metrics[] | [.estimator, .base.center])]' "$d/est-ios.json"), want $(jq -c . "$d/est.json")"

# ---- the same data, one run a side ----
marks=0
for t in 1 2 3 4 5; do
	run_iostorm compare --fail-worse 0 --json "$d/one$t.json" "$d/null/t$t-a1.json" "$d/null/t$t-b1.json"
	[ "$T_RC" -eq 0 ] || { check_fail "one run a side: the gate failed (exit $T_RC) without --trust-repeats"; show_output; }
	grep -q '^one run a side: drift between runs is not measured' "$T_OUT" ||
		{ check_fail "one run a side: not said"; show_output; }
	jq -e '.comparisons[0].drift_measured == false and .comparisons[0].fail_worse == false
		and all(.comparisons[0].rows[].metrics[]; .level == "repeats")' "$d/one$t.json" >/dev/null ||
		check_fail "one run a side: the JSON does not say it"
	marks=$((marks + $(jq ".family.marked // 0" "$d/one$t.json")))
	run_iostorm compare --trust-repeats --fail-worse 0 "$d/null/t$t-a1.json" "$d/null/t$t-b1.json"
	[ "$T_RC" -eq 4 ] || { check_fail "--trust-repeats on drifting runs: exit $T_RC, want 4"; show_output; }
done
echo "one run a side, 5 comparisons: $marks marks (drift read as change)"
[ "$marks" -ge 50 ] || check_fail "one run a side: $marks marks on drifting repeats, expected many"

# ---- a 10% drop of one row's IOPS ----
for drift in 0.01 0.02; do
	synth "$d/pow$drift" -v trials=20 -v runs=5 -v drift=$drift -v seed=11 -v change=0.10
	found=0 others=0
	for t in $(seq 1 20); do
		run_iostorm compare --fail-worse 5 --json "$d/pow$drift/c$t.json" $(sides "$d/pow$drift" "$t" 5)
		if [ "$T_RC" -eq 4 ] && jq -e '.comparisons[0].rows[0] | .key == "d1"
			and (.metrics[0] | .metric == "iops" and .test.significant and .worse
			and .fail_worse and .change_pct < -7 and .change_pct > -13)' \
			"$d/pow$drift/c$t.json" >/dev/null; then
			found=$((found + 1))
		fi
		others=$((others + $(jq '[.comparisons[0].rows[1:][].metrics[], .comparisons[0].rows[0].metrics[1:][]
			| select(.test.significant)] | length' "$d/pow$drift/c$t.json")))
	done
	echo "a 10% drop at $drift drift, 5 runs a side: found in $found of 20, $others other marks"
	want=20
	[ "$drift" = 0.02 ] && want=15
	[ "$found" -ge "$want" ] || check_fail "a 10% drop at $drift drift: found in $found of 20, want $want"
	[ "$others" -le 4 ] || check_fail "a 10% drop at $drift drift: $others marks elsewhere, want at most 4"
done

# ---- a device without a name: a row of its own, never NULL to %s ----
jq '.devices[0] |= del(.name)' "$d/null/t1-a1.json" >"$d/noname-a.json"
jq '.devices[0] |= del(.name)' "$d/null/t1-b1.json" >"$d/noname-b.json"
run_iostorm compare --json "$d/noname.json" "$d/noname-a.json" "$d/noname-b.json"
[ "$T_RC" -eq 0 ] || { check_fail "a nameless device: exit $T_RC"; show_output; }
jq -e '.comparisons[0].rows[0].key == "(no name)"' "$d/noname.json" >/dev/null ||
	check_fail "a nameless device's row: $(jq -c '.comparisons[0].rows[0].key' "$d/noname.json")"
t_done
