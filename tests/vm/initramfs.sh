#!/bin/bash
# tests/vm/initramfs.sh KERNEL_DIR OUT [PROGRAM...]: packs a guest initramfs
# (gzip'd cpio) into OUT: busybox-static, the kernel's nvme modules (from
# tests/vm/kernel.sh), the guest side of the rig (tests/vm/guest/*.sh as
# /guest/) and each PROGRAM under /bin with every shared library it loads,
# as this machine's dynamic loader resolves them.
set -euo pipefail

kdir=${1:?usage: initramfs.sh KERNEL_DIR OUT [PROGRAM...]}
out=${2:?usage: initramfs.sh KERNEL_DIR OUT [PROGRAM...]}
shift 2
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

die() {
	echo "initramfs.sh: $*" >&2
	exit 1
}

busybox=$(command -v busybox || true)
[ -n "$busybox" ] || die "busybox is not installed (apt-get install busybox-static)"
# the guest has no libc of its own: busybox must be the static build
if ldd "$busybox" >/dev/null 2>&1; then
	die "$busybox is dynamically linked (apt-get install busybox-static)"
fi
command -v cpio >/dev/null || die "cpio is not installed (apt-get install cpio)"

root=$(mktemp -d "${TMPDIR:-/tmp}/iostorm-initramfs.XXXXXX")
trap 'rm -rf "$root"' EXIT
mkdir -p "$root"/{bin,sbin,dev,proc,sys,tmp,run,lib/modules,guest,results}
cp "$busybox" "$root/bin/busybox"
ln -s busybox "$root/bin/sh"
cp "$kdir"/modules/*.ko "$kdir/modules/modules.order" "$root/lib/modules/"
cp "$kdir/release" "$root/lib/modules/release"
cp "$here"/guest/*.sh "$root/guest/"
mv "$root/guest/init.sh" "$root/init"
chmod +x "$root/init" "$root"/guest/*.sh

# libraries as ldd lists them: "name => /path (addr)" or "/path (addr)"
copy_with_libs() {
	local prog=$1 lib
	cp "$prog" "$root/bin/"
	ldd "$prog" 2>/dev/null | awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^\//) print $i }' |
		while read -r lib; do
			[ -e "$root$lib" ] && continue
			mkdir -p "$root$(dirname "$lib")"
			cp -L "$lib" "$root$lib"
		done
}
for p in "$@"; do
	[ -x "$p" ] || die "$p is not an executable"
	copy_with_libs "$p"
done

(cd "$root" && find . -print0 | cpio --null -o -H newc --quiet --owner 0:0) | gzip -1 >"$out.tmp"
mv "$out.tmp" "$out"
