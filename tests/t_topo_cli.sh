#!/bin/bash
# iostorm topo from the command line: the live report, targets, bad input
# (one line on stderr; exit 1 for runtime, 2 for usage) and --json FILE.
set -u
: "${IOSTORM:?IOSTORM must name the iostorm binary}"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/iostorm-t-topo.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# expect RC CMD...: exit status RC; on failure one line on stderr
expect() {
	local want=$1 rc lines
	shift
	"$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq "$want" ] || bad "$* exited $rc, want $want: $(cat "$tmp/err")"
	if [ "$want" -ne 0 ]; then
		lines=$(wc -l <"$tmp/err")
		[ "$lines" -eq 1 ] || bad "$*: $lines lines on stderr, want 1: $(cat "$tmp/err")"
	fi
}

expect 0 "$IOSTORM" topo
grep -q '^  node 0' "$tmp/out" || bad "topo does not show node 0"
grep -q '^findings' "$tmp/out" || bad "topo shows no findings section"
if ! grep -q 'nvme' /proc/partitions; then
	grep -q 'no NVMe drive on this machine' "$tmp/out" || bad "topo does not say there is no NVMe drive"
fi

echo x >"$tmp/f"
expect 0 "$IOSTORM" topo "$tmp/f"
expect 1 "$IOSTORM" topo /nonexistent/iostorm-target
grep -q '/nonexistent/iostorm-target' "$tmp/err" || bad "missing target not named"

expect 1 "$IOSTORM" topo --topology /nonexistent/server.xml
grep -q 'server.xml' "$tmp/err" || bad "missing XML not named"
echo 'not xml' >"$tmp/bad.xml"
expect 2 "$IOSTORM" topo --topology "$tmp/bad.xml"
grep -q 'bad.xml' "$tmp/err" || bad "invalid XML not named"
expect 1 "$IOSTORM" topo --topology "$tmp"
# hwloc 2.9 itself crashes on this one (a PU without complete_cpuset)
expect 2 "$IOSTORM" topo --topology tests/fixtures/topo-hwloc-crash.xml
grep -q 'not an lstopo XML export' "$tmp/err" || bad "a file hwloc crashes on is not refused"
# a pipe is read once, though hwloc reads the export twice (topo/xml.c)
expect 0 "$IOSTORM" topo --topology <(cat tests/fixtures/topo-2node-imbalance.xml)
grep -q '^  nvme3n1 ' "$tmp/out" || bad "--topology from a pipe: no drives"
expect 2 "$IOSTORM" topo --topology
expect 2 "$IOSTORM" topo --frobnicate
expect 0 "$IOSTORM" topo --help
grep -q 'usage: iostorm topo' "$tmp/out" || bad "--help shows no usage"
# the shared parser: --version, and no option topo does not take
expect 0 "$IOSTORM" topo --version
grep -q '^iostorm [0-9]' "$tmp/out" || bad "--version prints no version"
expect 2 "$IOSTORM" topo --qd 4
expect 2 "$IOSTORM" topo --json=

expect 0 "$IOSTORM" topo --topology tests/fixtures/topo-2node-imbalance.xml nvme2n1
grep -q '^  nvme2n1 ' "$tmp/out" || bad "named target missing from the report"
grep -q '^  nvme0n1 ' "$tmp/out" && bad "a target not asked for is in the report"
expect 1 "$IOSTORM" topo --topology tests/fixtures/topo-2node-imbalance.xml nvme9n1

expect 0 "$IOSTORM" topo --topology tests/fixtures/topo-2node-imbalance.xml --json "$tmp/r.json"
grep -q '"schema": "iostorm/1"' "$tmp/r.json" || bad "--json FILE has no schema"
grep -q 'node 1.s host bridges 0000:80, 0000:c0' "$tmp/out" || bad "text report lacks the imbalance finding"
expect 0 "$IOSTORM" topo --topology tests/fixtures/topo-2node-imbalance.xml --json -
head -c 1 "$tmp/out" | grep -q '{' || bad "--json - writes text before the JSON"
# like every other command, --json - moves the text to stderr
grep -q '^findings' "$tmp/err" || bad "--json -: the text report is not on stderr"
grep -q '^findings' "$tmp/out" && bad "--json -: the text report is mixed into the JSON"
jq -e '.command == "topo"' "$tmp/out" >/dev/null 2>&1 || ! command -v jq >/dev/null ||
	bad "--json -: stdout is not the JSON report alone"
expect 1 "$IOSTORM" topo --json /nonexistent/dir/r.json

exit $fail
