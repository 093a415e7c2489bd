# iostorm saturate on two loop devices and one file: the JSON adds up (the
# per-device figures sum to the node and system figures), every device has
# every figure, the table has a row per device and a verdict; bad input.
. "$(dirname "$0")/lib.sh"
need_iostorm
need_cmd jq

make_loop l1 32
make_loop l2 32
make_data_file f1 32
q=(-q --qd 16 --ramp 200ms --time 500ms)

if expect_ok "saturate" saturate "${q[@]}" --compare-placement --json "$T_DIR/sat.json" "$l1" "$l2" "$f1"; then
	j=$T_DIR/sat.json
	jq -e '
		def num: type == "number";
		def close(a; b): ((a - b) | fabs) <= 1e-6 * ((b | fabs) + 1);
		def lat: (.p50|num) and (.p99|num) and (.["p99.99"]|num) and .p50 <= .p99;
		.schema == "iostorm/1" and .command == "saturate" and .interrupted == false
		and (.devices | length == 3)
		and all(.devices[];
			(.name|type == "string") and (.numa_nodes|type == "array")
			and (.qd1.solo.iops|num) and .qd1.solo.iops > 0 and (.qd1.solo.lat_ns|lat)
			and (.qd1.all.iops|num) and .qd1.all.iops > 0 and (.qd1.all.lat_ns|lat)
			and (.qdn.solo.iops|num) and .qdn.solo.iops > 0
			and (.qdn.all.iops|num) and .qdn.all.iops > 0
			and (.qdn.remote.iops|num) and (.numa_penalty_pct|num)
			and (.loss_pct|num)
			and close(.loss_pct; 100 * (.qdn.solo.iops - .qdn.all.iops) / .qdn.solo.iops))
		and .system.qd == 16
		and close(.system.qdn.all_iops; [.devices[].qdn.all.iops] | add)
		and close(.system.qdn.solo_sum_iops; [.devices[].qdn.solo.iops] | add)
		and close(.system.qd1.all_iops; [.devices[].qd1.all.iops] | add)
		and close(.system.qd1.solo_sum_iops; [.devices[].qd1.solo.iops] | add)
		and close(.system.qdn.gap_pct; 100 * (.system.qdn.solo_sum_iops - .system.qdn.all_iops) / .system.qdn.solo_sum_iops)
		and close([.nodes[].all_iops] | add; .system.qdn.all_iops)
		and ([.nodes[].ndevices] | add) == 3
		and (.findings | type == "array")
		and all(.findings[]; (.kind|type == "string") and (.text|type == "string"))
		and (.verdict.kind|type == "string") and (.verdict.text|length > 0)
	' "$j" >/dev/null || { check_fail "saturate: JSON does not add up"; cat "$j" >&2; }
	for d in "$l1" "$l2" "$f1"; do
		grep -q "^${d##*/} " "$T_OUT" || check_fail "saturate: no table row for $d"
	done
	grep -q '^verdict: ' "$T_OUT" || check_fail "saturate: no verdict line"
	grep -q '^plan: 9 steps' "$T_OUT" || check_fail "saturate: no plan of 9 steps"
fi

# --json - keeps stdout pure JSON
if expect_ok "saturate --json -" saturate "${q[@]}" --json - "$l1"; then
	jq -e '.devices | length == 1' "$T_OUT" >/dev/null || check_fail "--json -: stdout is not the JSON"
	grep -q '^verdict: ' "$T_ERR" || check_fail "--json -: the table is not on stderr"
fi

expect_error "--demo with targets" 2 'drop the TARGET' saturate --demo "$l1"
expect_error "--qd 0" 2 -- '--qd' saturate --qd 0 "$l1"
expect_error "missing target" 1 'no such file' saturate -q /nonexistent/iostorm-x
t_done
