# Timelines: every measured run keeps one sample per
# second per device, and the samples add up: each device's samples' IOs
# are its row's IOs, the total's are the total's, the last sample ends at
# the window's end, and they are in order. For run, latency, each sweep
# point and each saturate step. A 2.5 s window has 3 samples (2 whole
# seconds and the last half).
. "$(dirname "$0")/lib.sh"
need_iostorm
need_cmd jq

make_loop a 64
make_loop b 64
json=$T_DIR/r.json

# a series adds up to ios, its t_s increase, and it ends at elapsed
adds_up='def adds_up(tl; ios; el):
	(tl | length) >= 1
	and ([tl[].ios] | add) == ios
	and ([range(1; tl | length) as $i | tl[$i].t_s > tl[$i - 1].t_s] | all)
	and ((tl[-1].t_s - el) | fabs) < 0.05
	and ([tl[] | .iops >= 0 and .dt_s > 0] | all);'

expect_ok run run -q --time 2.5 --ramp 0.3 --qd 4 --json "$json" "$a" "$b"
jq -e "$adds_up"'
	([.devices[] | adds_up(.timeline; .ios; .elapsed_s) and (.timeline | length) == 3
	  and ([.timeline[] | .p50_ns > 0 and .p99_ns >= .p50_ns and .max_ns >= .p99_ns] | all)]
	 | all)
	and adds_up(.total.timeline; .total.ios; .elapsed_s)' "$json" >/dev/null ||
	{ check_fail "run: the timelines do not add up"; jq -c '[.devices[], .total] | map({ios, elapsed_s, timeline})' "$json" >&2; }

expect_ok "run --no-latency" run -q --time 1.5 --ramp 0 --no-latency --json "$json" "$a"
jq -e "$adds_up"'
	.devices[0] | adds_up(.timeline; .ios; .elapsed_s) and .timeline[0].p50_ns == null' \
	"$json" >/dev/null || { check_fail "run --no-latency: no timeline, or a latency in it"; jq -c '.devices[0].timeline' "$json" >&2; }

expect_ok latency latency -q --time 2.5 --ramp 0 --json "$json" "$a"
jq -e "$adds_up"'
	.devices[0] | adds_up(.timeline; .ios; .elapsed_s)' "$json" >/dev/null ||
	{ check_fail "latency: the timeline does not add up"; jq -c '.devices[0]' "$json" >&2; }
jq -e '[.seconds[].ios] == [.devices[0].timeline[].ios]' "$json" >/dev/null ||
	check_fail "latency: its lines are not the timeline's samples"

expect_ok sweep sweep -q --qd 1,4 --time 1.5 --ramp 0 --json "$json" "$a" "$b"
jq -e "$adds_up"'
	[.points[] | adds_up(.timeline; .ios; .timeline[-1].t_s) and (.timeline | length) == 2] | all' \
	"$json" >/dev/null || { check_fail "sweep: the points' timelines do not add up"; jq -c '.points' "$json" >&2; }

expect_ok saturate saturate -q --qd 4 --time 1.5 --ramp 0 --json "$json" "$a" "$b"
jq -e "$adds_up"'
	[.devices[] | (.qd1.solo, .qdn.solo, .qd1.all, .qdn.all)
	 | adds_up(.timeline; .ios; .elapsed_s) and (.timeline | length) == 2] | all' \
	"$json" >/dev/null || { check_fail "saturate: the steps' timelines do not add up"; jq -c '.devices' "$json" >&2; }
t_done
