#!/bin/bash
# saturate --slo: two loop devices over one fault file system
# (tests/fusefault.c, slow: one thread serves each read after 2 ms), so
# what each serves alone within the bound the two share together. Each
# alone holds p50 10 ms up to about its closed-loop maximum; all at once,
# each at its alone capacity, they break, and the common share that holds
# is below 75% of the summed alone capacities (the one thread serves about
# one device's worth): the gap at the target, with saturate's attribution;
# the JSON's shape and the plot's panels.
. "$(dirname "$0")/lib.sh"
need_iostorm
need_cmd jq gnuplot

make_fault_loop dev ctl 64
# a second loop device over the same file: one server behind both
dev2=$(losetup -f --show --direct-io=on "${ctl%/ctl}/data" 2>/dev/null) ||
	dev2=$(losetup -f --show "${ctl%/ctl}/data" 2>/dev/null) ||
	fail "a second loop device over ${ctl%/ctl}/data"
T_LOOPS+=("$dev2")
q2=/sys/block/${dev2#/dev/}/queue/nomerges
T_SYSFS+=("$q2 $(cat "$q2")")
echo 2 >"$q2" || fail "cannot turn off merging on $dev2"
echo slow >"$ctl"
json=$T_DIR/sat.json

if expect_ok "saturate --slo" saturate --no-zero-sample --ramp 100ms --time 1s --qd 16 \
	--slo p50=10ms --slo-points 6 --json "$json" "$dev" "$dev2"; then
	# every key of the slo object, its type, and no other (docs/json.md)
	shape=$(jq -r -f "$(dirname "$0")/slo_shape.jq" "$json") || shape="not JSON"
	[ -z "$shape" ] || check_fail "the slo object's shape: $shape"
	jq -e '.command == "saturate" and .slo.bounds == [{"percentile": "p50", "ns": 10000000}] and
		.slo.max_points == 6 and (.slo.devices | length) == 2 and
		([.slo.devices[] | .capacity_iops > 0 and (.points | length) <= 6] | all) and
		(.slo.together | .devices == 2 and
			(.sum_alone_iops - ([$d[].capacity_iops] | add) | fabs) < 1e-6 and
			.fraction > 0 and .fraction < 0.75 and .capacity_iops < .sum_alone_iops and
			(.gap_pct - 100 * (1 - .fraction) | fabs) < 1e-6 and
			.points[0].fraction == 1 and (.points[0].held | not) and
			.first_failing_fraction != null and .first_failing_device != null and
			(.points | length) <= 6 and
			([.points[] | (.by_device | length) == 2] | all)) and
		(.slo.attribution | has("kind", "text"))' --argjson d "$(jq '.slo.devices' "$json")" "$json" >/dev/null ||
		check_fail "saturate --slo JSON: $(jq -c '.slo | del(.devices[].points, .together.points)' "$json")"
	# the share is the highest that held together, and it held there
	jq -e '.slo.together | .fraction as $f | [.points[] | select(.fraction == $f) | .held] | all and length >= 1' \
		"$json" >/dev/null || check_fail "the share together did not hold: $(jq -c '[.slo.together.points[] | [.fraction, .held]]' "$json")"
	grep -Eq "^alone, (each of 2 devices serves [0-9]+ IOPS within p50 10000 us \([0-9]+ summed\)|2 devices serve [0-9]+ IOPS summed within p50 10000 us); together, [0-9]+% of that \([0-9]+ IOPS, a gap of [0-9]+%(, unconfirmed)?\): .* broke (p50|by falling behind) first at [0-9]+%; saturate's attribution of the gap at QD16: " "$T_OUT" ||
		{ check_fail "no line for the gap at the target"; show_output; }
	grep -q "^plan: 3 closed-loop steps of 0.1s ramp + 1s measured, then 3 searches of at most 6 points" "$T_OUT" ||
		{ check_fail "no plan"; show_output; }
	# saturate's own panels, one per device's search, and the search together
	if expect_ok "plot" plot -o "$T_DIR/sat.svg" "$json"; then
		[ "$(grep -c 'latency from when due against the rate asked' "$T_DIR/sat.svg")" = 2 ] ||
			check_fail "plot: not a panel per device's search"
		grep -q 'p50 bound' "$T_DIR/sat.svg" || check_fail "plot: no bound"
		grep -Eq "together $(jq '.slo.together.fraction * 100 | round' "$json")%" "$T_DIR/sat.svg" ||
			check_fail "plot: the share together not marked"
	fi
fi
t_done
