#!/bin/bash
# make bench's (m) case alone, side by side: three cached 16 MiB files
# from one thread on one core, QD32 each, batch 32, no latency timing:
# iostorm --group on (one ring for the three) against t/io_uring -n1 -d96
# -s96 -c96 on the same files, in rounds that alternate the order, with a
# second iostorm binary in the same rounds when given (an A/B of a change).
# Prints each round's IOPS and ratios, then the medians of the per-round
# ratios (drift cancels). bench/run.sh runs every case; this is for the
# one that a change to the group loop moves.
# Usage: bench/multi.sh [IOSTORM_B]
# Env: IOSTORM (binary A, default ./iostorm), BENCH_CPU (default the last
# one), BENCH_TIME (seconds, default 2, after 1 s of ramp), BENCH_REPS
# (rounds, default 5), BENCH_DIR (default /var/tmp),
# IOSTORM_BENCH_CACHE (bench/tio.sh).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
a=${IOSTORM:-$here/../iostorm}
b=${1:-}
cpu=${BENCH_CPU:-$(($(nproc) - 1))}
secs=${BENCH_TIME:-2}
reps=${BENCH_REPS:-5}
dir=${BENCH_DIR:-/var/tmp}/iostorm-bench-multi

die() { echo "multi: $*" >&2; exit 1; }
command -v jq >/dev/null || die "needs jq"
[ "$reps" -ge 1 ] 2>/dev/null || die "BENCH_REPS must be a positive count, not '$reps'"
[ "$secs" -ge 1 ] 2>/dev/null || die "BENCH_TIME must be whole seconds >= 1, not '$secs'"
tio=$("$here/tio.sh") || die "no t/io_uring (bench/tio.sh)"
mapfile -t files < <("$here/cached16m.sh" "$dir")
[ "${#files[@]}" -eq 3 ] || die "no cached files in $dir (bench/cached16m.sh)"

# iostorm BIN: the total IOPS of one run
iostorm() {
	taskset -c "$cpu" "$1" run -q --group on --qd 32 --batch 32 --reap 32 --bs 4k \
		--buffered --no-latency --time "${secs}s" --ramp 1s --json - "${files[@]}" 2>/dev/null |
		jq '.total.iops'
}

# t/io_uring's per-second IOPS lines (1.75M, 740.61K), the first one (its
# ramp) left out, averaged. -s96 -c96, not -s32 -c32: t/io_uring moves to
# the next file only when the one it fills holds a file's share of the
# depth (32) in flight, and a cached read completes inside the call that
# submits it, so a call of 32 leaves none in flight and every call goes
# to the first file again: it would read one 16 MiB file, not three
# (docs/engine.md, the (m) case's paragraphs). A call of 96 takes 32
# from each file, as iostorm's group does.
tio() {
	taskset -c "$cpu" "$tio" -d96 -s96 -c96 -b4096 -p0 -B1 -F1 -X1 -R1 -n1 \
		-r$((secs + 2)) -O0 -t0 "${files[@]}" |
		awk -v n="$secs" '/^IOPS=/ {
			v = substr($1, 6); sub(/,$/, "", v); m = 1
			if (v ~ /M$/) m = 1e6; if (v ~ /K$/) m = 1e3
			sub(/[KM]$/, "", v); if (++i > 1 && i <= n + 1) { s += v * m; c++ } }
			END { if (c) printf "%d\n", s / c }'
}

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

ra=() rb=() ab=()
for ((i = 1; i <= reps; i++)); do
	if ((i % 2)); then x=$(iostorm "$a"); t=$(tio); else t=$(tio); x=$(iostorm "$a"); fi
	y=""
	[ -n "$b" ] && y=$(iostorm "$b")
	ra+=("$(echo "$x / $t" | bc -l)")
	line="round $i: A $x IOPS, t/io_uring $t, A/t $(printf %.3f "${ra[-1]}")"
	if [ -n "$y" ]; then
		rb+=("$(echo "$y / $t" | bc -l)")
		ab+=("$(echo "$x / $y" | bc -l)")
		line+=", B $y, B/t $(printf %.3f "${rb[-1]}"), A/B $(printf %.3f "${ab[-1]}")"
	fi
	echo "$line"
done
echo "median A/t/io_uring -n1: $(printf '%s\n' "${ra[@]}" | median)"
if [ -n "$b" ]; then
	echo "median B/t/io_uring -n1: $(printf '%s\n' "${rb[@]}" | median)"
	echo "median A/B: $(printf '%s\n' "${ab[@]}" | median)"
fi
