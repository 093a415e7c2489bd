# iostorm compare: reports that measured different things are refused in
# one line; two runs of the same setup show no significant change; a real
# change (QD1 against QD8, --force) is marked significant in the right
# direction, trips --fail-worse (exit 4) and is named in the setup diff; a
# setting changed between two runs (iostats on a loop device) is named;
# a side of one run carries no significance and the report says so.
#
# The same-setup check allows false positives at a stated rate: one row's
# five metrics, each tested at --alpha 0.001 (IOPS and mean latency must
# not be marked; none may trip --fail-worse 0), so two repeat sets drawn
# from one setup fail it with a chance of at most 0.5% per try
# (Bonferroni), and one fresh try more (said: PASS (retried)) after a
# failure takes that to 25 in a million. What is left is drift on this
# shared machine between the two runs, which the retry also absorbs.
. "$(dirname "$0")/lib.sh"
need_iostorm
need_cmd jq

make_data_file f 16
make_data_file g 16
# in the page cache before any run, so no run warms it for the next
cat "$f" "$g" >/dev/null
q=(-q --buffered --time 400ms --ramp 50ms)
r=$T_DIR

# ---- refusals: one line, exit 2 (a missing file: 1), before any output ----
run_iostorm run "${q[@]}" --json "$r/qd32.json" "$f"
run_iostorm run "${q[@]}" --qd 1 --json "$r/qd1.json" "$f"
run_iostorm run "${q[@]}" --json "$r/other.json" "$g"
run_iostorm sweep "${q[@]}" --qd 1 --json "$r/sweep.json" "$f"
run_iostorm topo --json "$r/topo.json"
echo '{"schema": "iostorm/1"}' >"$r/nocmd.json"
echo 'not json' >"$r/bad.json"
expect_error "one report" 2 'NEW.json missing' compare "$r/qd32.json"
expect_error "no report" 2 'no report given' compare
expect_error "different --qd" 2 'ran at --qd 1, .* at --qd 32: comparing them is meaningless' \
	compare "$r/qd32.json" "$r/qd1.json"
expect_error "different commands" 2 'is a sweep report, .* a run report' \
	compare "$r/qd32.json" "$r/sweep.json"
expect_error "no shared device" 2 'share no device' compare "$r/qd32.json" "$r/other.json"
expect_error "a topo report" 2 "a report of 'topo', which holds nothing to compare" \
	compare "$r/qd32.json" "$r/topo.json"
expect_error "no command" 2 'not an iostorm report' compare "$r/qd32.json" "$r/nocmd.json"
expect_error "not JSON" 2 'not an iostorm report \(not JSON' compare "$r/qd32.json" "$r/bad.json"
expect_error "a missing file" 1 'missing.json: No such file' compare "$r/qd32.json" "$r/missing.json"
expect_error "--alpha 0" 2 '^iostorm compare: --alpha' compare --alpha 0 "$r/qd32.json" "$r/qd32.json"
expect_error "--alpha 0.7" 2 '^iostorm compare: --alpha' compare --alpha 0.7 "$r/qd32.json" "$r/qd32.json"
expect_error "--fail-worse -3" 2 '^iostorm compare: --fail-worse' \
	compare --fail-worse -3 "$r/qd32.json" "$r/qd32.json"
expect_error "--fail-worse 5x" 2 '^iostorm compare: --fail-worse' \
	compare --fail-worse 5x "$r/qd32.json" "$r/qd32.json"
cp "$r/qd32.json" "$r/keep.json"
expect_error "--json over a report" 2 'is the report .*keep.json: reports are only read' \
	compare --json "$r/keep.json" "$r/keep.json" "$r/qd32.json"
cmp -s "$r/qd32.json" "$r/keep.json" || check_fail "--json over a report: the report was written"
# --force compares what they share; one run a side: no test, said
run_iostorm compare --force --json "$r/c1.json" "$r/qd32.json" "$r/qd1.json"
[ "$T_RC" -eq 0 ] || { check_fail "compare --force of single runs: exit $T_RC"; show_output; }
jq -e '.comparisons[0] | .untested and all(.rows[].metrics[]; .tested == false and .test == null)' \
	"$r/c1.json" >/dev/null || check_fail "single runs were tested: $(jq -c '.comparisons[0].rows[0].metrics[0]' "$r/c1.json")"
grep -q 'without significance' "$T_OUT" || { check_fail "single runs: not said"; show_output; }
grep -Eq ' \* (worse|better)$' "$T_OUT" && check_fail "single runs: a significance mark"

# ---- the same setup twice: nothing significant ----
same() {
	run_iostorm run "${q[@]}" --repeat 5 --json "$r/s1.json" "$f"
	run_iostorm run "${q[@]}" --repeat 5 --json "$r/s2.json" "$f"
	run_iostorm compare --alpha 0.001 --fail-worse 0 --json "$r/same.json" "$r/s1.json" "$r/s2.json"
	[ "$T_RC" -eq 0 ] || return 1
	jq -e '[.comparisons[0].rows[].metrics[] | select(.metric == "iops" or .metric == "lat_mean_ns")
		| .test.significant] | length == 2 and all(. == false)' "$r/same.json" >/dev/null
}
if ! same; then
	cp "$T_OUT" "$r/same.first"
	if same; then
		retried "the same setup twice was marked significant once: $(grep -Em1 ' \* (worse|better)$' "$r/same.first")"
	else
		check_fail "the same setup twice is marked significant (exit $T_RC, twice in a row)"
		show_output
	fi
fi
jq -e '.comparisons[0].setup_changes | map(.key) | all(test("seed|utc") | not)' "$r/same.json" >/dev/null ||
	check_fail "the same setup: a time or seed listed as a change: $(jq -c '.comparisons[0].setup_changes' "$r/same.json")"

# ---- a real change: QD1 against QD8 ----
run_iostorm run "${q[@]}" --repeat 4 --qd 1 --json "$r/r1.json" "$f"
run_iostorm run "${q[@]}" --repeat 4 --qd 8 --json "$r/r8.json" "$f"
# 8 in flight against 1: the mean latency is 8 / IOPS at QD8 against 1 /
# IOPS at QD1, higher unless QD8 brings 8x the IOPS, which 2 cores cannot
run_iostorm compare --force --fail-worse 50 --json "$r/real.json" "$r/r1.json" "$r/r8.json"
[ "$T_RC" -eq 4 ] || { check_fail "QD8 against QD1 with --fail-worse 50: exit $T_RC, want 4"; show_output; }
jq -e '.fail_worse and (.comparisons[0].rows[0].metrics[] | select(.metric == "lat_mean_ns")
	| .test.significant and .worse and .change_pct > 50 and .fail_worse)' "$r/real.json" >/dev/null ||
	check_fail "QD8's mean latency is not significantly worse: $(jq -c '.comparisons[0].rows[0].metrics[1]' "$r/real.json")"
grep -E '^ +mean us .* \* worse$' "$T_OUT" >/dev/null || { check_fail "the table does not mark QD8's mean"; show_output; }
grep -q '^  config.qd: 1 -> 8$' "$T_OUT" || { check_fail "the setup diff does not name --qd"; show_output; }

# ---- a setting changed between two runs: iostats on a loop device ----
if [ "$(id -u)" -eq 0 ]; then
	make_loop l 16
	lq=/sys/block/${l#/dev/}/queue
	T_SYSFS+=("$lq/iostats $(cat "$lq/iostats")")
	echo 1 >"$lq/iostats" || fail "cannot set iostats on $l"
	run_iostorm run "${q[@]}" --repeat 2 --json "$r/i1.json" "$l"
	echo 0 >"$lq/iostats" || fail "cannot clear iostats on $l"
	run_iostorm run "${q[@]}" --repeat 2 --json "$r/i0.json" "$l"
	run_iostorm compare --json "$r/iostats.json" "$r/i1.json" "$r/i0.json"
	[ "$T_RC" -eq 0 ] || { check_fail "iostats compare: exit $T_RC"; show_output; }
	want="setup.devices[${l#/dev/}].queue.iostats"
	jq -e --arg k "$want" '.comparisons[0].setup_changes[] | select(.key == $k)
		| .base == "true" and .new == "false"' "$r/iostats.json" >/dev/null ||
		check_fail "iostats 1 -> 0 not named: $(jq -c '.comparisons[0].setup_changes' "$r/iostats.json")"
	grep -qF "  $want: true -> false" "$T_OUT" || { check_fail "the table does not name iostats"; show_output; }
else
	skip "the iostats change needs root and a loop device"
fi
t_done
