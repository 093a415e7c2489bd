#!/bin/bash
# make pictures: one picture of each kind in docs/pictures/, from a real
# run: iostorm run, latency, sweep and saturate on two loop devices over
# /dev/shm files (as root; two files under /var/tmp otherwise), drawn
# with iostorm plot, and iostorm topo --dot of two topology fixtures drawn
# with dot -Tsvg. The loop devices and files are removed whatever happens.
set -u

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd) || exit 1
cd "$root" || exit 1
IOSTORM=${IOSTORM:-$root/iostorm}
out=docs/pictures
loops=()
files=()
tmp=

cleanup() {
	local i
	for i in "${loops[@]}"; do
		losetup -d "$i" 2>/dev/null || echo "make pictures: could not detach $i" >&2
	done
	for i in "${files[@]}"; do
		rm -f -- "$i"
	done
	[ -n "$tmp" ] && rm -rf -- "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

die() {
	echo "make pictures: $*" >&2
	exit 1
}

for c in gnuplot dot; do
	command -v $c >/dev/null || die "$c is missing (apt-get install gnuplot-nox graphviz)"
done
[ -x "$IOSTORM" ] || die "no iostorm binary at $IOSTORM"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/iostorm-pictures.XXXXXX") || die "mktemp"

# target VAR: a loop device over 128 MiB of /dev/shm as root, else a file
target() {
	local f dev dir=/var/tmp
	[ "$(id -u)" -eq 0 ] && command -v losetup >/dev/null && dir=/dev/shm
	f=$(mktemp "$dir/iostorm-pictures.XXXXXX") || die "mktemp in $dir"
	files+=("$f")
	head -c $((128 << 20)) /dev/urandom >"$f" || die "writing $f"
	if [ "$dir" = /dev/shm ] &&
		dev=$(losetup -f --show --direct-io=on "$f" 2>/dev/null || losetup -f --show "$f"); then
		loops+=("$dev")
		printf -v "$1" '%s' "$dev"
	else
		printf -v "$1" '%s' "$f"
	fi
}

# measure NAME ARGS...: iostorm ARGS --json $tmp/NAME.json, then its picture
measure() {
	local name=$1
	shift
	echo "make pictures: iostorm $*"
	"$IOSTORM" "$@" -q --json "$tmp/$name.json" >/dev/null || die "iostorm $* failed"
	"$IOSTORM" plot -o "$out/$name.svg" "$tmp/$name.json" >/dev/null || die "plot $name failed"
}

target a
target b
measure run run -t 5 --ramp 1 --qd 16 "$a" "$b"
measure latency latency -t 8 --ramp 1 "$a"
measure sweep sweep --qd 1,2,4,8,16,32,64 -t 1 --ramp 0.5 "$a" "$b"
measure saturate saturate --qd 32 -t 1 --ramp 0.5 "$a" "$b"
"$IOSTORM" topo --dot --topology tests/fixtures/topo-2node-imbalance.xml |
	dot -Tsvg >"$out/topo.svg" || die "topo --dot failed"
IOSTORM_SYSFS_ROOT=tests/fixtures/sysfs-degraded \
	"$IOSTORM" topo --dot --topology tests/fixtures/topo-degraded-link.xml |
	dot -Tsvg >"$out/topo-degraded.svg" || die "topo --dot (degraded) failed"
"$IOSTORM" plan --dot --topology tests/fixtures/topo-2node-free.xml --drive-iops 1m \
	--host-bridge-bw 2g | dot -Tsvg >"$out/plan.svg" || die "plan --dot failed"
ls -l "$out"/*.svg
