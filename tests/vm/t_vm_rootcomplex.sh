# Root complexes on one NUMA node (7.2 guest,
# one-node-2hb.layout): every drive behind host bridge hb0 (0000:20) while
# hb1 (0000:40) has two empty slots, as on an AMD EPYC in NPS1. `iostorm
# topo` gives the root-complex finding naming both bridges; `iostorm plan`
# on the live machine, with a root complex's bandwidth given (the sum of
# its root ports never binds), finds the bridge binding and moves a drive
# to a free root port of hb1, the ceiling rising.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib.sh"
vm_need

# Each emulated drive trains at 2.5 GT/s x1 (55212 IOPS of 4 KiB); 150
# MB/s a bridge is 36621 IOPS, below one drive's link: hb0 binds with 3
# drives, one move to hb1 doubles the ceiling, a second adds nothing.
vm_boot 7.2 one-node-2hb <<'GUEST' || t_done
step topo iostorm topo --json -
step plan iostorm plan --drive-iops 1m --host-bridge-bw 150m --json -
keep ndrives vm_ndrives
step check iostorm check --json -
GUEST
vm_check check "check on one-node-2hb"
if vm_expect_ok topo "topo on one-node-2hb"; then
	vm_jq topo "one node, two host bridges: the root-complex finding" '
		(.devices | length == 3)
		and ([.findings[] | select(.kind == "root_complex") | .text]
		     | length == 1 and (.[0] | test("0000:20") and test("0000:40")))'
fi
if vm_expect_ok plan "plan on one-node-2hb"; then
	vm_jq plan "plan: hb0 binds, a drive moves to hb1, the ceiling rises" '
		.ceiling.binding == "0000:20" and .ceiling.binding_kind == "host_bridge"
		and (.moves | length) == 1
		and .moves[0].from.host_bridge == "0000:20"
		and .moves[0].to.host_bridge == "0000:40"
		and .moves[0].ceiling_after > .ceiling.predicted_iops * 1.9'
fi
t_done
