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
# thread, are not run, and are named after the summary line.
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

out=$(mktemp "${TMPDIR:-/tmp}/iostorm-test.XXXXXX") || exit 1
trap 'rm -f "$out"' EXIT

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

# threadless NAME: the test is on the list of those TSan has nothing in
threadless() {
	local n why
	while IFS=$'\t' read -r n why; do
		case $n in '#'* | '') continue ;; esac
		[ "$n" = "$1" ] && return 0
	done <"${THREADLESS:-$root/tests/threadless}"
	return 1
}

run_one() {
	local name=$1 rc reason
	shift
	if [[ ${SANITIZE:-} == *thread* ]] && threadless "$name"; then
		notrun+=("$name")
		return
	fi
	local t0=$SECONDS
	timeout -k 10 "$timeout_s" "$@" >"$out" 2>&1 </dev/null
	rc=$?
	[ -z "${TEST_TIMES:-}" ] || printf '%s\t%s\n' "$((SECONDS - t0))" "$name" >>"$TEST_TIMES"
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
for t in "$TESTBIN"/test_*; do
	name=${t##*/}
	# the build folder also holds test_*.o and test_*.d
	case $name in *.*) continue ;; esac
	[ -f "$t" ] && [ -x "$t" ] || continue
	[ -n "$pattern" ] && [[ $name != *"$pattern"* ]] && continue
	run_one "$name" "$t"
done
for t in "$T_SCRIPTS"/t_*.sh; do
	name=${t##*/}
	name=${name%.sh}
	[ -n "$pattern" ] && [[ $name != *"$pattern"* ]] && continue
	run_one "$name" bash "$t"
done

echo "$passed passed, $failed failed, $skipped skipped"
[ ${#skips[@]} -eq 0 ] || echo "skipped: ${skips[*]}"
[ ${#retries[@]} -eq 0 ] || echo "retried: ${#retries[@]} (${retries[*]})"
[ ${#notrun[@]} -eq 0 ] || echo "not run under TSan (tests/threadless): ${notrun[*]}"
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
