# saturate's ceiling section on two loop devices:
# the model runs on what the steps measured (each device's solo QDn IOPS as
# its demand, node 0's memory write bandwidth measured after the steps,
# node 0's IOs per CPU-second from the solo steps); the JSON has
# ceiling.resources with the kinds the issue names, the prediction beside
# the measured all-at-once IOPS (the system row's), and the binding
# resource; the text has the section and the binding sentence. A device
# that failed is left out of the model as it is out of the sums.
. "$(dirname "$0")/lib.sh"
need_iostorm
need_cmd jq

make_loop a 64
make_loop b 64
json=$T_DIR/s.json

expect_ok saturate saturate --qd 8 --time 1 --ramp 0.2 --json "$json" "$a" "$b"
jq -e '.ceiling as $c
	| ($c.resources | map(.kind) | unique) as $k
	| ($k - ["drive", "link", "switch", "host_bridge", "memory", "cpu"]) == []
	and ($k | index("drive")) != null and ($k | index("memory")) != null
	and ($k | index("cpu")) != null
	and ([$c.resources[] | select(.kind == "drive") | .name] | sort)
	    == ([.devices[].name] | sort)
	and ([$c.resources[] | select(.kind == "drive") | .demand_iops]
	     | add) as $d | (($d - $c.demand_iops) | fabs) < 1
	and $c.predicted_iops > 0 and $c.predicted_iops <= $c.demand_iops + 1
	and $c.measured_iops == .system.qdn.all_iops
	and ($c.binding | type) == "string"
	and ($c.memory | length) == 1 and $c.memory[0].bytes_s > 0
	and ($c.cpu | length) == 1 and $c.cpu[0].ios_per_cpu_s > 0
	and all($c.resources[]; .demand_iops >= 0
		and (.utilization == null or .utilization >= 0))' "$json" >/dev/null ||
	{ check_fail "saturate: the ceiling JSON is incomplete"; jq -c '.ceiling' "$json" >&2; }
grep -q "^ceiling: the model on measured inputs" "$T_OUT" ||
	{ check_fail "saturate: no ceiling section"; show_output; }
grep -Eq "^predicted: [0-9]+ IOPS; measured all at once: [0-9]+ IOPS" "$T_OUT" ||
	{ check_fail "saturate: no prediction line"; show_output; }
grep -q "^binding: " "$T_OUT" || { check_fail "saturate: no binding sentence"; show_output; }

# a failing device is left out of the model
make_fault_loop bad ctl 64
echo eio >"$ctl"
run_iostorm saturate -q --qd 4 --time 300ms --ramp 0 --json "$json" "$a" "$bad"
echo ok >"$ctl"
[ "$T_RC" -eq 1 ] || { check_fail "failing device: exit $T_RC, want 1"; show_output; }
jq -e --arg b "${bad#/dev/}" '[.ceiling.resources[] | select(.kind == "drive") | .name]
	| index($b) == null and length == 1' "$json" >/dev/null ||
	{ check_fail "failing device: it is in the model"; jq -c '.ceiling' "$json" >&2; }
t_done
