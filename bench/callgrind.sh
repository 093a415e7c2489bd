#!/bin/bash
# Each copy of the io_uring loop's user-space instructions per IO, the way
# docs/engine.md's table is measured: callgrind counting only inside the
# copy's function (--toggle-collect) on the worker thread
# (--separate-threads=yes, the largest thread), on one core (taskset),
# QD32 batch 32 reap 32, cached 16 MiB files, --ramp 0. A figure is the
# difference between a run of LO and one of HI IOs per lane over the IOs
# between them (a group's three lanes: three times as many), so setup
# and the window's ends cancel; counts are bimodal on a shared VM, so the
# smallest of REPS runs at each length is taken.
# Usage: bench/callgrind.sh [CASE...]   (default every case below)
# Env: IOSTORM (default ./iostorm), BENCH_CPU (default 0, given to both
# taskset and --cpus), BENCH_DIR (default /var/tmp), REPS (default 5),
# LO (100000), HI (300000).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
bin=${IOSTORM:-$here/../iostorm}
cpu=${BENCH_CPU:-0}
dir=${BENCH_DIR:-/var/tmp}/iostorm-bench-cg
reps=${REPS:-5}
lo=${LO:-100000}
hi=${HI:-300000}

die() { echo "callgrind: $*" >&2; exit 1; }
command -v valgrind >/dev/null || die "needs valgrind"
[ -x "$bin" ] || die "no binary $bin (make iostorm)"
[ "$hi" -gt "$lo" ] 2>/dev/null || die "HI ($hi) must exceed LO ($lo)"
mapfile -t files < <("$here/cached16m.sh" "$dir")
[ "${#files[@]}" -eq 3 ] || die "no cached files in $dir (bench/cached16m.sh)"

# case name: the copy's function, lanes, then the command's arguments
# (the IO count and the files are added)
declare -A fn lanes args
add() { fn[$1]=$2; lanes[$1]=$3; args[$1]=$4; }
common="--qd 32 --batch 32 --reap 32 --ramp 0"
# one job is pinned by --cpus; a group's three devices take the one CPU
# taskset leaves them (--cpus would want one per device)
add nop uring_loop_nop 1 "nop $common --cpus $cpu"
add closed uring_loop_read 1 "run --buffered $common --cpus $cpu"
add closed-untimed uring_loop_read 1 "run --buffered --no-latency $common --cpus $cpu"
add open rate_loop_read 1 "run --buffered --rate 1g $common --cpus $cpu"
add open-untimed rate_loop_read 1 "run --buffered --rate 1g --no-latency $common --cpus $cpu"
add group group_loop_read 3 "run --buffered --group on $common"
add group-untimed group_loop_read 3 "run --buffered --group on --no-latency $common"
order=(nop closed closed-untimed open open-untimed group group-untimed)

# instructions of the copy's function on the worker thread, one run
count() {
	local name=$1 ios=$2 out targets=() ir
	out=$(mktemp -d "$dir/cg.XXXXXX")
	case $name in
	nop*) ;;
	group*) targets=("${files[@]}") ;;
	*) targets=("${files[0]}") ;;
	esac
	# shellcheck disable=SC2086
	taskset -c "$cpu" valgrind --tool=callgrind --separate-threads=yes \
		--toggle-collect="${fn[$name]}" --callgrind-out-file="$out/cg" \
		"$bin" ${args[$name]} -q --ios "$ios" "${targets[@]}" >/dev/null 2>&1 ||
		die "$name: the run failed"
	# every thread's file: the worker's is the one with the most
	ir=$(for t in "$out"/cg*; do
		sed -n 's/^summary: *\([0-9]*\).*/\1/p' "$t"
	done | sort -n | tail -1)
	rm -rf "$out"
	echo "${ir:-0}"
}

smallest() {
	local name=$1 ios=$2 best="" c i
	for ((i = 0; i < reps; i++)); do
		c=$(count "$name" "$ios") || exit 1
		if [ -z "$best" ] || [ "$c" -lt "$best" ]; then best=$c; fi
	done
	echo "$best"
}

[ $# -gt 0 ] && order=("$@")
printf '%-14s %-16s %14s %14s %9s\n' case function "Ir $lo" "Ir $hi" "per IO"
for name in "${order[@]}"; do
	[ -n "${fn[$name]:-}" ] || die "no case '$name' (${!fn[*]})"
	a=$(smallest "$name" "$lo") || exit 1
	b=$(smallest "$name" "$hi") || exit 1
	printf '%-14s %-16s %14s %14s %9s\n' "$name" "${fn[$name]}" "$a" "$b" \
		"$(awk -v a="$a" -v b="$b" -v n=$(((hi - lo) * lanes[$name])) \
			'BEGIN { printf "%.2f", (b - a) / n }')"
done
