#!/bin/bash
# Runs every test program in $TESTBIN/test_* and every tests/t_*.sh, one
# line each (PASS, FAIL with the end of its output, SKIP with its reason),
# then "N passed, N failed, N skipped", then the skipped and retried tests
# by name. Exit 1 if any failed; with CI=true (CI sets it), also if a test
# skipped for a reason not listed in tests/expected-skips.
# A test that passed only when one of its checks ran again prints a line
# "retried: WHAT" (lib.sh's retried): it shows as "PASS name (retried)".
# EXPECTED_SKIPS=FILE reads that list instead (t_runner tests the runner).
# TEST_TIMES=FILE appends each test's seconds and name, tab-separated, to
# FILE (.ci/run prints the slowest, to keep CI within its time).
# With SANITIZE naming thread (make SANITIZE=thread check), the tests in
# tests/threadless (THREADLESS=FILE instead), whose subject starts no
# thread, are not run, and are named after the summary line; with any
# SANITIZE, neither are the tests in tests/unsanitized (UNSANITIZED=FILE),
# whose checks are figures a run measures and whose code runs under the
# sanitizers in the tests named beside each.
# The tests listed in tests/alongside (none of their checks depends on the
# CPU time a run gets: refusals, files, shapes, parsing) run first, two at
# a time (TEST_JOBS=N for another count, 1 for none), their lines printed
# in order once the last is done; every other test then runs alone, so
# that a test whose figures the machine's load moves never shares it.
# ALONGSIDE=FILE reads that list instead (t_runner tests the runner).
# Usage: tests/run.sh [PATTERN]   (only tests whose name contains PATTERN)
# T_SCRIPTS=tests/vm runs that folder's t_*.sh instead (make vmcheck), and
# no test programs.
set -u

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd) || exit 1

pattern=${1:-}
# a guard against a hang only; TSan runs each iostorm about 5x slower
timeout_s=${TEST_TIMEOUT:-300}
[[ ${SANITIZE:-} == *thread* && -z ${TEST_TIMEOUT:-} ]] && timeout_s=900
TESTBIN=${TESTBIN:-$root/build/tests}
T_SCRIPTS=${T_SCRIPTS:-tests}
IOSTORM=${IOSTORM:-$root/iostorm}
# relative paths are the caller's; tests run from the root, so make them
# absolute before moving there
case $TESTBIN in /*) ;; *) TESTBIN=${PWD%/}/$TESTBIN ;; esac
case $IOSTORM in /*) ;; *) IOSTORM=${PWD%/}/$IOSTORM ;; esac
cd "$root" || exit 1
export IOSTORM TESTBIN IOSTORM_SRC=$root
# UBSan only reports by default; a finding must fail the test
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
if [ "$T_SCRIPTS" = tests ] && [ ! -d "$TESTBIN" ]; then
	echo "no test programs: $TESTBIN does not exist (run make check)" >&2
	exit 1
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/iostorm-test.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
jobs_n=${TEST_JOBS:-2}

passed=0 failed=0 skipped=0
skips=() unexpected=() retries=() notrun=()

# expected NAME REASON: tests/expected-skips lists this skip (name and the
# start of its reason, tab-separated)
expected() {
	local n r why
	while IFS=$'\t' read -r n r why; do
		case $n in '#'* | '') continue ;; esac
		[ "$n" = "$1" ] && [[ $2 == "$r"* ]] && return 0
	done <"${EXPECTED_SKIPS:-$root/tests/expected-skips}"
	return 1
}

# listed FILE NAME: FILE (a name, a tab, why, a line each) names the test
listed() {
	local n why
	while IFS=$'\t' read -r n why; do
		case $n in '#'* | '') continue ;; esac
		[ "$n" = "$2" ] && return 0
	done <"$1"
	return 1
}

# threadless NAME: the test is on the list of those TSan has nothing in
threadless() { listed "${THREADLESS:-$root/tests/threadless}" "$1"; }
# unsanitized NAME: the test is on the list of those no sanitizer runs
unsanitized() { listed "${UNSANITIZED:-$root/tests/unsanitized}" "$1"; }
# left_out NAME: this suite does not run the test (threadless, unsanitized)
left_out() {
	[[ ${SANITIZE:-} == *thread* ]] && threadless "$1" && return 0
	[ -n "${SANITIZE:-}" ] && unsanitized "$1"
}

# alongside NAME: the test is on the list of those that may share the CPUs
alongside() { listed "${ALONGSIDE:-$root/tests/alongside}" "$1"; }

# exec_one NAME CMD...: runs it; its output, status and seconds go to
# $work/NAME.{out,rc,s}
exec_one() {
	local name=$1 t0=$SECONDS
	shift
	timeout -k 10 "$timeout_s" "$@" >"$work/$name.out" 2>&1 </dev/null
	echo $? >"$work/$name.rc"
	echo $((SECONDS - t0)) >"$work/$name.s"
}

run_one() {
	local name=$1
	shift
	if left_out "$name"; then
		notrun+=("$name")
		return
	fi
	exec_one "$name" "$@"
	report_one "$name"
}

# report_one NAME: its line (and on failure its output), its count
report_one() {
	local name=$1 rc reason out=$work/$1.out
	rc=$(cat "$work/$name.rc")
	[ -z "${TEST_TIMES:-}" ] || printf '%s\t%s\n' "$(cat "$work/$name.s")" "$name" >>"$TEST_TIMES"
	case $rc in
	0)
		if grep -q '^retried: ' "$out"; then
			echo "PASS $name (retried)"
			grep '^retried: ' "$out" | sed 's/^/    /'
			retries+=("$name")
		else
			echo "PASS $name"
		fi
		passed=$((passed + 1)) ;;
	77)
		reason=$(grep -v '^[[:space:]]*$' "$out" | tail -n 1)
		# tests may say "skip: why"; print "SKIP name: why" once
		shopt -s nocasematch
		[[ $reason == skip:* ]] && reason=${reason#*:} && reason=${reason# }
		shopt -u nocasematch
		echo "SKIP $name: ${reason:-no reason given}"
		skips+=("$name")
		expected "$name" "$reason" || unexpected+=("$name: ${reason:-no reason given}")
		skipped=$((skipped + 1)) ;;
	*)
		if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
			echo "FAIL $name (timed out after ${timeout_s}s)"
		else
			echo "FAIL $name (exit $rc)"
		fi
		# what failed first (a shell test's FAIL: lines, a C test's
		# CHECK failed lines), then the end of its output: a dump after
		# a failed check can be longer than the tail
		grep -E '^FAIL: |CHECK failed' "$out" | head -n 10 | sed 's/^/    /'
		tail -n 20 "$out" | sed 's/^/    /'
		failed=$((failed + 1)) ;;
	esac
}

shopt -s nullglob
[ "$T_SCRIPTS" = tests ] || TESTBIN=/nonexistent
names=() cmds=() shells=()
for t in "$TESTBIN"/test_*; do
	name=${t##*/}
	# the build folder also holds test_*.o and test_*.d
	case $name in *.*) continue ;; esac
	[ -f "$t" ] && [ -x "$t" ] || continue
	[ -n "$pattern" ] && [[ $name != *"$pattern"* ]] && continue
	names+=("$name") cmds+=("$t") shells+=("")
done
for t in "$T_SCRIPTS"/t_*.sh; do
	name=${t##*/}
	name=${name%.sh}
	[ -n "$pattern" ] && [[ $name != *"$pattern"* ]] && continue
	names+=("$name") cmds+=("$t") shells+=(bash)
done
# the tests that may share the CPUs, TEST_JOBS at a time, reported in order
together=()
if [ "$jobs_n" -gt 1 ]; then
	for i in "${!names[@]}"; do
		name=${names[$i]}
		alongside "$name" || continue
		left_out "$name" && continue
		together+=("$i")
		while [ "$(jobs -rp | wc -l)" -ge "$jobs_n" ]; do
			wait -n
		done
		# shellcheck disable=SC2086 # bash before a script, nothing before a program
		exec_one "$name" ${shells[$i]} "${cmds[$i]}" &
	done
	wait
	for i in "${together[@]}"; do
		report_one "${names[$i]}"
	done
fi
for i in "${!names[@]}"; do
	[[ " ${together[*]} " == *" $i "* ]] && continue
	# shellcheck disable=SC2086
	run_one "${names[$i]}" ${shells[$i]} "${cmds[$i]}"
done

echo "$passed passed, $failed failed, $skipped skipped"
[ ${#skips[@]} -eq 0 ] || echo "skipped: ${skips[*]}"
[ ${#retries[@]} -eq 0 ] || echo "retried: ${#retries[@]} (${retries[*]})"
[ ${#notrun[@]} -eq 0 ] || echo "not run under SANITIZE=$SANITIZE (tests/threadless, tests/unsanitized): ${notrun[*]}"
if [ ${#unexpected[@]} -gt 0 ]; then
	for t in "${unexpected[@]}"; do
		echo "unexpected skip: $t"
	done
	if [ "${CI:-}" = true ]; then
		echo "CI=true: ${#unexpected[@]} unexpected skips (not in tests/expected-skips)"
		exit 1
	fi
fi
[ "$failed" -eq 0 ]
