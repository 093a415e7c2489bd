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
	saturate_json_check "$j" 3 16 || { check_fail "saturate: JSON does not add up"; cat "$j" >&2; }
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
