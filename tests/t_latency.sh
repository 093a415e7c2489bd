# iostorm latency on a loop device: one line and one JSON entry per second,
# whose IOs add up to the device's; QD1 only, one target only.
. "$(dirname "$0")/lib.sh"
need_iostorm
need_cmd jq

make_loop dev 32
name=${dev#/dev/}

if expect_ok "latency" latency -q --ramp 100ms --time 2500ms --json - "$dev"; then
	json_check "$T_OUT" latency 1 || check_fail "latency: JSON shape"
	jq -e '(.seconds | length == 3) and ([.seconds[].second] == [1, 2, 3])
		and all(.seconds[]; .iops > 0 and .lat_ns.p50 <= .lat_ns.p99 and .lat_ns.p99 <= .lat_ns.max)
		and ([.seconds[].ios] | add) == .devices[0].ios
		and .config.qd == 1' "$T_OUT" >/dev/null || { check_fail "latency: seconds"; show_output; }
	lines=$(grep -c "^$name  *[0-9]*: .* IOPS .*p50 .*p99 .*max" "$T_ERR")
	[ "$lines" -eq 3 ] || { check_fail "latency: $lines per-second lines, want 3"; show_output; }
	grep -q 'p99.99' "$T_ERR" || check_fail "latency: no percentile table"
fi

expect_error "--qd 4" 2 'QD1 only' latency --qd 4 "$dev"
expect_error "two targets" 2 'one TARGET' latency "$dev" "$dev"
expect_error "no target" 2 'no TARGET' latency
t_done
