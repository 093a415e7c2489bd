#!/bin/bash
# bench/passthru.sh: case (p) of make bench, NVMe passthrough on the
# emulated-NVMe rig (tests/vm: a QEMU guest on Debian's kernel, the real
# nvme driver, bench/passthru.layout's one drive with poll queues).
# iostorm --engine io_uring_cmd against t/io_uring -u1 on the drive's char
# device (-O0: a char device takes no O_DIRECT), both pinned to the
# guest's CPU 0, at QD32, batch 32, with registered buffers and file, by
# interrupt (-p0) and polled (-p1); rounds alternate which tool goes
# first; neither tool times IOs (iostorm --no-latency, t/io_uring -t0).
# Without KVM the guest runs under TCG,
# where the emulated drive and the emulator bound both tools: the figures
# show that both paths work and how they compare there, function only,
# never a drive's speed. Prints one line per completion mode (each tool's
# median IOPS, the median of the rounds' ratios) and exits 1 when a run
# failed or the rig could not run. make bench runs it after its table
# unless BENCH_NO_VM=1.
# Env: IOSTORM, TIO (t/io_uring, else bench/tio.sh's), PT_REPS (3),
# PT_TIME (2, seconds measured after 1 s of ramp), PT_KERNEL (7.2),
# PT_KEEP=1 keeps the guest's results.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
IOSTORM=${IOSTORM:-$root/iostorm}
reps=${PT_REPS:-3}
secs=${PT_TIME:-2}
kernel=${PT_KERNEL:-7.2}

die() { echo "passthru: $*" >&2; exit 1; }
[ -x "$IOSTORM" ] || die "no iostorm binary at $IOSTORM (run make)"
[ "$reps" -ge 1 ] 2>/dev/null || die "PT_REPS must be a positive count, not '$reps'"
[ "$secs" -ge 1 ] 2>/dev/null || die "PT_TIME must be whole seconds >= 1, not '$secs'"
for c in qemu-system-x86_64 cpio gzip base64 jq busybox; do
	command -v "$c" >/dev/null || die "$c is not installed: the rig cannot run (docs/testing.md)"
done
TIO=${TIO:-$("$here/tio.sh")} || die "t/io_uring cannot be had"
[ -x "$TIO" ] || die "no t/io_uring at $TIO"

work=$(mktemp -d "${TMPDIR:-/tmp}/iostorm-passthru.XXXXXX")
cleanup() {
	if [ "${PT_KEEP:-0}" = 1 ]; then echo "kept $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

kdir=$("$root/tests/vm/kernel.sh" "$kernel") || die "cannot fetch the $kernel guest kernel"
# the guest runs each program as /bin/<its name>
mkdir -p "$work/bin"
cp "$IOSTORM" "$work/bin/iostorm"
cp "$TIO" "$work/bin/t-io_uring"
"$root/tests/vm/initramfs.sh" "$kdir" "$work/initrd" "$work/bin/iostorm" "$work/bin/t-io_uring" ||
	die "cannot make the guest's initramfs"

# The guest's steps: NAME.out, NAME.err and NAME.rc each under $work/out
{
	echo 'ng() { b=$(basename $(dev $1)); echo /dev/ng${b#nvme}; }'
	echo 'keep uname uname -r'
	for ((i = 1; i <= reps; i++)); do
		for m in irq poll; do
			p=0
			[ $m = poll ] && p=1
			a="step ios-$m-$i iostorm run -q --engine io_uring_cmd --completion $m --cpus 0 --qd 32 --batch 32 --reap 32 --no-latency --bs 4k --time $secs --ramp 1 --json - \$(ng nva)"
			# -r counts the ramp second and the second it stops in
			b="step tio-$m-$i taskset -c 0 t-io_uring -u1 -O0 -p$p -d32 -s32 -c32 -b4096 -B1 -F1 -X1 -n1 -r$((secs + 2)) \$(ng nva)"
			if [ $((i % 2)) -eq 1 ]; then printf '%s\n%s\n' "$a" "$b"; else printf '%s\n%s\n' "$b" "$a"; fi
		done
	done
} >"$work/guest.sh"
echo "passthru: booting the $kernel guest, $reps rounds of ${secs}s per tool and mode ..." >&2
IOSTORM="$work/bin/iostorm" "$root/tests/vm/run.sh" --kernel "$kernel" --initrd "$work/initrd" \
	--script "$work/guest.sh" --out "$work/out" --timeout $((120 + reps * 4 * (secs + 6))) \
	"$here/passthru.layout" >"$work/run.log" 2>&1 ||
	{ tail -n 5 "$work/run.log" >&2; die "the guest sent no results"; }

# tio_iops FILE: the mean of t/io_uring's per-second IOPS lines after the
# first (the ramp), as bench/compare.py reads them
tio_iops() {
	awk '/^IOPS=/ { v = substr($1, 6); sub(/,$/, "", v); m = 1
		if (v ~ /K$/) m = 1e3; if (v ~ /M$/) m = 1e6; sub(/[KM]$/, "", v)
		if (n++) { s += v * m; k++ } }
		END { if (k) printf "%.0f\n", s / k }' "$1"
}

# median FMT <NUMBERS: their median printed with FMT, or "-" for none
median() {
	sort -g | awk -v f="$1" '{ v[NR] = $1 } END {
		if (!NR) { print "-"; exit }
		printf f "\n", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

failed=0
echo "(p) NVMe passthrough on the rig, guest $(cat "$work/out/uname" 2>/dev/null || echo '?'), QD32 b32, $reps rounds x ${secs}s; TCG: function only"
for m in irq poll; do
	for f in ios tio ratio; do : >"$work/$m.$f"; done
	for ((i = 1; i <= reps; i++)); do
		a="" b=""
		if [ "$(cat "$work/out/ios-$m-$i.rc" 2>/dev/null)" = 0 ]; then
			a=$(jq -r '.devices[0].iops' "$work/out/ios-$m-$i.out")
		else
			echo "passthru: iostorm $m round $i failed: $(tail -n 1 "$work/out/ios-$m-$i.err" 2>/dev/null)" >&2
			failed=$((failed + 1))
		fi
		if [ "$(cat "$work/out/tio-$m-$i.rc" 2>/dev/null)" = 0 ]; then
			b=$(tio_iops "$work/out/tio-$m-$i.out")
		fi
		if [ -z "$b" ]; then
			echo "passthru: t/io_uring -u1 $m round $i failed: $(tail -n 1 "$work/out/tio-$m-$i.err" 2>/dev/null)" >&2
			failed=$((failed + 1))
		fi
		[ -n "$a" ] && echo "$a" >>"$work/$m.ios"
		[ -n "$b" ] && echo "$b" >>"$work/$m.tio"
		[ -n "$a" ] && [ -n "$b" ] && awk -v a="$a" -v b="$b" 'BEGIN { if (b > 0) print a / b }' >>"$work/$m.ratio"
	done
	printf '    %-5s iostorm %10s   t/io_uring -u1 -p%d %10s   iostorm/t/io_uring %s\n' "$m" \
		"$(median '%.0f' <"$work/$m.ios")" "$([ $m = poll ] && echo 1 || echo 0)" \
		"$(median '%.0f' <"$work/$m.tio")" "$(median '%.2fx' <"$work/$m.ratio")"
done
if [ "$failed" -gt 0 ]; then
	echo "passthru: $failed run(s) failed; their figures are missing above" >&2
	exit 1
fi
