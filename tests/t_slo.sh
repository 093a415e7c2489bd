#!/bin/bash
# sweep --slo on a fault file system (tests/fusefault.c). In its load mode
# one thread serves each read after a time that rises steeply with the
# rate asked (p50 about 230 us at 700 reads a second, 440 us at 900, 650
# us at 1050): within p50 500 us the search finds a capacity within 5% of
# the one a fine sweep --rate over nine rates around it finds (where its
# p50 crosses the bound), confirmed unless the cap came first. In its
# slow mode (2 ms a read) the device is named as missing p50 1 ms at any
# rate after two points, the second at 1% of its maximum, with the
# latency it reaches. The JSON's shape (tests/slo_shape.jq), the plot,
# compare's rows; the refusals, each one line and exit 2 before any read
# reaches the device.
. "$(dirname "$0")/lib.sh"
need_iostorm
need_cmd jq gnuplot

make_fault_loop dev ctl 64
echo load >"$ctl"
q=(--no-zero-sample --ramp 100ms --time 1s --qd 16)
json=$T_DIR/slo.json

# ---- the refusals: nothing read ----
before=$(fault_count "$ctl" served)
expect_error "unknown percentile" 2 "unknown percentile 'p98'" sweep "${q[@]}" --slo p98=1ms "$dev"
expect_error "not PCT=DURATION" 2 "is not PERCENTILE=DURATION" sweep "${q[@]}" --slo p99 "$dev"
expect_error "zero" 2 "a bound of zero is never met" sweep "${q[@]}" --slo p99=0us "$dev"
expect_error "zero, second bound" 2 "a bound of zero is never met" sweep "${q[@]}" --slo p99=1ms,p99.9=0 "$dev"
# the latency is kept in whole ns of a clock no finer than 1 ns
expect_error "below the clock" 2 "finer than a nanosecond|below the clock's resolution" sweep "${q[@]}" --slo p99=0.5ns "$dev"
expect_error "twice" 2 "p99 is bounded twice" sweep "${q[@]}" --slo p99=1ms,p99=2ms "$dev"
expect_error "with --rate" 2 "searches the rate itself" sweep "${q[@]}" --slo p99=1ms --rate 10%,20% "$dev"
expect_error "two depths" 2 "sweep --slo takes one depth" sweep "${q[@]}" --slo p99=1ms --qd 4,8 "$dev"
expect_error "with --ios" 2 "drop --ios" sweep "${q[@]}" --slo p99=1ms --ios 1000 "$dev"
expect_error "libaio" 2 "--engine libaio has no open loop" sweep "${q[@]}" --slo p99=1ms --engine libaio "$dev"
expect_error "points alone" 2 "without --slo there is no search" sweep "${q[@]}" --slo-points 5 "$dev"
expect_error "points cap" 2 "--slo-points" sweep "${q[@]}" --slo p99=1ms --slo-points 2 "$dev"
expect_error "run takes none" 2 "slo" run "${q[@]}" --slo p99=1ms "$dev"
expect_error "saturate with --rate" 2 "searches the rate itself" saturate "${q[@]}" --slo p99=1ms --rate 1k "$dev"
expect_error "saturate with --compare-placement" 2 "drop --compare-placement" saturate "${q[@]}" --slo p99=1ms --compare-placement "$dev"
after=$(fault_count "$ctl" served)
[ "$before" = "$after" ] || check_fail "a refusal read the device: served $before, then $after"

# ---- the search, and a fine sweep around what it finds ----
# Each point is a one-second sample on a shared machine: where they
# disagree, both run once more (retried).
name=$(basename "$dev")
for try in 1 2; do
	agree=
	if expect_ok "search" sweep "${q[@]}" --slo p50=500us --json "$json" "$dev"; then
		# every key of the slo object, its type, and no other (docs/json.md)
		shape=$(jq -r -f "$(dirname "$0")/slo_shape.jq" "$json") || shape="not JSON"
		[ -z "$shape" ] || check_fail "the slo object's shape: $shape"
		jq -e --arg n "$name" '
			.command == "sweep" and .by == "slo" and .points == [] and .max.qd == 16 and
			.slo.bounds == [{"percentile": "p50", "ns": 500000}] and .slo.max_points == 12 and
			.slo.searches == 1 and (.slo.devices | length) == 1 and
			(.slo.devices[0] | has("name", "max_iops", "capacity_iops", "points", "first_failing_iops",
				"first_failing_percentile", "confirmed", "missed", "capacities", "capacity_iops_ci", "lowest",
				"start_iops", "undecided_iops", "generator_iops")) and
			([.slo.devices[0].points[] | has("rate", "iops", "percentiles_ns", "held", "broke", "again", "search", "ios",
				"percentiles_ns_ci", "late_share", "lateness_octaves")] | all) and
			([.slo.devices[0].points[].percentiles_ns | keys == ["p50", "p90", "p99", "p99.9", "p99.99"]] | all) and
			(.slo.devices[0].points | length) <= 12 and .slo.devices[0].points[0].rate == .slo.devices[0].start_iops and
			.slo.devices[0].start_iops < .slo.devices[0].max_iops and
			(.slo.devices[0] | .name == $n and .capacity_iops > 0 and (.missed | not) and
				(.capacities | length) == 1)' "$json" >/dev/null ||
			check_fail "search JSON: $(jq -c '.slo | del(.devices[].points)' "$json")"
		# every point's verdict agrees with its p50's interval and the bound:
		# held where the interval's top is within it (or within 5% of it,
		# at the bound), broke where its bottom is above it, else undecided
		# after more windows; every point rests on its IOs
		jq -e '[.slo.devices[].points[] | select(.broke != "behind") | .percentiles_ns_ci.p50 as [$l, $h] |
			.ios > 0 and .windows >= 1 and .windows <= 4 and
			if .held == true then $h != null and ($h <= 500000 or ($h <= 525000 and $l >= 475000 and .at_bound))
			elif .held == false then $l > 500000
			else .windows == 4 or .broke == "generator" end] | all' "$json" >/dev/null ||
			check_fail "a point's verdict disagrees with its p50's interval: $(jq -c '[.slo.devices[0].points[] | [.rate, .percentiles_ns_ci.p50, .windows, .held]]' "$json")"
		# the capacity held every time it ran and lies below the first rate
		# that broke; the search ended on a repeat: of the capacity, which
		# confirmed it (it held twice), or of a rate that then broke, with no
		# point left to go on below it
		jq -e '.slo.devices[0] | .capacity_iops as $c | .first_failing_iops > $c and
			([.points[] | select(.rate == $c) | .held] | all) and .points[-1].again and
			if .confirmed then [.points[] | select(.rate == $c)] | length >= 2
			else (.points | length) == 12 and (.points[-1].held | not) end' "$json" >/dev/null ||
			check_fail "capacity not held below the first failing rate, or not repeated: $(jq -c '.slo.devices[0] | del(.points)' "$json")"
		grep -Eq "^$name: [0-9]+ IOPS \([0-9]+% of its closed-loop [0-9]+\), (confirmed|unconfirmed \(the cap of points came first\)); first failing rate [0-9]+ IOPS: (p50 [0-9.]+ us|behind)(; undecided at [0-9]+\.\.[0-9]+ IOPS)?; [0-9]+ points$" "$T_OUT" ||
			{ check_fail "no capacity line"; show_output; }
		grep -Eq "^slo: p50 500.0 us, .*a search of at most 12 points of 0.1s ramp \+ 1s, each measured on up to 4 windows while its 95% interval spans a bound: at most 53s" "$T_OUT" ||
			{ check_fail "no plan with the search's time"; show_output; }

		# the fine sweep: nine rates from 12% below the capacity found to 12%
		# above it, in 3% steps; its capacity is where its p50 crosses the
		# bound, before the first rate that broke. Rates as such: the load
		# mode's service time follows the rate asked, which the closed-loop
		# maximum that a load is a share of does not
		cap=$(jq '.slo.devices[0].capacity_iops' "$json")
		rates=$(jq -rn --argjson c "$cap" '[range(-4; 5) | $c * (1 + 0.03 * .) | floor | tostring] | join(",")')
		if expect_ok "fine sweep" sweep "${q[@]}" --rate "$rates" --json "$T_DIR/fine.json" "$dev"; then
			# where its p50 crosses the bound: between the last load that held
			# and the first that broke, interpolated (the last that held where
			# the first that broke fell behind)
			fine=$(jq '[.points[] | {l: .asked_iops, p: .lat_ns.p50, behind: .open_loop.overloaded,
					ok: (.lat_ns.p50 <= 500000 and (.open_loop.overloaded | not))}] |
				(map(.ok) | index(false)) as $i |
				if $i == null then .[-1].l elif $i == 0 then 0
				elif .[$i].behind or .[$i].p <= .[$i - 1].p then .[$i - 1].l
				else .[$i - 1].l + (.[$i].l - .[$i - 1].l) * (500000 - .[$i - 1].p) / (.[$i].p - .[$i - 1].p) end' "$T_DIR/fine.json")
			echo "capacity within p50 500 us: search $cap IOPS, fine sweep $fine IOPS"
			jq -en --argjson c "$cap" --argjson f "$fine" '$f > 0 and (($c - $f) / $f | fabs) <= 0.05' >/dev/null &&
				agree=1
		fi
		# the picture: the bound and the capacity
		if expect_ok "plot" plot -o "$T_DIR/slo.svg" "$json"; then
			grep -q "capacity $(printf '%.0f' "$cap") IOPS" "$T_DIR/slo.svg" || check_fail "plot: no capacity mark"
			grep -q 'p50 bound' "$T_DIR/slo.svg" || check_fail "plot: no bound"
		fi
	fi
	if [ -n "$agree" ]; then
		[ "$try" = 1 ] || retried "the search and its fine sweep"
		break
	fi
	[ "$try" = 2 ] && [ -n "${fine:-}" ] &&
		check_fail "the search's capacity $cap is not within 5% of the fine sweep's $fine: $(jq -c '[.points[] | [.asked_iops, .lat_ns.p50]]' "$T_DIR/fine.json")"
done

# ---- compare: the capacities as rows, more is better, tested on the
# searches (--repeat's): three each, one side 30% lower ----
if [ -s "$json" ]; then
	jq '.slo.searches = 3 | .slo.devices[0].capacities = [400, 404, 396]' "$json" >"$T_DIR/c1.json"
	jq '.slo.searches = 3 | .slo.devices[0].capacities = [280, 283, 277]' "$json" >"$T_DIR/c2.json"
	if expect_ok "compare" compare --json - "$T_DIR/c1.json" "$T_DIR/c2.json"; then
		jq -e --arg k "$name capacity within p50 <= 500000 ns" '.comparisons[0].rows[] | select(.key == $k) |
			.metrics[0] | .metric == "iops" and .base.n == 3 and .new.n == 3 and .base.center == 400 and
			.new.center == 280 and .test.significant and .worse' "$T_OUT" >/dev/null ||
			check_fail "compare: no significant, worse capacity row: $(jq -c '.comparisons[0].rows' "$T_OUT")"
	fi
fi

# ---- a fixed 2 ms per read misses p50 1 ms at any rate ----
# At the floor (1% of the maximum: 8 IOs in 2 s) the workers' wait for a
# CPU is shared by few IOs: once, 14 ms of it (0.7% of the window) came to
# 1.7 ms an IO, which could carry the 1.3 ms breach, and the point went to
# the generator (the host's doing) rather than the device, as
# model_slo_judge says it should. Only such a search, whose report blames
# the host, runs once more (retried).
echo slow >"$ctl"
for try in 1 2; do
	expect_ok "missed" sweep "${q[@]}" --slo p50=1ms --json "$T_DIR/miss.json" "$dev" || break
	if [ "$try" = 1 ] && jq -e '.slo.devices[0] | (.missed | not) and .lowest.broke == "generator"' \
		"$T_DIR/miss.json" >/dev/null; then
		retried "missed: the host's wait for a CPU, not the device, broke the lowest point"
		continue
	fi
	shape=$(jq -r -f "$(dirname "$0")/slo_shape.jq" "$T_DIR/miss.json") || shape="not JSON"
	[ -z "$shape" ] || check_fail "missed: the slo object's shape: $shape"
	jq -e '.slo.devices[0] | .capacity_iops == null and .missed and (.confirmed | not) and
		(.points | length) == 2 and .points[0].rate == .start_iops and .start_iops < .max_iops and
		(.points[1].rate <= 0.0101 * .max_iops or .points[1].rate == 1) and
		.first_failing_percentile == "p50" and .first_failing_iops == .points[1].rate and
		.lowest.percentiles_ns.p50 > 1900000' "$T_DIR/miss.json" >/dev/null ||
		check_fail "missed: $(jq -c '.slo.devices[0]' "$T_DIR/miss.json")"
	grep -Eq "^$name: misses p50 1000 us at any rate: at [0-9]+ IOPS \([0-9.]+% of its maximum\) p50 [0-9.]+ us$" "$T_OUT" ||
		{ check_fail "no line for the device that misses"; show_output; }
	if expect_ok "plot missed" plot -o "$T_DIR/miss.svg" "$T_DIR/miss.json"; then
		grep -q "misses the target at any rate" "$T_DIR/miss.svg" || check_fail "plot: the device that misses is not named"
		grep -q "capacity" "$T_DIR/miss.svg" && check_fail "plot: a capacity drawn where there is none"
	fi
	break
done
t_done
