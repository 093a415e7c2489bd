# iostorm topo on a live PCIe tree with several host bridges and two NUMA
# nodes (7.2 guest): each drive's node, host bridge, local CPUs and its
# port's maximum link match the layout; with every drive behind node 1, the
# imbalance finding names node 0's empty host bridges; a namespace shared by
# controllers on both nodes (native multipath) is listed once, as its head,
# with both paths and the node of each path's controller.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib.sh"
vm_need

# two-node.layout: hb0 (bus 0x20) on node 0 holds nva and nvb (port 8 GT/s
# x4); hb1 (bus 0x40) on node 1 holds nvc (port 16 GT/s x8) and nvd.
# QEMU's root ports default to 16 GT/s x32.
vm_boot 7.2 two-node <<'GUEST' || t_done
step topo iostorm topo --json -
step text iostorm topo
GUEST
if vm_expect_ok topo "topo on two-node"; then
	vm_jq topo "two-node: nodes, bridges, CPUs, port links" '
		def dev(s): first(.devices[] | select(.serial == s));
		def is(s; node; hb; cpus; gts; w):
			dev(s) | .numa_nodes == [node] and .host_bridge == hb and .local_cpus == cpus
				and .port_link.max_speed_gts == gts and .port_link.max_width == w
				and .model == "QEMU NVMe Ctrl";
		(.devices | length == 4)
		and is("nva"; 0; "0000:20"; "0"; 16; 32)
		and is("nvb"; 0; "0000:20"; "0"; 8; 4)
		and is("nvc"; 1; "0000:40"; "1"; 16; 8)
		and is("nvd"; 1; "0000:40"; "1"; 16; 32)
		and ([.nodes[] | .devices | length] == [2, 2])
		and all(.findings[]; .kind != "imbalance")'
	vm_expect_ok text "topo text on two-node" &&
		[ "$(grep -cE '^  nvme[0-9]+n1 ' "$VM_OUT/text.out")" -eq 4 ] ||
		check_fail "topo text: want one row per drive"
fi

# all-on-node1.layout: node 0 has hb0 (0x20) and hb1 (0x40), both empty;
# node 1 has hb2 (0x60) and hb3 (0x80) with every drive.
vm_boot 7.2 all-on-node1 <<'GUEST' || t_done
step topo iostorm topo --json -
step text iostorm topo
keep ndrives vm_ndrives
step check iostorm check --json -
GUEST
vm_check check "check on all-on-node1" 'all(.setup.devices[]; .numa_node == 1)'
if vm_expect_ok topo "topo on all-on-node1"; then
	vm_jq topo "all-on-node1: every drive on node 1" '
		(.devices | length == 3) and all(.devices[]; .numa_nodes == [1])'
	vm_jq topo "all-on-node1: the imbalance finding names node 0's host bridges" '
		[.findings[] | select(.kind == "imbalance") | .text]
		| length == 1 and (.[0] | test("node 0") and test("0000:20") and test("0000:40"))'
	grep -q "0000:20" "$VM_OUT/text.out" || check_fail "topo text: the finding does not name node 0's bridges"
fi
# multipath.layout: namespace nvm shared by a controller behind hb0 (node
# 0) and one behind hb1 (node 1), and a drive nva behind hb0. QEMU 10 puts
# every controller in a subsystem (docs/testing.md), so on a layout with
# native multipath nva is a head too, over its one path.
vm_boot 7.2 multipath <<'GUEST' || t_done
step topo iostorm topo --json -
step text iostorm topo
keep head basename $(dev nvm)
keep paths ls /sys/block/$(basename $(dev nvm))/multipath
keep ndrives vm_ndrives
step check iostorm check --json -
# nvm's last path on mq-deadline: its head's queue still says none. The
# paths are nvmeXcYnZ for head nvmeXnZ (a multipath/ folder lists them
# from 6.14 only)
h=$(basename "$(dev nvm)")
p=$(ls /sys/block | grep -E "^${h%n*}c[0-9]+n${h##*n}\$" | tail -n 1)
keep mpath echo "$p"
keep iopolicy cat "/sys/block/$h/device/iopolicy"
echo mq-deadline >"/sys/block/$p/queue/scheduler"
keep sched cat "/sys/block/$p/queue/scheduler"
step mpath iostorm check --json - $(dev nvm)
GUEST
# a multipath namespace is checked once, as its head
vm_check check "check on multipath" '[.setup.devices[].name] | index($h) != null' \
	--arg h "$(cat "$VM_OUT/head")"
if vm_expect_ok topo "topo on multipath"; then
	head=$(cat "$VM_OUT/head")
	vm_jq topo "multipath: the head once, with both paths and their nodes" '
		(.devices | length == 2)
		and ([.devices[] | select(.name == $h)] | length == 1)
		and ([.devices[] | select(.name | test("c[0-9]+n"))] | length == 0)
		and (first(.devices[] | select(.name == $h))
			| .numa_nodes == [0, 1] and (.paths | length == 2)
			and ([.paths[].name] | sort) == $p
			and ([.paths[] | {hb: .host_bridge, n: .numa_nodes}] | sort_by(.hb))
				== [{hb: "0000:20", n: [0]}, {hb: "0000:40", n: [1]}]
			and all(.paths[]; .controller | test("^nvme[0-9]+$")))
		and (first(.devices[] | select(.serial == "nva")) | .numa_nodes == [0]
			and (.paths | length == 1) and .paths[0].host_bridge == "0000:20")
		and all(.findings[]; .kind != "imbalance")' \
		--arg h "$head" --argjson p "$(jq -R . "$VM_OUT/paths" | jq -sc 'sort')"
	[ "$(grep -c '^    path nvme' "$VM_OUT/text.out")" -eq 3 ] ||
		{ check_fail "topo text: want two path lines under nvm's head and one under nva's"; vm_show text; }
fi
# the multipath head: the path that runs mq-deadline is named, with the
# subsystem's iopolicy, and the fix writes that path's queue
p=$(cat "$VM_OUT/mpath") pol=$(cat "$VM_OUT/iopolicy") h=$(cat "$VM_OUT/head")
grep -q '\[mq-deadline\]' "$VM_OUT/sched" ||
	check_fail "multipath: $p's scheduler is not mq-deadline: $(cat "$VM_OUT/sched")"
[ "$(vm_rc mpath)" = 3 ] || { check_fail "check on the multipath head: exit $(vm_rc mpath), want 3"; vm_show mpath; }
vm_jq mpath "check on the multipath head, $p on mq-deadline" '
	def on(k): [.findings[] | select(.kind == k)];
	(.setup.devices | length == 1) and on("scheduler") == []
	and (on("path_scheduler") | length == 1 and .[0].device == $h
		and .[0].now == "mq-deadline (path \($p), iopolicy \($pol))"
		and .[0].fix == "echo none > /sys/block/\($p)/queue/scheduler")' \
	--arg p "$p" --arg pol "$pol" --arg h "$h"
t_done
