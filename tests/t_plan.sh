#!/bin/bash
# iostorm plan: bad input (one line; exit 2 usage, 1 runtime), our fixtures
# (one node with two host bridges: moves to the free one, the ceiling rising
# each time; a host bridge of unknown node: never a target; no free slot
# listed at all: one assumed per host bridge with devices, said once and
# each move marked; 16 drives behind one switch; a Threadripper's four root
# complexes; --free-slots), the plan as a sequence whose ceilings rise,
# --from a saturate report, the JSON shape, and every recorded export in
# ../shared/topologies when it is there.
. "$(dirname "$0")/lib.sh"
need_iostorm
need_cmd jq

fx=tests/fixtures
two=$fx/topo-1node-2hb.xml
unk=$fx/topo-unknown-hb.xml
bad() { expect_error "$@"; }

# rising FILE: the moves' ceilings rise strictly, each by 1% or more, from
# the ceiling before any move, and the plan's end is the last one's
rising() {
	jq -e '.ceiling.predicted_iops as $p
		| ([$p] + [.moves[].ceiling_after]) as $c
		| all(range(1; $c | length); $c[.] >= $c[. - 1] * 1.01)
		and (if (.moves | length) > 0 then .after_moves.predicted_iops == $c[-1]
			else .after_moves.predicted_iops == $p end)' "$1" >/dev/null
}

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
bad "free-slots, no count" 2 "--free-slots.*0000:40.*=N" plan --topology "$two" --drive-iops 1m --free-slots 0000:40
bad "free-slots, a port" 2 "--free-slots.*0000:40:01.1.*not a host bridge" plan --topology "$two" \
	--drive-iops 1m --free-slots 0000:40:01.1=1
bad "free-slots, bad count" 2 "--free-slots.*'x' is not a number" plan --topology "$two" \
	--drive-iops 1m --free-slots 0000:40=x
bad "free-slots, too many" 2 "--free-slots.*above 64" plan --topology "$two" --drive-iops 1m \
	--free-slots 0000:40=65
bad "free-slots, twice" 2 "--free-slots: host bridge 0000:40 is named twice" plan --topology "$two" \
	--drive-iops 1m --free-slots 0000:40=1,0000:40=2
bad "free-slots, empty entry" 2 "--free-slots.*empty" plan --topology "$two" --drive-iops 1m \
	--free-slots 0000:40=1,
bad "free-slots, no such bridge" 2 "--free-slots:.*has no host bridge 0000:41 \(its host bridges: 0000:00, 0000:40\)" \
	plan --topology "$two" --drive-iops 1m --free-slots 0000:40=1,0000:41=1
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
	grep -q 'assumed' "$T_OUT" && check_fail "slots assumed beside free root ports: $(cat "$T_OUT")"
	grep -q '^  free slots: the topology.s 2 free root ports (per host bridge: 0000:40 2)$' "$T_OUT" ||
		check_fail "where the slots come from not said: $(cat "$T_OUT")"
	grep -q '^  then no free slot is left$' "$T_OUT" || check_fail "the end of the plan not said"
	rising "$T_DIR/two.json" || check_fail "two host bridges: ceilings do not rise"
	jq -e '
		.schema == "iostorm/1" and .command == "plan" and .config.drive_iops == 1000000
		and .config.free_slots == null
		and .free_slots == {"source": "topology", "count": 2, "host_bridges": ["0000:40"]}
		and .after_moves.stop == "no_free_slot" and .after_moves.binding == "0000:01:00.0"
		and .ceiling.binding == "0000:01:00.0" and .ceiling.binding_kind == "switch"
		and (.ceiling.predicted_iops | . > 1.7e6 and . < 1.75e6)
		and all(.ceiling.resources[]; (.kind | IN("drive", "link", "switch",
			"host_bridge", "memory", "cpu")) and (.name | type == "string")
			and (.demand_iops | type == "number"))
		and ([.ceiling.resources[] | select(.kind == "memory")][0].capacity_iops == null)
		and (.moves | length == 2)
		and all(.moves[]; .to.host_bridge == "0000:40" and .from.host_bridge == "0000:00"
			and .from.port == "0000:00:01.1" and (.to.port | type == "string")
			and .assumed == false)
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
			and .assumed == false)
		and .moves[0].ceiling_after > .ceiling.predicted_iops
		and .moves[1].ceiling_after > .moves[0].ceiling_after
	' "$T_OUT" >/dev/null || check_fail "moves to the other node: $(cat "$T_OUT")"
fi

# ---- no free slot listed (a default lstopo export): four drives behind a
# switch under node 0's 0000:00, a NIC under node 0's 0000:40, one under
# node 1's 0000:80 and one under 0000:c0 of no node. One slot assumed under
# each bridge with devices but 0000:c0, said once, each move marked; each
# drive moved runs at its own 7.88 GB/s link (1739603), above its 1M: the
# switch's 1739603 shared by 3, then 2 drives (+1M each), then the last
# gets its 1M (+260397) and every drive has its demand ----
noslot=$fx/topo-2node-noslot.xml
if expect_ok "no slot" plan --topology "$noslot" --drive-iops 1m --json "$T_DIR/noslot.json"; then
	[ "$(grep -c 'assumed: one under each host bridge with devices (0000:00, 0000:40, 0000:80)' "$T_OUT")" -eq 1 ] ||
		check_fail "no slot: the assumption not said once: $(cat "$T_OUT")"
	grep -q '^  free slots: none known (the export lists no empty root port' "$T_OUT" ||
		check_fail "no slot: the missing free ports not said: $(cat "$T_OUT")"
	[ "$(grep -Ec '^  [0-9]+\. move .*, assumed\): ceiling [0-9]+ IOPS \(\+[0-9]+\)$' "$T_OUT")" -eq 3 ] ||
		check_fail "no slot: not every move marked assumed: $(cat "$T_OUT")"
	grep -q 'if it has a free slot\|what if' "$T_OUT" && check_fail "no slot: a what-if menu: $(cat "$T_OUT")"
	grep -q '^  then every drive gets its demand$' "$T_OUT" || check_fail "no slot: the end not said"
	sed -n '/^moves/,$p' "$T_OUT" | grep -q '0000:c0' &&
		check_fail "no slot: a slot assumed under the bridge of no node: $(cat "$T_OUT")"
	rising "$T_DIR/noslot.json" || check_fail "no slot: ceilings do not rise"
	jq -e '
		.ceiling.binding == "0000:01:00.0" and (.ceiling.predicted_iops | floor) == 1739603
		and .free_slots == {"source": "assumed", "count": 3,
			"host_bridges": ["0000:00", "0000:40", "0000:80"]}
		and (.moves | map(.device)) == ["nvme0n1", "nvme1n1", "nvme2n1"]
		and (.moves | map(.to.host_bridge)) == ["0000:00", "0000:40", "0000:80"]
		and (.moves | map(.to.node)) == [0, 0, 1]
		and (.moves | map(.ceiling_after | floor)) == [2739603, 3739603, 4000000]
		and all(.moves[]; .assumed == true and .to.port == null
			and .from.host_bridge == "0000:00" and .from.port == "0000:00:01.1")
		and .after_moves == {"predicted_iops": 4000000, "binding": null, "binding_kind": null,
			"binding_text": .after_moves.binding_text, "stop": "demand_met"}
	' "$T_DIR/noslot.json" >/dev/null ||
		check_fail "no slot: JSON: $(jq -c '{free_slots, moves, after_moves}' "$T_DIR/noslot.json")"
fi
# node 0's memory binds (6 GB/s: 1464844): only node 1's bridge helps, and
# after that move no other does (node 0's two slots sit under that memory)
if expect_ok "no slot, memory" plan --topology "$noslot" --drive-iops 1m --memory-bw 6g --json -; then
	jq -e '.ceiling.binding == "node 0" and (.moves | length) == 1
		and .moves[0].to.host_bridge == "0000:80" and .moves[0].assumed
		and (.moves[0].ceiling_after | floor) == 2464843
		and .after_moves.stop == "no_gain" and .after_moves.binding == "node 0"' "$T_OUT" \
		>/dev/null || check_fail "no slot, memory: $(jq -c '{moves, after_moves}' "$T_OUT")"
	grep -q '^  then no further move raises the ceiling by 1% or more$' "$T_ERR" ||
		check_fail "no slot, memory: the end not said: $(cat "$T_ERR")"
fi
# the slots given: those, not assumed ones; 0 anywhere is no slot at all
if expect_ok "no slot, given" plan --topology "$noslot" --drive-iops 1m --free-slots 0000:80=1 --json -; then
	jq -e '.config.free_slots == "0000:80=1"
		and .free_slots == {"source": "given", "count": 1, "host_bridges": ["0000:80"]}
		and (.moves | length) == 1 and .moves[0].assumed == false
		and .moves[0].to == {"host_bridge": "0000:80", "port": null, "node": 1}
		and .after_moves.stop == "no_free_slot"' "$T_OUT" >/dev/null ||
		check_fail "no slot, given: $(jq -c '{free_slots, moves, after_moves}' "$T_OUT")"
	grep -q 'assumed' "$T_ERR" && check_fail "no slot, given: slots still assumed: $(cat "$T_ERR")"
fi
if expect_ok "no slot, none" plan --topology "$noslot" --drive-iops 1m --free-slots 0000:80=0 --json -; then
	jq -e '.moves == [] and .free_slots.count == 0 and .after_moves.stop == "no_free_slot"' \
		"$T_OUT" >/dev/null || check_fail "no slot, none: $(jq -c '{free_slots, moves, after_moves}' "$T_OUT")"
	grep -q '^  none: no free slot$' "$T_ERR" || check_fail "no slot, none: not said: $(cat "$T_ERR")"
fi

# ---- 16 drives behind one switch (Gen4 x4 up: 1739603) under node 0's
# 0000:00; a NIC under node 0's 0000:40 and node 1's 0000:80. Assumed: a
# slot under each of the three, three drives out of the switch, +1M each;
# given 20 under 0000:80: fifteen moves, then every drive its 1M ----
six=$fx/plan-16-switch.xml
if expect_ok "16 behind a switch" plan --topology "$six" --drive-iops 1m --json "$T_DIR/six.json"; then
	rising "$T_DIR/six.json" || check_fail "16 behind a switch: ceilings do not rise"
	jq -e '(.moves | map(.ceiling_after | floor)) == [2739603, 3739603, 4739603]
		and (.moves | map(.device)) == ["nvme0n1", "nvme1n1", "nvme2n1"]
		and all(.moves[]; .assumed and .from.port == "0000:00:01.1")
		and .after_moves.stop == "no_free_slot" and .after_moves.binding == "0000:01:00.0"' \
		"$T_DIR/six.json" >/dev/null || check_fail "16 behind a switch: $(jq -c .moves "$T_DIR/six.json")"
	grep -q 'binding: the upstream link of switch 0000:01:00.0, shared by 13 drives' "$T_OUT" ||
		check_fail "16 behind a switch: the binding after the moves not said: $(cat "$T_OUT")"
fi
if expect_ok "16 behind a switch, 20 slots" plan --topology "$six" --drive-iops 1m \
	--free-slots 0000:80=20 --json "$T_DIR/six20.json"; then
	rising "$T_DIR/six20.json" || check_fail "16 behind a switch, 20 slots: ceilings do not rise"
	jq -e '(.moves | length) == 15 and (.moves | map(.device) | unique | length) == 15
		and (.moves[13].ceiling_after | floor) == 15739603 and .moves[14].ceiling_after == 16000000
		and all(.moves[]; .to.host_bridge == "0000:80" and .assumed == false)
		and .after_moves.stop == "demand_met"' "$T_DIR/six20.json" >/dev/null ||
		check_fail "16 behind a switch, 20 slots: $(jq -c '[.moves[].ceiling_after], .after_moves' "$T_DIR/six20.json")"
fi

# ---- the seed's Threadripper: eight drives of 1.4M, each on a Gen4 x4
# root port of 0000:00, whose root complex moves 28 GB/s (6835937); the
# export kept bridges, so the other three root complexes show a free root
# port each: 6.8M, then three moves to 11.0M ----
rc4=$fx/plan-4rc.xml
if expect_ok "threadripper" plan --topology "$rc4" --drive-iops 1400k --host-bridge-bw 28g \
	--json "$T_DIR/rc4.json"; then
	rising "$T_DIR/rc4.json" || check_fail "threadripper: ceilings do not rise"
	jq -e '(.ceiling.predicted_iops | floor) == 6835937 and .ceiling.binding == "0000:00"
		and (.moves | map(.ceiling_after | floor)) == [8235937, 9635937, 11035937]
		and (.moves | map(.to.port)) == ["0000:20:03.1", "0000:40:03.1", "0000:60:03.1"]
		and (.moves | map(.from.port)) == ["0000:00:01.1", "0000:00:02.1", "0000:00:03.1"]
		and all(.moves[]; .assumed == false)
		and .free_slots.source == "topology" and .after_moves.stop == "no_free_slot"' \
		"$T_DIR/rc4.json" >/dev/null || check_fail "threadripper: $(jq -c .moves "$T_DIR/rc4.json")"
fi
# given: the listed port of 0000:40 first, then one nothing names
if expect_ok "threadripper, given" plan --topology "$rc4" --drive-iops 1400k --host-bridge-bw 28g \
	--free-slots 0000:40=2 --json -; then
	jq -e '(.moves | map(.to.port)) == ["0000:40:03.1", null]
		and (.moves | map(.ceiling_after | floor)) == [8235937, 9635937]' "$T_OUT" >/dev/null ||
		check_fail "threadripper, given: $(jq -c .moves "$T_OUT")"
	grep -q 'to a free slot under host bridge 0000:40 (node 0): ceiling 9635938 IOPS (+1400000)' "$T_ERR" ||
		check_fail "threadripper, given: the unnamed slot: $(cat "$T_ERR")"
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
	# The export kept no empty bridge (its lstopo dropped them), so plan
	# assumes one free slot under each of the six host bridges with devices,
	# says so once, and moves six drives off the switch one after another:
	# each gets its own link, the switch stays the other ten's, +1M a move
	mi=$shared/4socket-mi300a-4numa-16nvme-32ns.xml
	if expect_ok "mi300a" plan --topology "$mi" --drive-iops 1m --json "$T_DIR/mi.json"; then
		jq -e '. as $r
			| ([.ceiling.resources[] | select(.kind == "drive")] | length == 16)
			and .ceiling.binding == "0001:81:00.0" and .ceiling.binding_kind == "switch"
			and ([.ceiling.resources[] | select(.kind == "memory")] | map(.name) == ["node 1"])
			and .free_slots == {"source": "assumed", "count": 6, "host_bridges":
				["0000:00", "0000:80", "0001:00", "0001:80", "0002:00", "0003:00"]}
			and (.moves | map(.to.host_bridge) | sort)
				== ["0000:00", "0000:80", "0001:00", "0001:80", "0002:00", "0003:00"]
			and (.moves | map(.device) | unique | length) == 6
			and (.moves | map(.ceiling_after | floor))
				== [2739603, 3739603, 4739603, 5739603, 6739603, 7739603]
			and all(.moves[]; .assumed == true and .to.port == null
				and .from.host_bridge == "0001:80")
			and .after_moves.stop == "no_free_slot" and .after_moves.binding == "0001:81:00.0"
		' "$T_DIR/mi.json" >/dev/null ||
			check_fail "mi300a: $(jq -c '{free_slots, moves, after_moves}' "$T_DIR/mi.json")"
		rising "$T_DIR/mi.json" || check_fail "mi300a: ceilings do not rise"
		[ "$(grep -c 'assumed: one under each host bridge' "$T_OUT")" -eq 1 ] ||
			check_fail "mi300a: the assumption not said once: $(sed -n '/^moves/,$p' "$T_OUT")"
		[ "$(grep -Ec '^  [0-9]+\. move nvme[0-9]+n1 from host bridge 0001:80, .*, assumed\): ceiling [0-9]+ IOPS \(\+1000000\)$' "$T_OUT")" -eq 6 ] ||
			check_fail "mi300a: not six marked moves: $(sed -n '/^moves/,$p' "$T_OUT")"
	fi
	# node 1's memory at 5 GB/s (1220703) binds instead: on the layout each
	# move leaves, node 0's second bridge comes after nodes 2 and 3 (it adds
	# only what node 0's memory has left), and node 1's lift nothing
	if expect_ok "mi300a, memory" plan --topology "$mi" --drive-iops 1m --memory-bw 5g \
		--json "$T_DIR/mim.json"; then
		rising "$T_DIR/mim.json" || check_fail "mi300a, memory: ceilings do not rise"
		jq -e '(.moves | map(.to.node)) == [0, 2, 3, 0]
			and (.moves | map(.ceiling_after | floor)) == [2220703, 3220703, 4220703, 4441406]
			and .after_moves.stop == "no_gain" and .after_moves.binding == "node 1"' \
			"$T_DIR/mim.json" >/dev/null ||
			check_fail "mi300a, memory: $(jq -c '{moves, after_moves}' "$T_DIR/mim.json")"
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
