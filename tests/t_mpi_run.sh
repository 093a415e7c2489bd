# iostorm-mpi run on 2 ranks, each on its own loop device: the cluster's
# IOs are the sum of the hosts', its latency comes from the merged
# histograms (min and max are the hosts' extremes, percentiles ordered and
# within them), and both windows are reported. Two such runs with
# --repeat 2 compare per host and for the cluster, whose repeats are the
# sums of the hosts' repeat by repeat.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/mpi_lib.sh"
need_mpi
need_cmd jq

make_loop l0 32
make_loop l1 32
make_targets_file tf "$l0" "$l1"

run_mpi 2 run --qd 8 --ramp 100ms --time 500ms --targets-file "$tf" --json "$T_DIR/run.json"
if [ "$T_RC" -ne 0 ]; then
	check_fail "run: exit $T_RC"
	show_output
else
	jq -e '
		def num: type == "number";
		def close(a; b): ((a - b) | fabs) <= 1e-6 * ((b | fabs) + 1);
		.command == "run" and (.hosts | length == 2)
		and all(.hosts[]; .run.command == "run" and .run.total.ios > 0
			and (.cluster.window_start_ns|num))
		and .cluster.ios == ([.hosts[].run.total.ios] | add)
		and close(.cluster.iops; [.hosts[].run.total.iops] | add)
		and .cluster.lat_ns.min == ([.hosts[].run.total.lat_ns.min] | min)
		and .cluster.lat_ns.max == ([.hosts[].run.total.lat_ns.max] | max)
		and .cluster.lat_ns.p50 <= .cluster.lat_ns.p99
		and .cluster.lat_ns.p99 <= .cluster.lat_ns["p99.99"]
		and .cluster.lat_ns.p50 >= ([.hosts[].run.total.lat_ns.p50] | min) * 0.99
		and .cluster.lat_ns.p50 <= ([.hosts[].run.total.lat_ns.p50] | max) * 1.01
		and (.cluster.window_start_spread_s|num) and .cluster.window_start_spread_s >= 0
	' "$T_DIR/run.json" >/dev/null || { check_fail "run: the JSON does not add up"; cat "$T_DIR/run.json" >&2; }
	grep -q '^cluster ' "$T_OUT" || check_fail "run: no cluster row"
	grep -q '^latency: merged' "$T_OUT" || check_fail "run: no merged latency line"
fi

# ---- compare: per host and for the cluster ----
for k in a b; do
	run_mpi 2 run --qd 8 --ramp 100ms --time 300ms --repeat 2 --targets-file "$tf" \
		--json "$T_DIR/$k.json"
	[ "$T_RC" -eq 0 ] || { check_fail "run --repeat 2 ($k): exit $T_RC"; show_output; }
done
run_iostorm compare --json "$T_DIR/cmp.json" "$T_DIR/a.json" "$T_DIR/b.json"
if [ "$T_RC" -ne 0 ]; then
	check_fail "compare of two iostorm-mpi runs: exit $T_RC"
	show_output
else
	jq -e --slurpfile a "$T_DIR/a.json" '
		def close(x; y): ((x - y) | fabs) <= 1e-6 * ((y | fabs) + 1);
		[$a[0].hosts[].run.total.repeats.runs] as $h
		| ([range(2) as $i | [$h[][$i].iops] | add] | add / 2) as $mean
		| .comparisons[0].rows as $rows
		| ($rows | map(.key)) as $keys
		| ($keys | map(select(test("^[^:]+#[01]: loop[0-9]+$"))) | length) == 2
		and ($rows[] | select(.key == "cluster total") | .metrics[0]
			| .metric == "iops" and .base.n == 2 and close(.base.amean; $mean) and .tested)
	' "$T_DIR/cmp.json" >/dev/null ||
		{ check_fail "compare of two iostorm-mpi runs: rows $(jq -c '[.comparisons[0].rows[].key]' "$T_DIR/cmp.json")"; }
fi
t_done
