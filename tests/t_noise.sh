# What else the workers' CPU did is named (docs/cpu.md): a run whose worker
# shares its CPU with CPU hogs (pinned there with taskset) shows them in
# cpu.noise.other_cpu_pct, well above a run without them on the same CPU
# in this test, and its text names the CPU; every run's report carries the
# noise per device and in total. No figure is held to a time; a shared
# machine's own load moves the baseline, so the pair is measured again
# once (said) before it fails.
. "$(dirname "$0")/lib.sh"
need_iostorm
need_cmd jq taskset

make_data_file f 64
cpu=$(($(nproc) - 1))
hogs=()
stop_hogs() {
	local p
	for p in "${hogs[@]}"; do
		kill "$p" 2>/dev/null && wait "$p" 2>/dev/null
	done
	hogs=()
}
trap 'stop_hogs; t_cleanup' EXIT
# two spinning shells on the worker's CPU: the scheduler gives them two
# shares of it, whatever else runs there
start_hogs() {
	local i
	for i in 1 2; do
		taskset -c "$cpu" sh -c 'while :; do :; done' &
		hogs+=($!)
	done
}

run_on() {
	run_iostorm run --qd 32 --time 1s --ramp 200ms --cpus "$cpu" --json "$T_DIR/$1.json" "$f"
	[ "$T_RC" -eq 0 ] && [ -s "$T_DIR/$1.json" ] || { show_output; fail "$1: exit $T_RC"; }
	cp "$T_ERR" "$T_DIR/$1.err"
}

# pair: a run alone, then one beside the hogs; 0 when the hogs show
pair() {
	run_on alone
	start_hogs
	run_on hogged
	stop_hogs
	why=$(jq -n -r --slurpfile a "$T_DIR/alone.json" --slurpfile h "$T_DIR/hogged.json" \
		--argjson cpu "$cpu" '
		$a[0].devices[0].cpu.noise as $na | $h[0].devices[0].cpu.noise as $nh
		| if $nh.cpu != $cpu then "the hogged run names CPU \($nh.cpu), not \($cpu)"
		  elif $nh.other_cpu_pct < 30 then "other_cpu_pct \($nh.other_cpu_pct) beside two hogs"
		  elif $nh.other_cpu_pct < $na.other_cpu_pct + 10 then
			"other_cpu_pct \($nh.other_cpu_pct) beside the hogs, \($na.other_cpu_pct) alone"
		  else empty end')
	[ -z "$why" ] || return 1
	grep -q "shared CPU $cpu with other processes for [0-9]*% of its time" "$T_DIR/hogged.err" ||
		{ why="the hogged run's text does not name CPU $cpu: $(cat "$T_DIR/hogged.err")"; return 1; }
}
if ! pair; then
	first=$why
	if pair; then
		retried "the hogs did not show once: $first"
	else
		check_fail "$first; again: $why"
	fi
fi

# every report: the noise per device and in total, its figures in range
for r in alone hogged; do
	jq -e '[.devices[], .total] | all(.cpu.noise | . != null
		and ([.steal_pct, .other_cpu_pct, .irq_pct, .run_delay_pct]
		     | all(. == null or (. >= 0 and . <= 100.5)))
		and (.involuntary_switches | type) == "number"
		and (.run_delay_s == null or .run_delay_s >= 0))' "$T_DIR/$r.json" >/dev/null ||
		check_fail "$r: a noise object missing or out of range: $(jq -c '[.devices[], .total] | map(.cpu.noise)' "$T_DIR/$r.json")"
done
t_done
