#!/bin/bash
# iostorm tune's depth stage finds the depth a device is best at (issue
# 43): fusefault's peak device (tests/fusefault.c) answers each read
# PEAK_US after it came while 16 or fewer are in flight, and later by the
# square of the excess above, so its IOPS peaks at 16 reads in flight in
# all (8 and 32 give about half). The winner must put 16 in flight per
# device (jobs x qd: 1 x 16 or 2 x 8), proven better than the default (one
# job at QD32, where the device is at half its peak) in the final paired
# rounds, within the budget by the report's own elapsed_s. Nothing here
# times anything.
. "$(dirname "$0")/lib.sh"
need_iostorm
need_cmd jq

make_fault_loop dev ctl 64
echo peak >"$ctl"
json=$T_DIR/t.json
q=(--stages depth --ramp 200ms --no-zero-sample)

# the least budget for this machine's CPUs (the jobs tried follow them),
# as tune names it
run_iostorm tune "${q[@]}" --budget 10s "$dev"
least=$(sed -nE 's/.*it needs at least ([0-9]+)s.*/\1/p' "$T_ERR")
[ -n "$least" ] || { show_output; fail "tune named no least budget"; }
budget=$((least + 10))	# room for the final and the knobs after the least
expect_ok "tune, depth" tune "${q[@]}" --budget "${budget}s" --json "$json" "$dev" || t_done

jq -e --argjson b "$budget" '.tune.budget_s == $b and .tune.elapsed_s <= 1.1 * $b' "$json" >/dev/null ||
	check_fail "the budget: $(jq -c '.tune | {budget_s, elapsed_s}' "$json")"
jq -e '.tune.default | .jobs_per_device == 1 and .qd == 32' "$json" >/dev/null ||
	check_fail "the default: $(jq -c '.tune.default' "$json")"
# the peak: 16 in flight per device, whichever split of jobs and depth
jq -e '.tune.winner.config | .jobs_per_device * .qd == 16' "$json" >/dev/null ||
	check_fail "the winner is not at the peak (16 in flight): $(jq -c '.tune.winner.config | {jobs_per_device, qd}' "$json");" \
		"candidates: $(jq -c '[.tune.candidates[] | [.config.jobs_per_device, .config.qd, .figure, .survived]]' "$json")"
# proven a gain over the default, not kept on noise
jq -e '.tune.final.rounds >= 2 and .tune.final.verdict == "better" and .tune.final.change_pct > 0
	and .tune.undecided == null' "$json" >/dev/null ||
	check_fail "the final: $(jq -c '.tune.final | del(.base, .new)' "$json")"
echo "winner $(jq -c '.tune.winner.config | [.jobs_per_device, .qd]' "$json"):" \
	"$(jq -c '[.tune.final.change_pct, .tune.elapsed_s]' "$json")"
t_done
