#!/bin/bash
# make fuzz: runs each libFuzzer harness for FUZZ_TIME seconds (default 10)
# on a copy of its seed corpus in a temporary folder, so new inputs never
# land in the repository; one line each (PASS with runs and runs/s, FAIL
# with the report's end and the input that failed), then "fuzz: N passed,
# N failed". Exit 1 if any failed: a crash, leak, timeout (10 s on one
# input) or OOM (2 GiB) in any harness.
# Usage: tests/fuzz/run.sh BUILD NAME...   (runs BUILD/fuzz_NAME)
set -u

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd) || exit 1
build=${1:?usage: run.sh BUILD NAME...}
shift
fuzz_time=${FUZZ_TIME:-10}
case $build in /*) ;; *) build=${PWD%/}/$build ;; esac
cd "$root" || exit 1

work=$(mktemp -d "${TMPDIR:-/tmp}/iostorm-fuzz.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT

# UBSan and leaks are findings; libFuzzer's -detect_leaks needs LSan on
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
if [ -f tests/fuzz/lsan.supp ]; then
	export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$root/tests/fuzz/lsan.supp:print_suppressions=0}
fi

passed=0 failed=0
for name in "$@"; do
	bin=$build/fuzz_$name
	crashes=$build/crashes/$name
	log=$build/fuzz_$name.log
	dict=tests/fuzz/$name.dict
	mkdir -p "$crashes" "$work/$name" || exit 1
	cp -R "tests/fuzz/corpus/$name/." "$work/$name/" || exit 1
	touch "$work/$name.start"
	args=(-max_total_time="$fuzz_time" -timeout=10 -rss_limit_mb=2048
	      -detect_leaks=1 -print_final_stats=1 -artifact_prefix="$crashes/")
	[ -f "$dict" ] && args+=(-dict="$dict")
	# -timeout is per input; timeout(1) only guards against a stuck libFuzzer
	timeout -k 10 $((fuzz_time + 120)) "$bin" "${args[@]}" "$work/$name" \
		>"$log" 2>&1 </dev/null
	rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
	secs=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
	if [ $rc -eq 0 ]; then
		echo "PASS fuzz_$name: ${runs:-?} runs in ${fuzz_time}s (${secs:-?}/s), corpus $(ls "$work/$name" | wc -l) inputs"
		passed=$((passed + 1))
		continue
	fi
	echo "FAIL fuzz_$name (exit $rc; the whole report: $log)"
	grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error|fuzz: invariant)' "$log" | head -n 5 | sed 's/^/    /'
	echo "    ..."
	tail -n 12 "$log" | sed 's/^/    /'
	# slow-unit-* inputs were only slow, not what failed
	for f in $(find "$crashes" -type f -newer "$work/$name.start" ! -name 'slow-unit-*'); do
		echo "    input: $f (reproduce: $bin $f)"
		od -c "$f" | head -n 8 | sed 's/^/      /'
	done
	failed=$((failed + 1))
done
echo "fuzz: $passed passed, $failed failed"
[ $failed -eq 0 ]
