#!/bin/bash
# bench/tio.sh: prints the path of fio's t/io_uring, building it once from
# Debian's fio source package and caching the binary. Only the binary is
# kept, in the cache, never in this tree.
#
# The source comes from 'apt-get source fio' through a private apt
# configuration (bench/apt-private.sh) whose one line is a deb-src line for
# the mirror that this machine's own 'deb' line for its release uses; the
# host's apt sources and lists are never changed. The build is fio's own:
# ./configure --disable-native && make t/io_uring (--disable-native: the
# binary may be cached and must not depend on this CPU's extensions).
# Tools the build needs (gcc, make, dpkg-dev for dpkg-source) are installed
# with apt-get where missing, and that is said on stderr.
# Cache: $IOSTORM_BENCH_CACHE, default /var/cache/iostorm-bench; delete
# $cache/t-io_uring to rebuild. Exit status 1 with one line on stderr when
# it cannot be had.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cache=${IOSTORM_BENCH_CACHE:-/var/cache/iostorm-bench}
bin=$cache/t-io_uring

die() {
	echo "tio.sh: $*" >&2
	exit 1
}

if [ -x "$bin" ]; then
	echo "$bin"
	exit 0
fi

# shellcheck source=bench/apt-private.sh
. "$here/apt-private.sh"

need=()
for t in gcc:gcc make:make dpkg-source:dpkg-dev; do
	command -v "${t%%:*}" >/dev/null || need+=("${t#*:}")
done
if [ ${#need[@]} -gt 0 ]; then
	echo "tio.sh: installing ${need[*]} to build t/io_uring" >&2
	apt-get -qq install -y "${need[@]}" >&2 ||
		{ apt-get -qq update >&2 && apt-get -qq install -y "${need[@]}" >&2; } ||
		die "apt-get install ${need[*]} failed; t/io_uring cannot be built"
fi

suite=$( (. /etc/os-release && echo "${VERSION_CODENAME:-}") )
[ -n "$suite" ] || die "no VERSION_CODENAME in /etc/os-release: cannot tell which Debian suite to take fio from"
uri=$(apt_host_uri "$suite" | head -n 1)
[ -n "$uri" ] || die "no 'deb' line for suite $suite in /etc/apt sources to take the mirror from"
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
[ -r "$keyring" ] || die "no $keyring (apt-get install debian-archive-keyring)"

mkdir -p "$cache" || die "cannot create $cache"
apt_private_init "$cache/apt" "deb-src [signed-by=$keyring] $uri $suite main" ||
	die "cannot write the private apt configuration under $cache/apt"
tmp=$(mktemp -d "$cache/.build.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
log=$tmp/log

echo "tio.sh: fetching fio's source ($suite, deb-src of the host's mirror) to build t/io_uring" >&2
apt-get "${apt_opts[@]}" -qq update >"$log" 2>&1 ||
	die "apt-get update of the private deb-src list failed: $(tail -n 1 "$log")"
(cd "$tmp" && apt-get "${apt_opts[@]}" -qq source fio) >"$log" 2>&1 ||
	die "apt-get source fio failed: $(tail -n 1 "$log")"
src=
for d in "$tmp"/fio-*/; do
	[ -f "$d/t/io_uring.c" ] && src=${d%/}
done
[ -n "$src" ] || die "the fio source package has no t/io_uring.c"
(cd "$src" && ./configure --disable-native && make -j"$(nproc)" t/io_uring) >"$log" 2>&1 ||
	die "building t/io_uring failed: $(tail -n 1 "$log")"
install -m 0755 "$src/t/io_uring" "$bin.new" && mv "$bin.new" "$bin" ||
	die "cannot install t/io_uring into $cache"
echo "${src##*/}" >"$cache/t-io_uring.source"
echo "tio.sh: built t/io_uring from ${src##*/} into $bin" >&2
echo "$bin"
