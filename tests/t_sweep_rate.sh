# sweep --rate: a sweep by load on a loop device. The loads are shares of
# a closed-loop maximum the sweep measures first at --qd (the JSON's max),
# each point asks that share of every target and, below the maximum, gets
# it (within 1%); the table shows the curve (a row per load) and the load
# where p99 doubled, which agrees with the points' own p99s; rates given
# as such are asked as given; bad lists are refused before any IO.
. "$(dirname "$0")/lib.sh"
need_iostorm
need_cmd jq

make_loop dev 64
make_loop dev2 64
q=(-q --ramp 200ms --time 1s)
# a rate met: within 1% of what was asked. Under a sanitizer a worker
# held up for a few tens of ms (3000 asked, 2901 got under ASan in CI)
# falls behind its schedule: there the report saying so (overloaded: the
# backlog over 1% of the window's IOs) stands in for the rate met, which
# the plain suite checks here and in t_rate
met='(.iops / .asked_iops - 1 | fabs < 0.01)'
[ -z "${SANITIZE:-}" ] || met="($met or .open_loop.overloaded)"

if expect_ok "by load" sweep "${q[@]}" --rate 10%,20%,40%,400% --qd 8 --json - "$dev" "$dev2"; then
	jq -e '.by == "rate" and .max.qd == 8 and (.max.by_device | length) == 2 and
		([.max.by_device[].iops > 0] | all) and (.points | length) == 4 and
		([.points[].qd == 8] | all) and ([.points[].load_pct] == [10, 20, 40, 400])' \
		"$T_OUT" >/dev/null || check_fail "by load: points or max: $(jq -c '{by, max, loads: [.points[].load_pct]}' "$T_OUT")"
	# each point asks its load of each target's own maximum
	jq -e '(.max.by_device | map({(.name): .iops}) | add) as $max |
		[.points[] | .load_pct as $l | .by_device[] |
		 (.asked_iops / ($l / 100 * $max[.name]) - 1 | fabs < 0.001)] | all' "$T_OUT" >/dev/null ||
		check_fail "by load: asked is not the load of each maximum: $(jq -c '[.points[] | {load_pct, asked: [.by_device[].asked_iops]}]' "$T_OUT")"
	# and gets it at 10% and 20% (40% may meet the machine's own limits:
	# two spinning workers on two CPUs)
	jq -e "[.points[] | select(.load_pct <= 20) | $met] | all" "$T_OUT" >/dev/null ||
		check_fail "by load: a low load not met: $(jq -c '[.points[] | {load_pct, asked_iops, iops}]' "$T_OUT")"
	# 400% of what the closed loop at the same depth reached cannot be met,
	# even where the maximum was measured while the machine was busier (a
	# shared CI runner): at 150% a quieter second made the overload met
	jq -e '.points[3].open_loop.overloaded' "$T_OUT" >/dev/null ||
		check_fail "by load: 400% of the maximum not overloaded: $(jq -c '.points[3] | {asked_iops, iops}' "$T_OUT")"
	# overloaded for a whole window, its backlog and so its latency from
	# schedule grow throughout (most of the window at 400%):
	# p99 has doubled by then
	jq -e '.p99_double_load_pct != null' "$T_OUT" >/dev/null ||
		check_fail "by load: p99 never doubled, not even at an overload: $(jq -c '[.points[] | .lat_ns.p99]' "$T_OUT")"
	# the doubling agrees with the points: the first whose p99 is twice the first's
	want=$(jq '[.points[] | .lat_ns.p99] as $p | [range(0; $p | length) | select($p[.] >= 2 * $p[0])] |
		if length > 0 then $p[.[0]] | tostring else "none" end' "$T_OUT")
	got=$(jq -r '.p99_double_load_pct as $l | if $l == null then "none" else
		(.points[] | select(.load_pct == $l) | .lat_ns.p99 | tostring) end' "$T_OUT")
	[ "$want" = "\"$got\"" ] || [ "$want" = "$got" ] ||
		check_fail "by load: p99 doubled at the point with p99 $got, want $want"
	# the table: a row per load, then the doubling (or that there was none)
	for l in 10% 20% 40% 400%; do
		grep -Eq "^ +$l +[0-9]+ +[0-9]+ " "$T_ERR" || { check_fail "by load: no row for $l"; show_output; }
	done
	grep -Eq "^maximum, closed loop at QD8: $(basename "$dev") [0-9]+ IOPS, $(basename "$dev2") [0-9]+ IOPS$" "$T_ERR" ||
		{ check_fail "by load: no maximum line"; show_output; }
	grep -Eq "^p99 doubled: (at [0-9.]+%, [0-9]+ IOPS asked|not within 10%..400%)" "$T_ERR" ||
		{ check_fail "by load: no p99 line"; show_output; }
	grep -Eq "^overloaded from [0-9.]+%: " "$T_ERR" || { check_fail "by load: no overload line"; show_output; }
fi

# rates given as such: asked as given, per device; no maximum measured
if expect_ok "by rate" sweep "${q[@]}" --rate 1k,3k --json - "$dev"; then
	jq -e '.by == "rate" and .max == null and .config.qd == 32 and
		[.points[].asked_iops] == [1000, 3000] and [.points[].load_pct] == [null, null] and
		([.points[] | '"$met"'] | all)' "$T_OUT" >/dev/null ||
		check_fail "by rate: $(jq -c '{max, qd: .config.qd, p: [.points[] | {asked_iops, iops, load_pct}]}' "$T_OUT")"
	grep -q "^maximum" "$T_ERR" && check_fail "by rate: a maximum measured for rates given as such"
fi

expect_error "two depths" 2 "sweep --rate takes one depth" sweep "${q[@]}" --rate 10%,50% --qd 1,2 "$dev"
expect_error "mixed" 2 "mixes loads" sweep "${q[@]}" --rate 10%,5k "$dev"
expect_error "decreasing" 2 "entries must increase" sweep "${q[@]}" --rate 50%,10% "$dev"
expect_error "zero load" 2 "is not a load in" sweep "${q[@]}" --rate 0%,10% "$dev"
expect_error "libaio" 2 "--engine libaio has no open loop" sweep "${q[@]}" --rate 1k --engine libaio "$dev"
t_done
