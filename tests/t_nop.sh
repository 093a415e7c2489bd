# iostorm nop: IORING_OP_NOP, reported like run with "command": "nop".
. "$(dirname "$0")/lib.sh"
need_iostorm
need_cmd jq

if expect_ok nop nop -q --time 300ms --ramp 0 --json -; then
	jq -e '.schema == "iostorm/1" and .command == "nop"
		and (.devices | length >= 1) and .total.ios > 0
		and all(.devices[]; .ios > 0 and .errors == 0 and .lat_ns.p50 <= .lat_ns.max)' \
		"$T_OUT" >/dev/null || { check_fail "nop: JSON"; show_output; }
fi
if expect_ok "nop ios" nop -q --ios 100000 --qd 64 --batch 16 --json -; then
	[ "$(jq '.total.ios' "$T_OUT")" = 100000 ] || check_fail "nop --ios 100000: wrong count"
fi
expect_ok "nop table" nop -q --time 200ms --ramp 0
[ -s "$T_OUT" ] || check_fail "nop: no table on stdout"
expect_ok "nop sqpoll" nop -q --time 200ms --ramp 0 --completion sqpoll
expect_error "nop libaio" '[12]' 'libaio|nop' nop -q --time 200ms --engine libaio
t_done
