# saturate on four emulated drives across both nodes (7.2 guest): the JSON
# is complete and adds up as on loop devices, the table has a row per
# drive, --compare-placement runs its remote step on the other node's CPU
# for real, and the ceiling section models the layout's PCIe tree; with
# --slo (issue 33), sweep finds a drive's capacity within p99 5 ms (or names
# it as missing) and saturate (p99 20 ms, looser: two drives under TCG) the share of their alone capacities
# that holds at once, on the real nvme driver.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib.sh"
vm_need

vm_boot 7.2 two-node <<'GUEST' || 
# ---- --slo on the rig ----
if vm_expect_ok slosweep "sweep --slo"; then
	j=$VM_OUT/slosweep.json
	shape=$(jq -r -f "$(dirname "$0")/../slo_shape.jq" "$j") || shape="not JSON"
	[ -z "$shape" ] || check_fail "sweep --slo: the slo object's shape: $shape"
	jq -e '.by == "slo" and (.slo.devices | length) == 1 and (.slo.devices[0] |
		(.points | length) >= 2 and (.points | length) <= 5 and .points[0].rate == .start_iops and
		((.capacity_iops > 0 and (.missed | not)) or .capacity_iops == null))' "$j" >/dev/null ||
		check_fail "sweep --slo: $(jq -c '.slo | del(.devices[].points)' "$j")"
	# a capacity, a miss, or (the search's points left undecided: an
	# emulated drive under TCG is noisy) none decided
	grep -Eq "^[a-z0-9]+: ([0-9]+ IOPS \(|misses p99 5000 us at any rate|none decided)" "$VM_OUT/slosweep.out" ||
		check_fail "sweep --slo: no capacity line"
	echo "sweep --slo: $(grep -E '^[a-z0-9]+: ([0-9]+ IOPS|misses|none decided)' "$VM_OUT/slosweep.out")"
fi
if vm_expect_ok slosat "saturate --slo"; then
	j=$VM_OUT/slosat.json
	shape=$(jq -r -f "$(dirname "$0")/../slo_shape.jq" "$j") || shape="not JSON"
	[ -z "$shape" ] || check_fail "saturate --slo: the slo object's shape: $shape"
	jq -e '(.slo.devices | length) == 2 and (.slo.together == null or
		(.slo.together.points | length) >= 1 and (.slo.together.points | length) <= 5)' "$j" >/dev/null ||
		check_fail "saturate --slo: $(jq -c '.slo | del(.devices[].points, .together.points)' "$j")"
	grep -E "^alone, |^together: " "$VM_OUT/slosat.out" || check_fail "saturate --slo: no line for the gap at the target"
	grep -E "^[a-z0-9]+: ([0-9]+ IOPS \(|misses|none decided)" "$VM_OUT/slosat.out"
fi
t_done
step sat iostorm saturate --qd 8 --ramp 300ms --time 1s --compare-placement --json /results/sat.json \
	$(dev nva) $(dev nvb) $(dev nvc) $(dev nvd)
for d in nva nvb nvc nvd; do basename $(dev $d); done >/results/names
step slosweep iostorm sweep --slo p99=5ms --slo-points 5 --qd 8 --ramp 200ms --time 1s \
	--json /results/slosweep.json $(dev nva)
step slosat iostorm saturate --slo p99=20ms --slo-points 5 --qd 8 --ramp 200ms --time 1s \
	--json /results/slosat.json $(dev nva) $(dev nvc)
GUEST

if vm_expect_ok sat "saturate on 4 drives"; then
	j=$VM_OUT/sat.json
	saturate_json_check "$j" 4 8 || { check_fail "saturate: the JSON does not add up"; cat "$j" >&2; }
	for d in $(cat "$VM_OUT/names"); do
		grep -q "^$d " "$VM_OUT/sat.out" || check_fail "saturate: no table row for $d"
	done
	# nva, nvb on node 0; nvc, nvd on node 1; two nodes of two drives
	jq -e --slurpfile n <(jq -R . "$VM_OUT/names" | jq -s .) '
		[.devices[] | {(.name): .numa_nodes}] | add as $m
		| $m[$n[0][0]] == [0] and $m[$n[0][1]] == [0] and $m[$n[0][2]] == [1] and $m[$n[0][3]] == [1]
	' "$j" >/dev/null || check_fail "saturate: drives not on the nodes of the layout"
	jq -e '[.nodes[] | .ndevices] == [2, 2]' "$j" >/dev/null || check_fail "saturate: want two nodes of two drives"
	jq -e 'all(.devices[]; .qdn.remote.iops > 0 and .qdn.remote.errors == 0)' "$j" >/dev/null ||
		check_fail "saturate --compare-placement: no remote step measured"
	# the remote step's workers ran on the other node: one line for the
	# kind of note, each node's pair named once (in name order)
	set -- $(cat "$VM_OUT/names")
	rl=$(grep 'remote placement on node' "$VM_OUT/sat.err")
	[ "$(grep -c 'remote placement on node' "$VM_OUT/sat.err")" -eq 1 ] ||
		check_fail "saturate --compare-placement: want one line of remote placement notes"
	for p in "$1 $2 1" "$3 $4 0"; do
		set -- $p
		grep -Eq "(^|; |: )($1 and $2|$2 and $1): remote placement on node $3 " <<<"$rl" ||
			check_fail "saturate --compare-placement: $1 and $2 not placed on node $3 for the remote step: $rl"
	done
	grep -q '^verdict: ' "$VM_OUT/sat.out" || check_fail "saturate: no verdict line"
	# the ceiling on the real PCIe tree: each drive behind its root port's
	# link (the emulated function trains at 2.5 GT/s x1), under its host
	# bridge, on its node's memory (measured) and CPU
	jq -e '.ceiling as $c
		| ([$c.resources[] | select(.kind == "drive")] | length) == 4
		and ([$c.resources[] | select(.kind == "link")] | length) == 4
		and ([$c.resources[] | select(.kind == "host_bridge") | .name] | sort)
		    == ["0000:20", "0000:40"]
		and ([$c.resources[] | select(.kind == "memory") | .node] | sort) == [0, 1]
		and ($c.memory | length) == 2 and all($c.memory[]; .bytes_s > 0)
		and $c.predicted_iops > 0 and $c.measured_iops == .system.qdn.all_iops' \
		"$j" >/dev/null || { check_fail "saturate: no ceiling over the layout's PCIe tree"; jq -c .ceiling "$j" >&2; }
	grep -q '^ceiling: the model on measured inputs' "$VM_OUT/sat.out" ||
		check_fail "saturate: no ceiling section"
fi
t_done
