# iostorm sweep on a loop device: one point per depth asked, the knee and
# the p99 doubling name depths of the list; bad lists.
. "$(dirname "$0")/lib.sh"
need_iostorm
need_cmd jq

make_loop dev 32
q=(-q --ramp 100ms --time 300ms)

if expect_ok "sweep" sweep "${q[@]}" --qd 1,4,16 --json - "$dev"; then
	jq -e '
		.schema == "iostorm/1" and .command == "sweep"
		and ([.points[].qd] == [1, 4, 16])
		and all(.points[]; .iops > 0 and .lat_ns.p50 > 0 and .lat_ns.p50 <= .lat_ns.p99)
		and (.knee_qd as $k | [1, 4, 16] | any(. == $k))
		and (.p99_double_qd as $d | $d == null or ([4, 16] | any(. == $d)))
	' "$T_OUT" >/dev/null || { check_fail "sweep: JSON"; show_output; }
	# the knee is the first depth reaching 90% of the best
	jq -e '(.points | max_by(.iops).iops) as $b
		| ([.points[] | select(.iops >= 0.9 * $b)][0].qd) == .knee_qd' "$T_OUT" >/dev/null ||
		check_fail "sweep: knee is not the first depth at 90% of the best"
	grep -q '^knee: QD' "$T_ERR" || check_fail "sweep: no knee line"
fi
# --batch is clamped at each depth, not to a verb-wide QD1 (it was, and
# every depth submitted one IO per call): at QD64 a batch of 16 carries
# several IOs per call, a batch of 1 one
make_data_file f 16
if expect_ok "sweep --batch 16" sweep "${q[@]}" --buffered --qd 1,64 --batch 16 --json - "$f"; then
	jq -e '.config.batch == 16 and .points[0].ios_per_call <= 1.01
		and .points[1].ios_per_call >= 2 and .points[1].calls > 0' "$T_OUT" >/dev/null ||
		{ check_fail "sweep --batch 16: not batched at QD64: $(jq -c '[.config.batch, [.points[] | {qd, calls, ios_per_call}]]' "$T_OUT")"; }
fi
if expect_ok "sweep --batch 1" sweep "${q[@]}" --buffered --qd 64 --batch 1 --json - "$f"; then
	jq -e '.points[0].ios_per_call <= 1.01' "$T_OUT" >/dev/null ||
		check_fail "sweep --batch 1: more than one IO per call: $(jq -c '.points[0].ios_per_call' "$T_OUT")"
fi
expect_ok "sweep -d" sweep "${q[@]}" -d 2 "$dev" && { grep -q '^knee: QD2' "$T_OUT" || check_fail "sweep -d 2: no knee at QD2"; }

expect_error "decreasing list" 2 'must increase' sweep --qd 4,2 "$dev"
expect_error "zero depth" 2 -- '--qd' sweep --qd 0,1 "$dev"
expect_error "no target" 2 'no TARGET' sweep --qd 1,2
t_done
