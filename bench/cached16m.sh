#!/bin/bash
# Three 16 MiB files of random data in DIR (made once), read through so
# the page cache holds them; prints their paths, one a line. The cached
# files of bench/multi.sh's (m) case and bench/callgrind.sh's copies.
# Usage: bench/cached16m.sh DIR
set -euo pipefail
dir=${1:?usage: cached16m.sh DIR}
mkdir -p "$dir"
for f in a b c; do
	[ -s "$dir/$f" ] || dd if=/dev/urandom of="$dir/$f" bs=1M count=16 status=none
	cat "$dir/$f" >/dev/null	# cached
	echo "$dir/$f"
done
