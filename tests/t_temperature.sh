# --temperature-every on a target that is not NVMe: one line names it,
# the run goes on, its timeline's temp_c is null every second, the config
# holds the interval and the report's temperature says no read was made
# (and so no cost); not whole seconds, or under a second, is refused. The
# reads themselves (the nvme hwmon, found on a recorded tree) are
# test_health's; a drive's are the emulated-NVMe rig's.
. "$(dirname "$0")/lib.sh"
need_iostorm
need_cmd jq

make_data_file file 16
json=$T_DIR/r.json
expect_ok "a file" run -q --ramp 0 --time 2s --temperature-every 1s --json "$json" "$file"
name=$(basename "$file")
[ "$(grep -c -- "--temperature-every" "$T_ERR")" -eq 1 ] &&
	grep -qx "iostorm run: --temperature-every: $name is not an NVMe namespace: no temperature in its timeline" "$T_ERR" ||
	{ check_fail "no one line naming $name without a temperature"; show_output; }
jq -e '.config.temperature_every_s == 1
	and .temperature == {reads: 0, read_us: null, iops_read_seconds: null, iops_other_seconds: null}
	and (.devices[0].timeline | length) >= 2 and all(.devices[0].timeline[]; .temp_c == null)
	and all(.total.timeline[]; .temp_c == null)' "$json" >/dev/null ||
	check_fail "the JSON: $(jq -c '[.config.temperature_every_s, .temperature, [.devices[0].timeline[].temp_c]]' "$json")"
grep -q "^temperature:" "$T_OUT" && check_fail "a cost line without a read"
run_iostorm run -q --ramp 0 --time 1s --json "$json" "$file"
jq -e '.config.temperature_every_s == null and .temperature == null' "$json" >/dev/null ||
	check_fail "without the option: $(jq -c '[.config.temperature_every_s, .temperature]' "$json")"

expect_error "not whole seconds" 2 "--temperature-every: '1500ms' is not whole seconds" run -q --temperature-every 1500ms "$file"
expect_error "under a second" 2 "--temperature-every" run -q --temperature-every 500ms "$file"
t_done
