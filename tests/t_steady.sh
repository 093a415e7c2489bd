# --steady PCT,DURATION: a run that settles stops once its last DURATION
# of per-second IOPS is steady and reports that window alone; one that
# keeps changing runs to --time and says it never settled. On a loop device
# on the fault file system (tests/fusefault.c), in a band of 50% (a
# sanitizer's build on a busy machine starves the worker for part of a
# second now and then):
#   - settles: read by an open loop of 2000 IOs a second, its first 750
#     reads each take 2 ms (slow: 1.5 s at 500 a second), then
#     all are served at once (the backlog caught up in the next second):
#     the seconds after the slow start are even.
#     steady.reached, the run stops at at_s (the report's own seconds:
#     at most the remainder of a second after it), the device's IOs are its timeline's in the
#     window, its window is DURATION long, and its latency is the window's
#     (its max the window's seconds' max, below the slow start's); no drop
#     is named;
#   - keeps changing: read as fast as it answers, each read waits 100 us
#     doubled every second (decay), so each second has half the IOs of the
#     one before (within the band of 50% around their mean, but the
#     slope is 133% over the window): never reached, the whole run
#     reported, the line says so.
# And the refusals: --steady with --ios, with --repeat, a window longer
# than --time, not whole seconds, a bad figure.
. "$(dirname "$0")/lib.sh"
need_iostorm
need_cmd jq

make_fault_loop dev ctl 64
json=$T_DIR/r.json
q=(-q --ramp 0 --qd 8 --no-zero-sample --time 6s --steady 50%,2s)

# ---- settles after a slow start ----
echo "slow 750 ok" >"$ctl"
expect_ok "a device that settles" run "${q[@]}" --rate 2000 --json "$json" "$dev"
echo ok >"$ctl"
jq -e '.config.steady == {pct: 50, window_s: 2, lat: false}' "$json" >/dev/null ||
	check_fail "settles: config.steady is $(jq -c .config.steady "$json")"
jq -e '
	.steady as $s | .devices[0] as $d
	| [$d.timeline[] | select(.t_s > $s.at_s - 2 + 0.5 and .t_s <= $s.at_s)] as $w
	| $s.reached and $s.at_s >= 2 and $s.iops_dev_pct <= 50 and $s.iops_slope_pct <= 50
	and $s.lat_dev_pct == null
	and ([$d.timeline[] | select(.t_s > $s.at_s) | .dt_s] | length <= 1 and all(. < 0.5))
	and ($w | length) == 2
	and $d.ios == ([$w[].ios] | add) and .total.ios == $d.ios
	and (($d.elapsed_s - ([$w[].dt_s] | add)) | fabs) < 1e-6
	and (($d.elapsed_s - 2) | fabs) < 0.1
	and (($d.iops - $d.ios / $d.elapsed_s) | fabs) < 1
	and (($d.ios_per_call - .total.ios_per_call) | fabs) < 1e-9
	and $d.ios_per_call > ($d.ios + $d.errors) / $d.calls
	and $d.lat_ns.max == ([$w[].max_ns] | max) and $d.lat_ns.max < $d.timeline[0].max_ns
	and $d.drop == null
' "$json" >/dev/null || check_fail "settles: the steady window's figures: $(jq -c '[.steady, .devices[0].ios, .devices[0].elapsed_s, .devices[0].lat_ns.p99, .devices[0].lat_ns.max, [.devices[0].timeline[] | [.t_s, .ios, .max_ns]]]' "$json")"
at=$(jq -r '.steady.at_s | round' "$json")
grep -Eq "^steady state reached at $at s: the last 2 s of IOPS within [0-9.]+% of their mean, the slope [0-9.]+% over the window; the figures above are of that window$" "$T_OUT" ||
	{ check_fail "settles: no line saying so at $at s"; show_output; }

# ---- keeps changing ----
echo decay >"$ctl"
expect_ok "a device that keeps changing" run "${q[@]}" --json "$json" "$dev"
echo ok >"$ctl"
jq -e '
	.steady as $s | .devices[0] as $d
	| ($s.reached | not) and $s.at_s == null and $s.iops_slope_pct > 50
	and $d.ios == ([$d.timeline[].ios] | add)
	and $d.elapsed_s > 5
' "$json" >/dev/null || check_fail "keeps changing: $(jq -c '[.steady, .devices[0].ios, [.devices[0].timeline[].ios]]' "$json")"
grep -Eq "^steady state never reached: the last 2 s of IOPS were [0-9.]+% from their mean, the slope [0-9.]+% over the window; the figures above are of the whole run$" "$T_OUT" ||
	{ check_fail "keeps changing: no line saying it never settled"; show_output; }

# ---- refusals: one line, exit 2, before any IO ----
expect_error "--steady with --ios" 2 "^iostorm run: --steady .*--ios" run -q --steady 5% --ios 1k "$dev"
expect_error "--steady with --repeat" 2 "^iostorm run: --steady .*--repeat 2" run -q --steady 5% --repeat 2 "$dev"
expect_error "--steady longer than --time" 2 "^iostorm run: --steady's window of 30 s does not fit in --time" run -q --steady 5% --time 10s "$dev"
expect_error "--steady not whole seconds" 2 "--steady: '2500ms' is not whole seconds" run -q --steady 5%,2500ms "$dev"
expect_error "--steady, a bad figure" 2 "--steady: unknown figure 'bw'" run -q --steady 5%,2s,bw "$dev"
expect_error "--steady 0%" 2 "--steady: '0%' is not above 0%" run -q --steady 0%,2s "$dev"
expect_error "--steady under 2 s" 2 "--steady: '1s' is below 2s, the least it takes" run -q --steady 5%,1s "$dev"

t_done
