#!/bin/bash
# iostorm tune (docs/tune.md): its refusals, one line each before any IO
# (no target, a budget below the least the search takes, which it names, a
# bad --stages or --goal, a never-written target, a job file over a block
# device); then a search that must find what it is set up to find: the
# options pin the one worker to a CPU that a busy loop holds, and the
# placement stage must carry on a configuration off that CPU, proven
# against the options in paired rounds, with the placement knob's worth
# positive, within the budget by the report's own elapsed_s; the job file
# it wrote names the winner's CPUs and runs as is. Order and counts only:
# the budget is held by the report's own figures, not a clock here.
. "$(dirname "$0")/lib.sh"
need_iostorm
need_cmd jq taskset

make_data_file file 16
json=$T_DIR/t.json
ini=$T_DIR/win.ini

# ---- refusals ----
expect_error "no target" 2 "no TARGET, and no NVMe namespace here" tune
expect_error "budget below its floor" 2 "--budget" tune --budget 5s "$file"
expect_error "too short" 2 "too short for this search: it needs at least" tune --budget 10s "$file"
expect_error "bad --stages" 2 "unknown stage 'depths'" tune --stages engine,depths "$file"
expect_error "stage twice" 2 "named twice" tune --stages depth,depth "$file"
expect_error "bad --goal" 2 "unknown goal" tune --goal fast "$file"
expect_error "--ios" 2 "drop --ios" tune --ios 100 "$file"
expect_error "a target a job file cannot name" 2 "a job file cannot name .*a blank or control" \
	tune --write-config "$T_DIR/w.ini" "$T_DIR/a b"
[ ! -e "$T_DIR/w.ini" ] || check_fail "a refused tune left its job file behind"
if [ "$(id -u)" -eq 0 ]; then
	# a loop device over a new file: every block reads as never written
	zf=$(mktemp /dev/shm/iostorm-tune.XXXXXX)
	T_FILES+=("$zf")
	truncate -s 16M "$zf"
	zdev=$(losetup -f --show "$zf") || fail "losetup $zf"
	T_LOOPS+=("$zdev")
	# the sampler's line names it, tune's says why it stops
	run_iostorm tune --budget 1h "$zdev"
	[ "$T_RC" -eq 1 ] && ! [ -s "$T_OUT" ] && [ "$(wc -l <"$T_ERR")" -eq 2 ] &&
		grep -q "read as zeros" "$T_ERR" && grep -q "1 target reads as never written" "$T_ERR" ||
		{ check_fail "a never-written target: exit $T_RC, or not the two lines"; show_output; }
	make_loop other 16
	expect_error "job file over a device" 2 "$other" tune --write-config "$other" "$file"
fi

# ---- the plan and what is not tried come first; SIGINT ends the search
# with what ran reported (exit 0, as a run's). A file's file system has no
# poll queues, so poll and hybrid are listed, each once ----
"$IOSTORM" tune --stages engine --budget 10m --ramp 0 --json "$T_DIR/int.json" "$file" \
	>"$T_DIR/int.out" 2>"$T_DIR/int.err" </dev/null &
tpid=$!
for _ in $(seq 300); do	# a guard against a hang, not a measure
	grep -q '^stage\|^not tried' "$T_DIR/int.out" 2>/dev/null && break
	sleep 0.1
done
kill -INT "$tpid" 2>/dev/null
wait "$tpid"
rc=$?
[ "$rc" -eq 0 ] || check_fail "tune interrupted: exit $rc, want 0: $(cat "$T_DIR/int.err")"
jq -e '.tune.interrupted == true
	and ([.tune.not_tried[] | select(.option == "--completion") | .value] | sort) == ["hybrid", "poll"]
	and ([.tune.not_tried[] | select(.value == "poll")][0].why | test("no poll queues.*iostorm check"))' \
	"$T_DIR/int.json" >/dev/null ||
	check_fail "tune interrupted: not its refusals, or not said interrupted: $(jq -c '.tune | {interrupted, not_tried}' "$T_DIR/int.json" 2>&1)"
grep -q '^plan:' "$T_DIR/int.out" && [ "$(grep -c '^not tried: --completion poll' "$T_DIR/int.out")" -eq 2 ] ||
	check_fail "tune interrupted: the plan, or poll's line before the search and at the end: $(cat "$T_DIR/int.out")"

# ---- the search: a busy loop on the CPU the options pin the worker to;
# reads from the page cache (--buffered), so that the worker is bound by
# its CPU and the busy loops take two thirds of it ----
cpus=$(taskset -pc $$ | sed 's/.*: //')
hog=$(sed 's/[,-].*//' <<<"$cpus")
n=$(taskset -c "$cpus" nproc)
[ "$n" -ge 2 ] || skip "one CPU allowed here: no CPU free of the busy loop"
# two busy loops: the worker there gets a third of the CPU
taskset -c "$hog" bash -c 'while :; do :; done' &
hogpid=$!
taskset -c "$hog" bash -c 'while :; do :; done' &
hogpid="$hogpid $!"
trap 'kill $hogpid 2>/dev/null; t_cleanup' EXIT
# the least budget for this machine's CPUs, as tune names it
run_iostorm tune --budget 10s --ramp 100ms --stages placement --buffered --cpus "$hog" "$file"
least=$(sed -nE 's/.*it needs at least ([0-9]+)s.*/\1/p' "$T_ERR")
[ -n "$least" ] || { show_output; fail "tune named no least budget"; }
budget=$((least + 15))	# room for the final and the knob after the least
expect_ok "tune, placement" tune --budget "${budget}s" --ramp 100ms --stages placement \
	--buffered --cpus "$hog" --json "$json" --write-config "$ini" "$file"
kill $hogpid 2>/dev/null
wait $hogpid 2>/dev/null

jq -e --argjson b "$budget" '.tune.budget_s == $b and .tune.elapsed_s <= 1.1 * $b' "$json" >/dev/null ||
	check_fail "the budget: $(jq -c '.tune | {budget_s, elapsed_s}' "$json")"
# the default is the options: one worker on the busy CPU
jq -e --argjson h "$hog" '.tune.default.cpus == [$h]' "$json" >/dev/null ||
	check_fail "the default: $(jq -c '.tune.default' "$json")"
# the winner is off that CPU, proven against the default in paired rounds
jq -e --argjson h "$hog" '.tune.winner.config as $w
	| ($w.cpus == null and $w.placement == "none") or ($w.cpus != null and ($w.cpus | index($h) == null))' \
	"$json" >/dev/null || check_fail "the winner is on the busy CPU: $(jq -c '.tune.winner' "$json")"
jq -e '.tune.final.rounds >= 2 and .tune.final.verdict == "better" and .tune.final.change_pct > 0
	and .tune.undecided == null
	and (.tune.final.new_figures | length) == .tune.final.rounds' "$json" >/dev/null ||
	check_fail "the final: $(jq -c '.tune.final | del(.base, .new)' "$json")"
jq -e '[.tune.knobs[] | select(.knob == "placement")] | length == 1 and .[0].effect_pct > 0' \
	"$json" >/dev/null || check_fail "the knobs: $(jq -c '.tune.knobs' "$json")"
# the stage's finalists went through their paired tests, in the same
# rounds, and the winner is one found better
jq -e '.tune.winner.config as $w | [.tune.stages[] | select(.stage == "placement")][0] as $s
	| $s.candidates >= 3 and ($s.tests | length) >= 1
	and all($s.tests[]; .rounds >= 2 and .rounds == (.base_figures | length))
	and any($s.tests[]; .verdict == "better" and .new == $w)' "$json" >/dev/null ||
	check_fail "the placement stage: $(jq -c '.tune.stages' "$json")"
# every candidate of the stage ran in the halving; one or two finalists
jq -e '[.tune.candidates[] | select(.stage == "placement")]
	| all(.[]; (.runs | length) >= 1 or .failed)
	and ([.[] | select(.survived)] | length >= 1 and length <= 2)' \
	"$json" >/dev/null || check_fail "the candidates: $(jq -c '[.tune.candidates[] | {config: .config.cpus, runs: (.runs | length), survived}]' "$json")"
# the job file: written, read back and run once; it names the winner's CPUs
jq -e '.tune.check.from | test("job file")' "$json" >/dev/null ||
	check_fail "the check: $(jq -c '.tune.check' "$json")"
want=$(jq -r '.tune.winner.config.cpus // [] | map(tostring) | join(",")' "$json")
grep -q '^command = run$' "$ini" || check_fail "the job file names no run: $(cat "$ini")"
if [ -n "$want" ]; then
	grep -qx "cpus = $want" "$ini" || check_fail "the job file's cpus are not the winner's $want: $(cat "$ini")"
fi
grep -qx "target = $file" "$ini" && grep -qx "buffered = true" "$ini" ||
	check_fail "the job file names no target $file, or not --buffered"
# the plan is said before the first stage, the end after the last
order=$(grep -n -m1 -e '^plan:' "$T_OUT" | cut -d: -f1) st=$(grep -n -m1 '^stage placement' "$T_OUT" | cut -d: -f1)
win=$(grep -n -m1 '^winner:' "$T_OUT" | cut -d: -f1)
[ -n "$order" ] && [ -n "$st" ] && [ -n "$win" ] && [ "$order" -lt "$st" ] && [ "$st" -lt "$win" ] ||
	check_fail "the plan ($order), the stage ($st) and the end ($win) are not in that order"
# the search drawn: a point per run, the stage named
if command -v gnuplot >/dev/null; then
	expect_ok "plot of the search" plot -o "$T_DIR/t.svg" "$json"
	grep -q "the search: each candidate" "$T_DIR/t.svg" && grep -q ">placement<" "$T_DIR/t.svg" ||
		check_fail "the picture has no title or no stage"
fi
# and it runs as is
expect_ok "iostorm -c the job file" -c "$ini" --time 300ms --ramp 0 -q --json "$T_DIR/r.json"
jq -e --arg c "$want" '(.config.cpus // [] | map(tostring) | join(",")) == $c' "$T_DIR/r.json" >/dev/null ||
	check_fail "the job file's run is not on the winner's CPUs ($want)"
t_done
