#!/bin/bash
# tests/vm/qemu.sh: fetches the rig's emulator once, QEMU 10 from
# bookworm-backports, and prints the folder holding it: bin/qemu-system-x86_64
# (a wrapper that runs it on its own firmware and modules), version.
#
# Why not the host's QEMU: bookworm's 7.2 translates guest code without the
# guest's memory barriers when TCG runs in one thread (tcg_gen_mb() drops
# them unless CF_PARALLEL), while the NVMe controller's emulation reads and
# writes the shadow doorbells from the main loop thread at the same time:
# the guest's mfence between writing a shadow doorbell and reading the event
# index is gone, so a doorbell can be missed for good (docs/testing.md).
# QEMU 8.1 and later keep the barriers in system mode (upstream commit
# c914d46d0a64, "tcg: Do not elide memory barriers for !CF_PARALLEL in
# system mode").
#
# The .debs come through a private apt configuration under the cache folder,
# pointed at the same mirror as this machine's own bookworm line (as
# kernel.sh does for the guest kernels): the host's sources, lists and
# installed packages are never touched. They are only unpacked; the
# emulator runs on bookworm's libraries (those of bookworm's own
# qemu-system-x86 package), seabios and QEMU's data from the same
# backports. Cache: $IOSTORM_VM_CACHE, default /var/cache/iostorm-vm.
set -euo pipefail

cache=${IOSTORM_VM_CACHE:-/var/cache/iostorm-vm}
series=10
out=$cache/qemu-$series

die() {
	echo "qemu.sh: $*" >&2
	exit 1
}

if [ -x "$out/bin/qemu-system-x86_64" ] && [ -s "$out/version" ]; then
	echo "$out"
	exit 0
fi

# apt_host_uri, apt_debian_binary and apt_unpack: the host's mirror, a private apt tree
. "$(dirname "${BASH_SOURCE[0]}")/../../bench/apt-private.sh"

suite=bookworm-backports
uri=$(apt_host_uri bookworm | head -n 1)
[ -n "$uri" ] || die "no bookworm line in /etc/apt sources to take the mirror from"
apt_dir=$cache/apt-qemu
echo "qemu.sh: fetching QEMU $series from $suite" >&2
apt_debian_binary "$apt_dir" "$uri" "$suite" || die "no private apt list for $suite"
ver=$(apt-cache "${apt_opts[@]}" show qemu-system-x86 2>/dev/null |
	sed -n 's/^Version: //p' | grep -E "^1:$series\.[0-9.]+" | sort -V | tail -n 1)
[ -n "$ver" ] || die "no qemu-system-x86 $series.x in $suite"
pkgs=("qemu-system-x86=$ver" "qemu-system-common=$ver" "qemu-system-data=$ver" seabios)

tmp=$(mktemp -d "$cache/.fetch-qemu.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
apt_unpack "$apt_dir" "$tmp/root" "${pkgs[@]}" || die "cannot fetch ${pkgs[*]}"
bin=$tmp/root/usr/bin/qemu-system-x86_64
[ -x "$bin" ] || die "no qemu-system-x86_64 in ${pkgs[*]}"
missing=$(ldd "$bin" | awk '/not found/ { print $1 }' | tr '\n' ' ')
[ -z "$missing" ] || die "QEMU $ver needs libraries this machine lacks: $missing(apt-get install qemu-system-x86 brings them)"

mkdir -p "$tmp/new/bin"
mv "$tmp/root" "$tmp/new/root"
# the firmware (seabios' bios-256k.bin, QEMU's option ROMs) and modules of
# this QEMU, never the host's older ones
cat >"$tmp/new/bin/qemu-system-x86_64" <<'EOF'
#!/bin/sh
r=$(cd "$(dirname "$0")/../root" && pwd)
export QEMU_MODULE_DIR="$r/usr/lib/x86_64-linux-gnu/qemu"
exec "$r/usr/bin/qemu-system-x86_64" -L "$r/usr/share/seabios" -L "$r/usr/share/qemu" "$@"
EOF
chmod +x "$tmp/new/bin/qemu-system-x86_64"
"$tmp/new/bin/qemu-system-x86_64" --version | head -n 1 >"$tmp/new/version" ||
	die "QEMU $ver does not run here"
echo "${pkgs[*]}" >"$tmp/new/packages"
rm -rf "$out"
mv "$tmp/new" "$out"
echo "$out"
