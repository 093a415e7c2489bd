# iostorm topo --dot: each topology fixture drawn and
# rendered with dot -Tsvg; the SVG parses and holds one <g class="node">
# per NUMA node, host bridge, bridge, controller and drive; the findings
# colour what they name (few cores, the crowded node, degraded links from
# the recorded sysfs tree); a hostile model string stays one label; the
# live machine draws too; plan --dot draws the plan over the tree, moves
# into slots that no bus id names (given or assumed) too.
. "$(dirname "$0")/lib.sh"
need_iostorm
need_cmd dot xmllint

fx=tests/fixtures
orange='fillcolor="#f5b041"'
red='color="#c0392b"'

# draw NAME NODES ARGS...: topo --dot ARGS renders to $T_DIR/NAME.svg,
# which parses and holds NODES nodes; the DOT source is $T_DIR/NAME.dot
draw() {
	local name=$1 want=$2 n
	shift 2
	expect_ok "topo --dot $*" topo --dot "$@" || return 1
	cp "$T_OUT" "$T_DIR/$name.dot"
	if ! dot -Tsvg "$T_DIR/$name.dot" >"$T_DIR/$name.svg" 2>"$T_DIR/dot.err" ||
		[ -s "$T_DIR/dot.err" ]; then
		check_fail "$name: dot -Tsvg failed or warned: $(head -3 "$T_DIR/dot.err")"
		return 1
	fi
	if ! xmllint --noout "$T_DIR/$name.svg"; then
		check_fail "$name: the SVG does not parse"
		return 1
	fi
	n=$(grep -c '<g id="node[0-9]*" class="node">' "$T_DIR/$name.svg")
	[ "$n" -eq "$want" ] || check_fail "$name: $n nodes in the drawing, want $want"
}

# count NAME PATTERN WANT WHAT: PATTERN occurs WANT times in NAME.dot
count() {
	local n
	n=$(grep -cF -- "$2" "$T_DIR/$1.dot")
	[ "$n" -eq "$3" ] || check_fail "$1: $n $4, want $3"
}

# 2 NUMA nodes, 3 host bridges (2 without drives), 4 root ports, 4 drives;
# node 0 crowded, every drive short of cores
draw imbalance 13 --topology $fx/topo-2node-imbalance.xml &&
	count imbalance "$orange" 5 "orange boxes (4 drives, node 0)"
grep -q 'n0 .*more drives than its share' "$T_DIR/imbalance.dot" ||
	check_fail "imbalance: node 0 is not marked crowded"
grep -q 'few cores' "$T_DIR/imbalance.dot" || check_fail "imbalance: no drive says few cores"
# only the named target: 2 nodes, 3 host bridges, its port, itself
draw target 7 --topology $fx/topo-2node-imbalance.xml nvme2n1
# a CPU-less node: its drive orange (cpuless node), node 1 with no bridge
draw cpuless 9 --topology $fx/topo-cpuless-node.xml &&
	grep -q 'cpuless node' "$T_DIR/cpuless.dot" || check_fail "cpuless: the drive does not say cpuless node"
# multipath: one namespace under two controllers on two nodes, not orange
draw multipath 10 --topology $fx/topo-multipath.xml &&
	count multipath "$orange" 0 "orange boxes"
[ "$(grep -c -- '-> d0;' "$T_DIR/multipath.dot")" -eq 2 ] ||
	check_fail "multipath: nvme0n1 does not hang from its two controllers"
# degraded links: sysfs from the recorded tree gives the maximums
draw degraded-xml 8 --topology $fx/topo-degraded-link.xml &&
	count degraded-xml "$red" 0 "red links (no sysfs, no maximums)"
IOSTORM_SYSFS_ROOT=$fx/sysfs-degraded draw degraded 8 --topology $fx/topo-degraded-link.xml &&
	{ count degraded "$red" 2 "red links"; count degraded "$orange" 2 "orange drives"; }
grep -q '8 GT/s x4 (max 16 GT/s x4)' "$T_DIR/degraded.dot" ||
	check_fail "degraded: the drive is not labelled with its link"

# a recorded export whose model string tries to close the label and add
# an edge, with a Graphviz escape, a newline and markup: the same nodes
sed 's|value="Fixture NVMe"|value="Evil\&quot; -\&gt; x [label=\&quot;\\N\&#10;}\&amp;\&lt;"|' \
	$fx/topo-2node-imbalance.xml >"$T_DIR/evil.xml"
grep -q 'Evil' "$T_DIR/evil.xml" || fail "could not make the hostile fixture"
draw evil 13 --topology "$T_DIR/evil.xml"
grep -qF 'Evil&quot; &#45;&gt; x [label=&quot;\N\x0a}&amp;&lt;' "$T_DIR/evil.svg" ||
	grep -qF 'Evil" -> x [label="\N\x0a}&amp;&lt;' "$T_DIR/evil.svg" ||
	check_fail "evil: the model is not drawn as text"

# this machine, whatever it has
expect_ok "topo --dot, live" topo --dot && { dot -Tsvg "$T_OUT" >"$T_DIR/live.svg" 2>/dev/null &&
	xmllint --noout "$T_DIR/live.svg" || check_fail "live: the drawing does not render"; }
expect_ok "topo --dot --json FILE" topo --dot --json "$T_DIR/t.json" --topology $fx/topo-multipath.xml
[ -s "$T_DIR/t.json" ] || check_fail "--dot --json FILE wrote no JSON"
expect_error "--dot --json -" 2 'both want stdout' topo --dot --json - --topology $fx/topo-multipath.xml

# plan --dot: the same tree with the plan over it. topo-2node-free.xml: 2
# nodes, host bridges 0000:00 (4 drives behind a switch) and 0000:80 with
# 3 free root ports; with 2 GB/s a bridge, 0000:00 binds and nvme0n1 moves
# to 0000:80:01.1. 2 nodes + 2 host bridges + 2 switches + 4 ports + 4
# drives + 3 free ports = 17 boxes.
pdraw() {
	expect_ok "plan --dot" plan --dot --topology $fx/topo-2node-free.xml --drive-iops 1m \
		--host-bridge-bw 2g || return 1
	cp "$T_OUT" "$T_DIR/plan.dot"
	dot -Tsvg "$T_DIR/plan.dot" >"$T_DIR/plan.svg" 2>"$T_DIR/dot.err" && [ ! -s "$T_DIR/dot.err" ] &&
		xmllint --noout "$T_DIR/plan.svg" || { check_fail "plan: the drawing does not render"; return 1; }
	n=$(grep -c '<g id="node[0-9]*" class="node">' "$T_DIR/plan.svg")
	[ "$n" -eq 17 ] || check_fail "plan: $n nodes in the drawing, want 17"
	count plan 'label="free root port\n' 3 "free root ports"
	count plan 'xlabel="binds"' 1 "binding resources"
	grep -q '^  i[0-9]* \[color="#c0392b", penwidth=3.5, xlabel="binds"\];$' "$T_DIR/plan.dot" ||
		check_fail "plan: the binding host bridge is not outlined"
	count plan 'label="move 1: 976562 IOPS"' 1 "move arrows"
}
pdraw
# plan --dot with slots no bus id names: topo-2node-noslot.xml lists no free
# root port (15 boxes), so one slot is assumed under each of 0000:00,
# 0000:40 and 0000:80 and three drives move there: a dashed box per slot,
# "(assumed)", under its host bridge, with its move's arrow; a slot given
# by --free-slots is drawn the same, not assumed
# slots NAME BOXES ARGS...: plan --dot ARGS renders to NAME.svg with BOXES
slots() {
	local name=$1 want=$2 n
	shift 2
	expect_ok "plan --dot $*" plan --dot --topology $fx/topo-2node-noslot.xml --drive-iops 1m "$@" ||
		return 1
	cp "$T_OUT" "$T_DIR/$name.dot"
	dot -Tsvg "$T_DIR/$name.dot" >"$T_DIR/$name.svg" 2>"$T_DIR/dot.err" && [ ! -s "$T_DIR/dot.err" ] &&
		xmllint --noout "$T_DIR/$name.svg" || { check_fail "$name: the drawing does not render"; return 1; }
	n=$(grep -c '<g id="node[0-9]*" class="node">' "$T_DIR/$name.svg")
	[ "$n" -eq "$want" ] || check_fail "$name: $n nodes in the drawing, want $want"
}
# hangs NAME HB K: slot sK hangs from host bridge HB's box, and a drive's
# move arrow ends there
hangs() {
	local hb
	hb=$(sed -n "s/^  \(i[0-9]*\) \[.*label=\"host bridge\\\\n$2\".*/\1/p" "$T_DIR/$1.dot")
	grep -q "^  $hb -> s$3 \[style=dashed\];$" "$T_DIR/$1.dot" ||
		check_fail "$1: slot s$3 does not hang from host bridge $2 (${hb:-no box})"
	grep -Eq "^  d[0-9]+ -> s$3 \[.*label=\"move $(($3 + 1)): [0-9]+ IOPS\"\];$" "$T_DIR/$1.dot" ||
		check_fail "$1: no move arrow into slot s$3"
}
if slots assumed 18; then
	count assumed '\n(assumed)", style="rounded,dashed"]' 3 "assumed slots"
	count assumed 'label="free slot under 0000:' 3 "slots"
	hangs assumed 0000:00 0
	hangs assumed 0000:40 1
	hangs assumed 0000:80 2
	grep -q 'a free slot no bus id names (--free-slots, or assumed)' "$T_DIR/assumed.dot" ||
		check_fail "assumed: the legend does not say what a slot's box is"
fi
if slots given 16 --free-slots 0000:80=1; then
	count given 'label="free slot under 0000:80", style="rounded,dashed"]' 1 "given slots"
	count given '(assumed)' 0 "assumed slots"
	hangs given 0000:80 0
fi
expect_error "plan --dot --json -" 2 'both want stdout' plan --dot --json - \
	--topology $fx/topo-2node-free.xml --drive-iops 1m
t_done
