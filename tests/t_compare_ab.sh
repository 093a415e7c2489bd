# iostorm compare --ab N: iostorm runs two command lines itself,
# alternately over N rounds (A B, B A, A B, ...: ABBA), and tests the
# rounds' paired differences.
# - Bad input is one line and exit 2, before any run: N out of range, one
#   side only, a side that measures nothing, a bad option in a side, a
#   side that gives --json, sides of different commands (without --force).
# - A run that fails is named (round, side, command line) with exit 1;
#   SIGINT ends the run under way, starts no other, compares nothing and
#   leaves no report behind (exit 1).
# - The same command line on both sides: the runs alternate as ABBA says,
#   every test is paired over the rounds, and the gate (Holm, --fail-worse
#   0) does not fail; at most 5% per try, so one retry (said) is allowed.
# - QD1 against QD8 (--force) trips --fail-worse 50 on a latency metric.
. "$(dirname "$0")/lib.sh"
need_iostorm
need_cmd jq

make_data_file f 16
cat "$f" >/dev/null
q=(-q --buffered --time 200ms --ramp 50ms)
r=$T_DIR

# ---- refusals, before any run ----
expect_error "--ab 1" 2 '^iostorm compare: --ab' compare --ab 1 -- run "$f" -- run "$f"
expect_error "--ab 40" 2 '^iostorm compare: --ab' compare --ab 40 -- run "$f" -- run "$f"
expect_error "one side" 2 '--ab needs two command lines' compare --ab 2 -- run "${q[@]}" "$f"
expect_error "an empty side" 2 '--ab: B has no command' compare --ab 2 -- run "$f" --
expect_error "a side that measures nothing" 2 "--ab: A is 'topo', not a command that measures" \
	compare --ab 2 -- topo -- run "$f"
expect_error "a bad option" 2 "--ab: B \\(run\\): unknown option '--bogus'" \
	compare --ab 2 -- run "$f" -- run --bogus "$f"
expect_error "a side's --json" 2 "--ab: A gives --json" \
	compare --ab 2 -- run --json "$r/x.json" "$f" -- run "$f"
expect_error "different commands" 2 "--ab: A is run, B sweep" \
	compare --ab 2 -- run "$f" -- sweep --qd 1 "$f"
[ -e "$r/x.json" ] && check_fail "a refused --ab ran a side"

# ---- a run that fails ----
run_iostorm compare --ab 2 -- run "${q[@]}" "$f" -- run "${q[@]}" "$r/missing"
[ "$T_RC" -eq 1 ] || { check_fail "a failing side: exit $T_RC, want 1"; show_output; }
grep -q "^iostorm compare: --ab: round 1, B (run .*missing) exited" "$T_ERR" ||
	{ check_fail "a failing side is not named"; show_output; }

# ---- SIGINT: the run under way ends, no other starts, nothing is left ----
mkdir -p "$r/tmp"
# iostorm itself (not timeout, which would pass the signal on and kill it
# 5 s later): reap_within is the guard against a hang
TMPDIR=$r/tmp "$IOSTORM" compare --ab 3 -- run -q --buffered --time 1s --ramp 0 "$f" -- \
	run -q --buffered --time 1s --ramp 0 "$f" >"$T_OUT" 2>"$T_ERR" </dev/null &
pid=$!
for ((i = 0; i < T_TRIES; i++)); do
	grep -q 'round 1/3: A' "$T_ERR" && break
	sleep 0.1
done
kill -INT "$pid"
reap_within "$pid" "$T_TRIES"
[ "$T_RC" -eq 1 ] || { check_fail "--ab, SIGINT: exit $T_RC, want 1"; show_output; }
grep -q '^iostorm compare: --ab: interrupted in round 1 of 3: nothing compared$' "$T_ERR" ||
	{ check_fail "--ab, SIGINT: not said"; show_output; }
grep -q 'round 2/3' "$T_ERR" && check_fail "--ab, SIGINT: round 2 started"
[ -z "$(ls -A "$r/tmp")" ] || check_fail "--ab, SIGINT: left $(ls -A "$r/tmp")"

# ---- A against A: no gate failure; ABBA order ----
same() {
	run_iostorm compare --ab 4 --fail-worse 0 --json "$r/aa.json" -- run "${q[@]}" "$f" -- \
		run "${q[@]}" "$f"
	[ "$T_RC" -eq 0 ]
}
if ! same; then
	cp "$T_OUT" "$r/aa.first"
	if same; then
		retried "A against A failed the gate once: $(grep -m1 'fails --fail-worse' "$r/aa.first")"
	else
		check_fail "A against A: exit $T_RC twice"
		show_output
	fi
fi
order=$(sed -n 's/^iostorm compare: round [0-9]\/4: \([AB]\): .*/\1/p' "$T_ERR" | tr -d '\n')
[ "$order" = ABBAABBA ] || check_fail "the runs' order: $order, want ABBAABBA"
jq -e '.ab.rounds == 4 and (.ab.a | test("^run ")) and .comparisons[0].drift_measured
	and all(.comparisons[0].rows[].metrics[]; .below_resolution != null
	or (.level == "runs" and .test.design == "paired" and .base.n == 4 and .new.n == 4))' \
	"$r/aa.json" >/dev/null ||
	check_fail "A against A: not paired over 4 rounds: $(jq -c '[.ab, .comparisons[0].rows[0].metrics[0]]' "$r/aa.json")"
grep -q 'paired over 4 rounds (ABBA)' "$T_OUT" || { check_fail "the table does not say paired"; show_output; }

# ---- QD1 against QD8 ----
real() {
	run_iostorm compare --ab 4 --force --fail-worse 50 --json "$r/ab.json" -- \
		run "${q[@]}" --qd 1 "$f" -- run "${q[@]}" --qd 8 "$f"
	[ "$T_RC" -eq 4 ] && jq -e '[.comparisons[0].rows[0].metrics[] | select(.fail_worse)]
		| length >= 1 and all(.[]; .metric != "iops" and .worse and .test.design == "paired")' \
		"$r/ab.json" >/dev/null
}
if ! real; then
	cp "$T_OUT" "$r/ab.first"
	if real; then
		retried "QD8 against QD1 missed the gate once"
	else
		check_fail "QD8 against QD1 with --ab 4: exit $T_RC, no latency gated"
		show_output
	fi
fi
t_done
