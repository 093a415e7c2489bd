# A lasting drop in IOPS is named at the second it began, from the
# report's own seconds: a loop device on the fault file system
# (tests/fusefault.c) serves COUNT reads, then each after 2 ms (a
# drive that throttles: at most 500 a second). An open loop of 5000 IOs a
# second keeps the seconds before as even as a drive's; the drop's second
# is the one in which the report's own timeline reaches COUNT IOs (the
# window starts with the first read: --ramp 0, no zero sample; less those
# in flight). Then reads that fail from COUNT on: the drop names the
# failures of its second. A steady run has none (t_steady).
. "$(dirname "$0")/lib.sh"
need_iostorm
need_cmd jq

make_fault_loop dev ctl 64
name=${dev#/dev/}
json=$T_DIR/r.json
q=(-q --ramp 0 --qd 8 --rate 5000 --no-zero-sample)
count=15000	# 3 s of the open loop

# drop_second: the window's seconds [start, end] of the sample in which
# the timeline reaches COUNT - QD IOs
drop_second() {
	jq -r --argjson c "$((count - 8))" '
		.devices[0].timeline as $t
		| [range(0; $t | length) | select(([$t[0:. + 1][].ios] | add) >= $c)][0] as $k
		| "\($t[$k].t_s - $t[$k].dt_s) \($t[$k].t_s)"' "$json"
}

# ---- slow from COUNT on ----
echo "ok $count slow" >"$ctl"
expect_ok "slow from read $count" run "${q[@]}" --time 7s --json "$json" "$dev"
echo ok >"$ctl"
read -r lo hi < <(drop_second)
jq -e --argjson lo "$lo" --argjson hi "$hi" '
	.devices[0].drop as $d
	| $d != null and ((($d.at_s - $lo) | fabs) < 0.01 or (($d.at_s - $hi) | fabs) < 0.01)
' "$json" >/dev/null || check_fail "slow: the drop is not named at the second the timeline reached $count IOs ($lo-$hi s): $(jq -c "[.devices[0].drop, [.devices[0].timeline[].ios]]" "$json")"
jq -e '.devices[0].drop | .iops_before > 5 * .iops_after and .iops_after > 0
	and .errors_at == 0 and .throttled_s == null
	and (.fall_pct - 100 * (.iops_before - .iops_after) / .iops_before | fabs) < 0.01' \
	"$json" >/dev/null || check_fail "slow: the drop's figures: $(jq -c .devices[0].drop "$json")"
at=$(jq -r '.devices[0].drop.at_s | round' "$json")
grep -Eq "^$name: IOPS dropped at $at s into the window, from [0-9]+ to [0-9]+ \(-[0-9]+%\), and stayed there; 0 IOs failed in that second$" "$T_OUT" ||
	{ check_fail "slow: no line naming the drop at $at s"; show_output; }

# ---- failing from COUNT on: the drop names the second's failures ----
echo "ok $count eio" >"$ctl"
run_iostorm run "${q[@]}" --time 6s --json "$json" "$dev"
echo ok >"$ctl"
[ "$T_RC" -eq 1 ] || { check_fail "eio: exit $T_RC, want 1"; show_output; }
read -r lo hi < <(drop_second)
jq -e --argjson lo "$lo" --argjson hi "$hi" '
	.devices[0] as $v | $v.drop as $d
	| $d != null and ((($d.at_s - $lo) | fabs) < 0.01 or (($d.at_s - $hi) | fabs) < 0.01)
	and $d.iops_after < $d.iops_before / 5 and $d.errors_at > 0
	and $d.errors_at == ([$v.timeline[] | select((.t_s - .dt_s - $d.at_s) | fabs < 0.01) | .errors] | add)
	and ([$v.timeline[].errors] | add) == $v.errors
' "$json" >/dev/null || check_fail "eio: the drop and its second's failures: $(jq -c .devices[0].drop "$json"), timeline reached $count IOs in $lo-$hi s"
grep -Eq "^$name: IOPS dropped at [0-9]+ s into the window, from [0-9]+ to [0-9]+ \(-[0-9]+%\), and stayed there; [1-9][0-9]* IOs? failed in that second$" "$T_OUT" ||
	{ check_fail "eio: no line naming the drop and its failures"; show_output; }

t_done
