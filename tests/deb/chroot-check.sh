#!/bin/bash
# tests/deb/chroot-check.sh IOSTORM.deb: installs the package in a fresh
# minimal Debian bookworm chroot, as a user would (apt-get install ./FILE,
# which fetches its library dependencies), and checks there that
# 'iostorm --version' names the package's version, 'man iostorm' shows the
# page, the job files are in place and bash completion offers the engines.
#
# The chroot comes from debootstrap (variant minbase, with man-db) pointed at
# the same Debian mirror as this machine's own apt sources; its packages are
# kept in a tarball under $IOSTORM_DEB_CACHE (default /var/cache/iostorm-deb)
# so later runs download only what the .deb adds. Every run unpacks a new
# chroot and removes it at the end, also on failure or a signal. Root only.
set -euo pipefail

deb=${1:?usage: tests/deb/chroot-check.sh IOSTORM.deb}
cache=${IOSTORM_DEB_CACHE:-/var/cache/iostorm-deb}
suite=bookworm
keyring=/usr/share/keyrings/debian-archive-keyring.gpg

die() {
	echo "deb check: $*" >&2
	exit 1
}

[ -f "$deb" ] || die "no package file '$deb'"
deb=$(cd "$(dirname "$deb")" && pwd)/$(basename "$deb")
[ "$(id -u)" -eq 0 ] || die "needs root (debootstrap and chroot)"
command -v debootstrap >/dev/null || die "no debootstrap (apt-get install debootstrap)"
[ -r "$keyring" ] || die "no $keyring (apt-get install debian-archive-keyring)"

# apt_host_uri: the host's mirror for a suite
. "$(dirname "${BASH_SOURCE[0]}")/../../bench/apt-private.sh"
mirror=$(apt_host_uri "$suite" | head -n 1)
[ -n "$mirror" ] || die "no $suite line in /etc/apt sources to take the mirror from"
arch=$(dpkg --print-architecture)
version=$(dpkg-deb -f "$deb" Version)
upstream=${version%-*}

# everything lives in one folder: the chroot, debootstrap's log, a new tarball
work=
cleanup() {
	local m
	[ -n "$work" ] || return 0
	# unmount whatever lies below it, deepest first; remove it only once
	# nothing is mounted there, so rm cannot reach the host's files
	for m in $(awk -v w="$work/" 'index($2, w) == 1 { print $2 }' /proc/mounts | sort -r); do
		umount "$m" 2>/dev/null || umount -l "$m" || true
	done
	if awk -v w="$work/" 'index($2, w) == 1 { found = 1 } END { exit !found }' /proc/mounts; then
		echo "deb check: $work still has mounts; left in place" >&2
	else
		rm -rf --one-file-system "$work"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

work=$(mktemp -d "${TMPDIR:-/var/tmp}/iostorm-deb-check.XXXXXX")
root=$work/root
log=$work/debootstrap.log
mkdir -p "$cache" "$root"
chmod 755 "$work" "$root"	# mktemp's 0700 would shut out _apt and man in there

tarball=$cache/$suite-minbase-man-db-$arch.tgz
if [ ! -s "$tarball" ]; then
	echo "deb check: fetching a minimal $suite from $mirror into $tarball" >&2
	debootstrap --variant=minbase --include=man-db --keyring="$keyring" \
		--make-tarball="$work/base.tgz" "$suite" "$work/make" "$mirror" >&2 ||
		die "debootstrap --make-tarball failed"
	mv "$work/base.tgz" "$tarball.part" && mv "$tarball.part" "$tarball"
	rm -rf "$work/make"
fi

echo "deb check: a fresh $suite chroot in $root" >&2
debootstrap --variant=minbase --include=man-db --keyring="$keyring" \
	--unpack-tarball="$tarball" "$suite" "$root" "$mirror" >"$log" 2>&1 ||
	{ tail -n 20 "$log" >&2; die "debootstrap failed (remove $tarball if it is stale)"; }

mount -t proc proc "$root/proc"
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
# no service starts inside the chroot
printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
chmod 755 "$root/usr/sbin/policy-rc.d"
cp "$deb" "$root/tmp/"

in_root() {
	chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
		LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"
}

in_root apt-get -q update >&2 || die "apt-get update in the chroot failed"
in_root apt-get install -y -q --no-install-recommends -o Dpkg::Use-Pty=0 "/tmp/$(basename "$deb")" >&2 ||
	die "apt-get install of $(basename "$deb") in the chroot failed"

fail=0
bad() {
	echo "deb check: FAIL: $*" >&2
	fail=1
}

got=$(in_root iostorm --version) || bad "iostorm --version exited $?"
[ "$got" = "iostorm $upstream" ] || bad "iostorm --version says '$got', want 'iostorm $upstream'"
page=$(in_root env MANWIDTH=80 man -P cat iostorm 2>&1) || bad "man iostorm exited $?: $page"
grep -q 'random-read load' <<<"$page" || bad "man iostorm does not show the page: $(head -n 3 <<<"$page")"
in_root test -f /usr/share/man/man1/iostorm.1.gz || bad "no compressed man page"
in_root test -f /usr/share/iostorm/configs/qd-sweep.ini || bad "no job files under /usr/share/iostorm/configs"
engines=$(in_root bash -c '. /usr/share/bash-completion/completions/iostorm &&
	COMP_WORDS=(iostorm run --engine "") COMP_CWORD=3 && _iostorm iostorm &&
	echo "${COMPREPLY[*]}"') || bad "bash completion failed"
[ "$engines" = "auto io_uring libaio io_uring_cmd" ] || bad "bash completion offers '$engines' for --engine"

if [ "$fail" -ne 0 ]; then
	echo "deb check: failed"
	exit 1
fi
echo "deb check: $(basename "$deb") installs in a fresh $suite chroot; iostorm --version, man iostorm, job files and completion work"
