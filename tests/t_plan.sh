#!/bin/bash
# iostorm plan: bad input (one line; exit 2 usage, 1 runtime), our fixtures
# (one node with two host bridges: moves to the free one, the ceiling rising
# each time; a host bridge of unknown node: never a target; no free slot
# listed at all: what-if moves onto the other host bridges, marked), --from
# a saturate report, the JSON shape, and every recorded export in
# ../shared/topologies when it is there.
. "$(dirname "$0")/lib.sh"
need_iostorm
need_cmd jq

fx=tests/fixtures
two=$fx/topo-1node-2hb.xml
unk=$fx/topo-unknown-hb.xml
bad() { expect_error "$@"; }

# ---- bad input ----
bad "no rates" 2 "--drive-iops.*--from" plan --topology "$two"
bad "drive-iops 0" 2 "--drive-iops" plan --topology "$two" --drive-iops 0
bad "drive-iops garbage" 2 "--drive-iops" plan --topology "$two" --drive-iops lots
bad "memory-bw garbage" 2 "--memory-bw" plan --topology "$two" --drive-iops 1m --memory-bw 1x
bad "bs not a power of two" 2 "--bs.*power of two" plan --topology "$two" --drive-iops 1m --bs 3000
bad "a target" 2 "no targets" plan --topology "$two" --drive-iops 1m nvme0n1
bad "missing xml" 1 "nonexistent.xml" plan --topology /nonexistent.xml --drive-iops 1m
echo 'not xml' >"$T_DIR/bad.xml"
bad "bad xml" 2 "bad.xml.*lstopo" plan --topology "$T_DIR/bad.xml" --drive-iops 1m
bad "missing report" 1 "nope.json" plan --topology "$two" --from "$T_DIR/nope.json"
echo '{' >"$T_DIR/broken.json"
bad "report not JSON" 2 "broken.json.*not JSON" plan --topology "$two" --from "$T_DIR/broken.json"
echo '{"command": "run", "devices": []}' >"$T_DIR/run.json"
bad "report of run" 2 "run.json.*not a saturate report" plan --topology "$two" --from "$T_DIR/run.json"
# the report is printed before the JSON file fails, as with topo
run_iostorm plan --topology "$two" --drive-iops 1m --json /nonexistent/dir/r.json
[ "$T_RC" -eq 1 ] && [ "$(wc -l <"$T_ERR")" -eq 1 ] && grep -q 'r.json' "$T_ERR" ||
	check_fail "json dir: exit $T_RC, $(cat "$T_ERR")"

# ---- one node, two host bridges: drives behind a switch under 0000:00 ----
if expect_ok "two host bridges" plan --topology "$two" --drive-iops 1m --json "$T_DIR/two.json"; then
	grep -Eq '^  switch +0000:01:00.0 .*binds' "$T_OUT" || check_fail "the switch does not bind"
	grep -q 'to free root port 0000:40:01.1 (host bridge 0000:40, node 0)' "$T_OUT" ||
		check_fail "no move to 0000:40"
	grep -q 'unknown: the memory bandwidth of 1 node' "$T_OUT" ||
		check_fail "unknown memory bandwidth not said"
	grep -q 'what if\|if it has a free slot\|nor would a move' "$T_OUT" &&
		check_fail "what-if moves beside free root ports: $(cat "$T_OUT")"
	jq -e '
		.schema == "iostorm/1" and .command == "plan" and .config.drive_iops == 1000000
		and .ceiling.binding == "0000:01:00.0" and .ceiling.binding_kind == "switch"
		and (.ceiling.predicted_iops | . > 1.7e6 and . < 1.75e6)
		and all(.ceiling.resources[]; (.kind | IN("drive", "link", "switch",
			"host_bridge", "memory", "cpu")) and (.name | type == "string")
			and (.demand_iops | type == "number"))
		and ([.ceiling.resources[] | select(.kind == "memory")][0].capacity_iops == null)
		and (.moves | length == 2)
		and all(.moves[]; .to.host_bridge == "0000:40" and .from.host_bridge == "0000:00"
			and .from.port == "0000:00:01.1" and (.to.port | type == "string")
			and .needs_free_slot == false)
		and .moves[0].ceiling_after > .ceiling.predicted_iops
		and .moves[1].ceiling_after > .moves[0].ceiling_after
	' "$T_DIR/two.json" >/dev/null || check_fail "two host bridges: JSON: $(cat "$T_DIR/two.json")"
fi
expect_ok "topo on two host bridges" topo --topology "$two"
grep -q 'node 0 has 2 host bridges.*0000:40 has 2 free root ports.*NPS2 or NPS4' "$T_OUT" ||
	check_fail "no root-complex finding: $(cat "$T_OUT")"
# memory that binds: no move across host bridges of one node helps
if expect_ok "memory binds" plan --topology "$two" --drive-iops 1m --memory-bw 4g --json -; then
	jq -e '.ceiling.binding_kind == "memory" and (.moves | length == 0)' "$T_OUT" >/dev/null ||
		check_fail "memory-bound plan: $(cat "$T_OUT")"
fi

# ---- every drive on node 0, free root ports on node 1 (the MI300A's
# layout, with the empty slots its export lacks) ----
free2=$fx/topo-2node-free.xml
if expect_ok "other node" plan --topology "$free2" --drive-iops 1m --memory-bw 6g --json -; then
	jq -e '
		.ceiling.binding == "node 0" and .ceiling.binding_kind == "memory"
		and (.moves | length == 2)
		and all(.moves[]; .to.host_bridge == "0000:80" and .to.node == 1
			and .needs_free_slot == false)
		and .moves[0].ceiling_after > .ceiling.predicted_iops
		and .moves[1].ceiling_after > .moves[0].ceiling_after
	' "$T_OUT" >/dev/null || check_fail "moves to the other node: $(cat "$T_OUT")"
fi

# ---- no free slot listed (a default lstopo export): four drives behind a
# switch under node 0's 0000:00, a NIC under node 0's 0000:40, one under
# node 1's 0000:80 and one under 0000:c0 of no node. What moving one drive
# the binding resource holds back onto each other bridge would give, if it
# has a free slot: its own 7.88 GB/s link (1739603) takes its 1M ----
noslot=$fx/topo-2node-noslot.xml
mark='if it has a free slot (this export lists no empty slot: take it with lstopo --filter bridge:all)'
if expect_ok "no slot" plan --topology "$noslot" --drive-iops 1m --json "$T_DIR/noslot.json"; then
	grep -q '^  none: the topology has no free root port' "$T_OUT" ||
		check_fail "no slot: the missing free ports not said: $(cat "$T_OUT")"
	for hb in '0000:40 (node 0)' '0000:80 (node 1)'; do
		grep -qF "to host bridge $hb, $mark: ceiling 2739603 IOPS (+1000000)" "$T_OUT" ||
			check_fail "no slot: no marked what-if to $hb with its ceiling: $(cat "$T_OUT")"
	done
	sed -n '/^moves/,$p' "$T_OUT" | grep -q '0000:c0' &&
		check_fail "no slot: a what-if onto the bridge of no node: $(cat "$T_OUT")"
	jq -e '
		.ceiling.binding == "0000:01:00.0" and (.ceiling.predicted_iops | floor) == 1739603
		and (.moves | map(.to.host_bridge)) == ["0000:40", "0000:80"]
		and all(.moves[]; .needs_free_slot == true and .to.port == null
			and .device == "nvme0n1" and .from.host_bridge == "0000:00"
			and .from.port == "0000:00:01.1" and (.ceiling_after | floor) == 2739603)
		and (.moves | map(.to.node)) == [0, 1]
	' "$T_DIR/noslot.json" >/dev/null ||
		check_fail "no slot: JSON: $(jq -c .moves "$T_DIR/noslot.json")"
fi
# node 0's memory binds (6 GB/s: 1464844): only node 1's bridge helps
if expect_ok "no slot, memory" plan --topology "$noslot" --drive-iops 1m --memory-bw 6g --json -; then
	jq -e '.ceiling.binding == "node 0" and (.moves | length) == 1
		and .moves[0].to.host_bridge == "0000:80" and .moves[0].needs_free_slot
		and (.moves[0].ceiling_after | floor) == 2464843' "$T_OUT" >/dev/null ||
		check_fail "no slot, memory: $(jq -c .moves "$T_OUT")"
fi

# ---- a host bridge of unknown node: nothing rests on it ----
if expect_ok "unknown node" plan --topology "$unk" --drive-iops 1m --json "$T_DIR/unk.json"; then
	grep -q '2 free root ports under host bridges of unknown node' "$T_OUT" ||
		check_fail "free ports of unknown locality not said"
	jq -e '.moves == [] and .unknown.free_ports_unknown_node == 2' "$T_DIR/unk.json" \
		>/dev/null || check_fail "a move onto a bridge of unknown node: $(cat "$T_DIR/unk.json")"
fi
expect_ok "topo on unknown node" topo --topology "$unk"
grep -q 'host bridge 0000:00 has no NUMA node.*nvme0n1' "$T_OUT" ||
	check_fail "unknown locality not reported: $(cat "$T_OUT")"
grep -q 'host bridges of unknown node: 0000:00' "$T_OUT" || check_fail "topo hides the unknown bridge"
grep '^  - \|^    host bridges' "$T_OUT" | grep -v 'has no NUMA node' | grep -q '0000:00' &&
	check_fail "advice names 0000:00: $(cat "$T_OUT")"
if expect_ok "topo JSON on unknown node" topo --topology "$unk" --json -; then
	jq -e '(.host_bridges | map({name, node}))
		== [{"name": "0000:00", "node": null}, {"name": "0000:40", "node": 0},
		    {"name": "0000:80", "node": 1}]
		and (.host_bridges[0].ports | map(.free)) == [false, true, true]
		and .host_bridges[0].ports[0].functions == ["0000:01:00.0"]
		and any(.findings[]; .kind == "unknown_locality")' "$T_OUT" >/dev/null ||
		check_fail "topo JSON host_bridges: $(cat "$T_OUT")"
fi

# ---- --from a saturate report ----
cat >"$T_DIR/sat.json" <<'EOF'
{"schema": "iostorm/1", "command": "saturate", "config": {"bs": 4096, "jobs_per_device": 1},
 "devices": [
  {"name": "nvme0n1", "numa_nodes": [0], "failed": null,
   "qdn": {"solo": {"iops": 300000, "ios": 900000, "errors": 0, "elapsed_s": 3, "cpu_pct": 50}}},
  {"name": "nvme1n1", "numa_nodes": [0], "failed": null,
   "qdn": {"solo": {"iops": 500000, "ios": 1500000, "errors": 0, "elapsed_s": 3, "cpu_pct": 100}}}
 ]}
EOF
if expect_ok "from" plan --topology "$two" --from "$T_DIR/sat.json" --json -; then
	# 2.4M IOs in 4.5 CPU-seconds on 4 cores
	jq -e '
		(.ceiling.resources | map(select(.kind == "drive")) | map(.demand_iops)) == [300000, 500000]
		and ([.ceiling.resources[] | select(.kind == "cpu")][0].capacity_iops
			| . > 4 * 533333 and . < 4 * 533334)
		and .config.from != null and .config.bs == 4096
	' "$T_OUT" >/dev/null || check_fail "--from: $(cat "$T_OUT")"
	grep -q 'left out: 2 drives without a rate (nvme2n1, nvme3n1)' "$T_ERR" ||
		check_fail "drives left out not named: $(cat "$T_ERR")"
fi
expect_ok "from and drive-iops" plan --topology "$two" --from "$T_DIR/sat.json" --drive-iops 1m
grep -q '4 drives' "$T_OUT" || check_fail "--drive-iops does not fill in the drives not measured"
sed 's/nvme0n1/sdz/; s/nvme1n1/sdy/' "$T_DIR/sat.json" >"$T_DIR/other.json"
bad "report of other drives" 2 "other.json.*none of its devices" plan --topology "$two" --from "$T_DIR/other.json"

# ---- this machine ----
run_iostorm plan --drive-iops 1m
if [ "$T_RC" -ne 0 ] && ! { [ "$T_RC" -eq 1 ] && grep -q 'no NVMe drive on this machine' "$T_ERR"; }; then
	check_fail "plan on this machine exited $T_RC"
	show_output
fi

# ---- the recorded exports ----
shared=../shared/topologies
if [ -d "$shared" ]; then
	for f in "$shared"/*.xml; do
		expect_ok "$(basename "$f")" plan --topology "$f" --drive-iops 1m --json "$T_DIR/s.json" ||
			continue
		jq -e '.command == "plan" and (.ceiling.resources | length > 0)
			and (.ceiling.predicted_iops > 0)' "$T_DIR/s.json" >/dev/null ||
			check_fail "$(basename "$f"): JSON: $(cat "$T_DIR/s.json")"
	done
	# MI300A: 16 controllers behind one switch under 0001:80 on node 1.
	# The export kept no empty bridge (its lstopo dropped them), so there
	# is no free root port to move to: plan says so, then what moving a
	# drive off the switch onto each of the five other host bridges (NICs
	# and GPUs under them) would give if it has a free slot, marked
	mi=$shared/4socket-mi300a-4numa-16nvme-32ns.xml
	if expect_ok "mi300a" plan --topology "$mi" --drive-iops 1m --json "$T_DIR/mi.json"; then
		jq -e '. as $r
			| ([.ceiling.resources[] | select(.kind == "drive")] | length == 16)
			and .ceiling.binding == "0001:81:00.0" and .ceiling.binding_kind == "switch"
			and ([.ceiling.resources[] | select(.kind == "memory")] | map(.name) == ["node 1"])
			and (.moves | map(.to.host_bridge))
				== ["0000:00", "0000:80", "0001:00", "0002:00", "0003:00"]
			and all(.moves[]; .needs_free_slot == true and .to.port == null
				and .from.host_bridge == "0001:80"
				and .ceiling_after > $r.ceiling.predicted_iops + 1e5)
		' "$T_DIR/mi.json" >/dev/null ||
			check_fail "mi300a: $(jq -c .moves "$T_DIR/mi.json")"
		grep -q '^  none: the topology has no free root port' "$T_OUT" ||
			check_fail "mi300a: no word on the missing free ports"
		grep -F "$mark: ceiling " "$T_OUT" | grep -Eq \
			'^  [0-9]+\. move nvme[0-9]+n1 from host bridge 0001:80, .*: ceiling [0-9]+ IOPS \(\+[0-9]+\)$' ||
			check_fail "mi300a: no what-if move marked as needing a free slot: $(sed -n '/^moves/,$p' "$T_OUT")"
	fi
else
	echo "note: $shared absent, recorded exports not checked"
fi

# --host-bridge-bw: a root complex's capacity, given, binds (the sum of its
# root ports never does); the move to the other node's host bridge then
# doubles the ceiling: 2 GB/s over 4096-byte reads is 488281 IOPS a bridge
fx=$IOSTORM_SRC/tests/fixtures/topo-2node-free.xml
if expect_ok "host-bridge-bw" plan --topology "$fx" --drive-iops 1m --host-bridge-bw 2g \
	--json "$T_DIR/hb.json"; then
	jq -e '.config.host_bridge_bw_bytes_s == 2000000000
		and .ceiling.binding_kind == "host_bridge" and .ceiling.binding == "0000:00"
		and (.ceiling.predicted_iops | floor) == 488281
		and (.moves | length) == 1 and .moves[0].to.host_bridge == "0000:80"
		and (.moves[0].ceiling_after | floor) == 976562' "$T_DIR/hb.json" >/dev/null ||
		check_fail "host-bridge-bw: $(jq -c '{ceiling: .ceiling | del(.resources), moves}' "$T_DIR/hb.json")"
fi
expect_error "host-bridge-bw 0" 2 "host-bridge-bw" plan --topology "$fx" --drive-iops 1m --host-bridge-bw 0

t_done
