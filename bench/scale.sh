#!/bin/bash
# bench/scale.sh: two workers on two cores against one, on two page-cached
# files (4K random reads, --buffered, QD32, batch 32, latency on). Rounds
# alternate which case runs first; each round's IOPS go to stderr, and to
# stdout one verdict line and one line of IOs per CPU-second (which other
# load on the machine does not bend): the median of the rounds' ratios (two workers'
# total / one worker's) against the target, >= 1.9x. make bench runs
# it after its table. Env: IOSTORM, SCALE_REPS (5), SCALE_TIME (3 s),
# SCALE_MIB (16, each file), SCALE_DIR (/var/tmp), SCALE_CPUS (two CPUs,
# the one worker on the first; default the last two), SCALE_KEEP=1 keeps
# the JSON.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
IOSTORM=${IOSTORM:-$here/../iostorm}
reps=${SCALE_REPS:-5}
secs=${SCALE_TIME:-3}
mib=${SCALE_MIB:-16}
dir=${SCALE_DIR:-/var/tmp}
n=$(nproc)
cpus=${SCALE_CPUS:-$((n > 1 ? n - 1 : 0)),$((n > 1 ? n - 2 : 0))}
cpu0=${cpus%%,*} cpu1=${cpus##*,}

die() { echo "scale: $*" >&2; exit 1; }
[ -x "$IOSTORM" ] || die "no iostorm binary at $IOSTORM (run make)"
command -v jq >/dev/null || die "jq is not installed"
[ "$cpu0" != "$cpu1" ] || die "SCALE_CPUS must name two CPUs, not '$cpus'"

work=$(mktemp -d "${TMPDIR:-/tmp}/iostorm-scale.XXXXXX")
f0="" f1=""
cleanup() {
	rm -f ${f0:+"$f0"} ${f1:+"$f1"}
	if [ "${SCALE_KEEP:-0}" = 1 ]; then echo "kept $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

f0=$(mktemp "$dir/iostorm-scale.XXXXXX")
f1=$(mktemp "$dir/iostorm-scale.XXXXXX")
head -c $((mib << 20)) /dev/urandom >"$f0"
head -c $((mib << 20)) /dev/urandom >"$f1"
cat "$f0" "$f1" >/dev/null	# into the page cache

one() {
	"$IOSTORM" run -q --buffered --qd 32 --batch 32 --bs 4k --time "${secs}s" \
		--ramp 1s --cpus "$cpu0" --json "$work/one-$1.json" "$f0" >/dev/null
}
two() {
	"$IOSTORM" run -q --buffered --qd 32 --batch 32 --bs 4k --time "${secs}s" \
		--ramp 1s --cpus "$cpu0,$cpu1" --json "$work/two-$1.json" "$f0" "$f1" >/dev/null
}

for ((i = 1; i <= reps; i++)); do
	if [ $((i % 2)) -eq 1 ]; then one "$i"; two "$i"; else two "$i"; one "$i"; fi
done

# IOs per CPU-second of the workers (their own user + sys time): what a
# worker gets done with the CPU it had. Another worker sharing a line it
# writes would lower it; other load on the machine lowers the IOPS ratio
# but not this one, so it tells the two apart on a busy machine.
per_cpu='([.devices[].ios] | add) / ([.devices[] | .cpu.user_s + .cpu.sys_s] | add)'
ratios=() ones=() twos=() effs=()
for ((i = 1; i <= reps; i++)); do
	a=$(jq '[.devices[].iops] | add' "$work/one-$i.json")
	b=$(jq '[.devices[].iops] | add' "$work/two-$i.json")
	ca=$(jq "$per_cpu" "$work/one-$i.json")
	cb=$(jq "$per_cpu" "$work/two-$i.json")
	r=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.3f", b / a }')
	e=$(awk -v a="$ca" -v b="$cb" 'BEGIN { printf "%.3f", b / a }')
	ratios+=("$r") ones+=("$a") twos+=("$b") effs+=("$e")
	printf 'scale: round %d: one worker %.0f IOPS, two workers %.0f IOPS, %.2fx; IOs per CPU-s %.0f and %.0f, %.2fx\n' \
		"$i" "$a" "$b" "$r" "$ca" "$cb" "$e" >&2
done
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 }
	END { printf "%.6f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
r=$(median "${ratios[@]}") a=$(median "${ones[@]}") b=$(median "${twos[@]}")
e=$(median "${effs[@]}")
awk -v r="$r" -v a="$a" -v b="$b" -v e="$e" -v c0="$cpu0" -v c1="$cpu1" 'BEGIN {
	printf "target (s) 2 workers on CPUs %s,%s >= 1.90x 1 worker (cached QD32, latency on): %.2fx  %s  (%.2fM vs %.2fM IOPS, median of per-round ratios)\n",
		c0, c1, r, (r >= 1.9 ? "met" : "NOT met"), b / 1e6, a / 1e6
	printf "(s) IOs per CPU-second of the workers, 2 against 1: %.2fx (1.00: no interference between them, whatever other load took; median of per-round ratios)\n", e
}'
