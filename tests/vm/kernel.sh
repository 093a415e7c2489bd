#!/bin/bash
# tests/vm/kernel.sh SERIES: fetches a Debian guest kernel once and prints the
# folder holding it: vmlinuz, release (its uname -r), modules/ (nvme and
# what it depends on, decompressed, with modules.order listing the load
# order). SERIES is 6.12 (bookworm-security) or 7.2 (unstable).
#
# The packages come through a private apt configuration under the cache
# folder, pointed at the same mirrors as this machine's own apt sources: the
# host's sources, lists and installed kernels are never touched. A series
# already in the cache is reused without the network.
# Cache: $IOSTORM_VM_CACHE, default /var/cache/iostorm-vm.
set -euo pipefail

series=${1:?usage: tests/vm/kernel.sh 6.12|7.2}
cache=${IOSTORM_VM_CACHE:-/var/cache/iostorm-vm}
out=$cache/kernel-$series

die() {
	echo "kernel.sh: $*" >&2
	exit 1
}

if [ -s "$out/vmlinuz" ] && [ -s "$out/release" ] && [ -s "$out/modules/modules.order" ]; then
	echo "$out"
	exit 0
fi

# apt_host_uri, apt_debian_binary and apt_unpack: the host's mirror, a private apt tree
. "$(dirname "${BASH_SOURCE[0]}")/../../bench/apt-private.sh"

case $series in
6.12)
	suite=bookworm-security
	uri=$(apt_host_uri bookworm-security | head -n 1)
	[ -n "$uri" ] || die "no bookworm-security line in /etc/apt sources to take the mirror from"
	pkgs_re='^linux-image-6\.12\.[0-9]+\+deb12-amd64-unsigned$' ;;
7.2)
	suite=sid
	uri=$(apt_host_uri bookworm | head -n 1)
	[ -n "$uri" ] || die "no bookworm line in /etc/apt sources to take the mirror from"
	pkgs_re='^linux-binary-7\.2\.[0-9]+\+deb[0-9]+-amd64$' ;;
*)
	die "unknown series '$series' (6.12 or 7.2)" ;;
esac

apt_dir=$cache/apt-$series
echo "kernel.sh: fetching the $series guest kernel from $suite" >&2
apt_debian_binary "$apt_dir" "$uri" "$suite" || die "no private apt list for $suite"
pkg=$(apt-cache "${apt_opts[@]}" pkgnames linux- | grep -E "$pkgs_re" | sort -V | tail -n 1)
[ -n "$pkg" ] || die "no package matching $pkgs_re in $suite"
pkgs=("$pkg")
[ "$series" = 7.2 ] && pkgs+=("linux-modules-${pkg#linux-binary-}")

tmp=$(mktemp -d "$cache/.fetch-$series.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
apt_unpack "$apt_dir" "$tmp/root" "${pkgs[@]}" || die "cannot fetch ${pkgs[*]}"

vmlinuz=
for f in "$tmp"/root/boot/vmlinuz-* "$tmp"/root/usr/lib/modules/*/vmlinuz; do
	[ -f "$f" ] && vmlinuz=$f
done
[ -n "$vmlinuz" ] || die "no vmlinuz in ${pkgs[*]}"
case $vmlinuz in
*/boot/vmlinuz-*) release=${vmlinuz##*/vmlinuz-} ;;
*) release=${vmlinuz%/vmlinuz}; release=${release##*/} ;;
esac
moddir=
for m in "$tmp/root/lib/modules/$release" "$tmp/root/usr/lib/modules/$release"; do
	[ -d "$m/kernel" ] && moddir=$m
done
[ -n "$moddir" ] || die "no modules for $release in ${pkgs[*]}"

# nvme and the modules it depends on (each module's .modinfo "depends="),
# decompressed, dependencies first. modules.dep is made by depmod at install
# time, so the packages do not ship it.
mkdir -p "$tmp/new/modules"
order=()
add_mod() {
	local name=$1 file dep plain
	for dep in "${order[@]}"; do [ "$dep" = "$name" ] && return 0; done
	file=$(find "$moddir/kernel" -name "$name.ko*" -o -name "${name//_/-}.ko*" | head -n 1)
	[ -n "$file" ] || die "module $name is not in ${pkgs[*]}"
	plain=$tmp/new/modules/$name.ko
	case $file in
	*.xz) xz -dc "$file" >"$plain" ;;
	*.zst) zstd -qdc "$file" >"$plain" ;;
	*.gz) gzip -dc "$file" >"$plain" ;;
	*) cp "$file" "$plain" ;;
	esac
	for dep in $(grep -a -o 'depends=[^[:cntrl:]]*' "$plain" | head -n 1 | cut -d= -f2 | tr , ' '); do
		add_mod "${dep//-/_}"
	done
	order+=("$name")
	echo "$name" >>"$tmp/new/modules/modules.order"
}
add_mod nvme
cp "$vmlinuz" "$tmp/new/vmlinuz"
echo "$release" >"$tmp/new/release"
echo "${pkgs[*]}" >"$tmp/new/packages"
rm -rf "$out"
mv "$tmp/new" "$out"
echo "$out"
