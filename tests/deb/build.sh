#!/bin/bash
# tests/deb/build.sh OUTDIR: builds the iostorm .deb from this tree's files
# (tracked and not ignored: what a clean clone plus your edits holds, never
# build outputs) with dpkg-buildpackage -us -uc -b in a temporary copy, puts
# the .deb, .changes and .buildinfo in OUTDIR and runs lintian on them.
# Fails on a build failure or on any lintian error; warnings are printed.
# dpkg-buildpackage writes next to the source folder, hence the copy.
set -euo pipefail

out=${1:?usage: tests/deb/build.sh OUTDIR}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

die() {
	echo "deb build: $*" >&2
	exit 1
}

for c in dpkg-buildpackage dh lintian; do
	command -v "$c" >/dev/null ||
		die "no $c (apt-get install git dpkg-dev debhelper lintian)"
done
mkdir -p "$out"
out=$(cd "$out" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/iostorm-deb.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

mkdir "$tmp/iostorm"
if git -C "$root" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	# a file deleted but not yet committed is listed and missing: skip it
	(cd "$root" && git ls-files -z --cached --others --exclude-standard |
		tar --null -T - --ignore-failed-read -cf - 2>/dev/null)
else
	# an unpacked tarball: everything but what make builds
	tar -C "$root" --exclude=./build --exclude='./build-*' --exclude=./iostorm -cf - .
fi | tar -C "$tmp/iostorm" -xf - || die "cannot copy the tree into $tmp"

(cd "$tmp/iostorm" && dpkg-buildpackage -us -uc -b -J"${IOSTORM_DEB_JOBS:-$(nproc)}") ||
	die "dpkg-buildpackage failed"

rm -f "$out"/iostorm_*.deb "$out"/iostorm-dbgsym_*.deb "$out"/iostorm_*.changes \
	"$out"/iostorm_*.buildinfo
cp "$tmp"/*.deb "$tmp"/*.changes "$tmp"/*.buildinfo "$out"/
echo "== lintian"
lintian --fail-on error "$out"/iostorm_*.changes || die "lintian reports errors"
ls "$out"/iostorm_*.deb
