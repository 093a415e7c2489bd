# iostorm-mpi saturate on 2 and then 3 ranks, each on its own loop device
# through --targets-file: one host entry per rank with its own target, the
# cluster figures are the sums of the hosts', a switch= shared by two
# ranks shows, and the table has a row per host and a verdict.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/mpi_lib.sh"
need_mpi
need_cmd jq

make_loop l0 32
make_loop l1 32
make_loop l2 32
q=(--qd 16 --ramp 100ms --time 300ms)

# check_json FILE NP: the shape and the sums
check_json() {
	jq -e --argjson n "$2" '
		def num: type == "number";
		def close(a; b): ((a - b) | fabs) <= 1e-6 * ((b | fabs) + 1);
		.schema == "iostorm/1" and .command == "saturate" and .mpi.ranks == $n
		and (.hosts | length == $n)
		and ([.hosts[].rank] == [range($n)])
		and all(.hosts[]; .devices == 1 and (.saturate.devices | length == 1)
			and .saturate.command == "saturate"
			and (.saturate.system.qdn.all_iops|num) and .saturate.system.qdn.all_iops > 0
			and (.cluster.qd1.iops|num) and .cluster.qd1.iops > 0
			and (.cluster.qdn.iops|num) and .cluster.qdn.iops > 0
			and (.cluster.qdn.window_start_ns|num) and (.cluster.qdn.window_end_ns|num)
			and .cluster.qdn.window_end_ns > .cluster.qdn.window_start_ns
			and close(.alone_iops; .saturate.system.qdn.all_iops)
			and close(.cluster_iops; .cluster.qdn.iops)
			and close(.loss_pct; 100 * (.alone_iops - .cluster_iops) / .alone_iops)
			and close(.solo_sum_iops; .saturate.system.qdn.solo_sum_iops)
			and (.saturate.setup.machine.kernel | type == "string")
			and (.saturate.setup.devices | length == 1)
			and .saturate.setup.devices[0].name == (.targets[0] | ltrimstr("/dev/")))
		and .cluster.hosts == $n
		and close(.cluster.qdn.all_iops; [.hosts[].cluster.qdn.iops] | add)
		and close(.cluster.qd1.all_iops; [.hosts[].cluster.qd1.iops] | add)
		and close(.cluster.qdn.alone_sum_iops; [.hosts[].saturate.system.qdn.all_iops] | add)
		and close(.cluster.qd1.alone_sum_iops; [.hosts[].saturate.system.qd1.all_iops] | add)
		and close(.cluster.qdn.gap_iops; .cluster.qdn.alone_sum_iops - .cluster.qdn.all_iops)
		and (.cluster.qdn.window_start_spread_s|num) and .cluster.qdn.window_start_spread_s >= 0
		and (.findings | type == "array") and (.verdict.text | length > 0)
		and all(.findings[]; (.values | type == "object" and length > 0) and (.worst | type == "array"))
		and .interrupted == false
	' "$1" >/dev/null
}

# 2 ranks
make_targets_file tf "$l0" "$l1"
run_mpi 2 saturate "${q[@]}" --targets-file "$tf" --json "$T_DIR/two.json"
if [ "$T_RC" -ne 0 ]; then
	check_fail "2 ranks: exit $T_RC"
	show_output
else
	check_json "$T_DIR/two.json" 2 || { check_fail "2 ranks: the JSON does not add up"; cat "$T_DIR/two.json" >&2; }
	[ "$(jq -r '[.hosts[].targets[0]] | join(" ")' "$T_DIR/two.json")" = "$l0 $l1" ] ||
		check_fail "2 ranks: a rank did not read its own line's target"
	[ "$(grep -c '^verdict: ' "$T_OUT")" -eq 1 ] || check_fail "2 ranks: not one verdict line"
	for r in 0 1; do
		grep -q "^[^ ]*#$r " "$T_OUT" || check_fail "2 ranks: no table row for rank $r"
	done
	grep -q '^cluster ' "$T_OUT" || check_fail "2 ranks: no cluster row"
	# compare reads it per host and for the cluster: the cluster's all at
	# once is every host's devices summed
	run_iostorm compare --json "$T_DIR/cmp.json" "$T_DIR/two.json" "$T_DIR/two.json"
	[ "$T_RC" -eq 0 ] || { check_fail "compare of the 2-rank report: exit $T_RC"; show_output; }
	jq -e --slurpfile r "$T_DIR/two.json" '
		def close(x; y): ((x - y) | fabs) <= 1e-6 * ((y | fabs) + 1);
		([$r[0].hosts[].saturate.devices[].qdn.all.iops] | add) as $sum
		| [.comparisons[0].rows[].key] as $k
		| ($k | map(select(test("^[^:]+#[01]: loop[0-9]+ QDn all$"))) | length) == 2
		and (.comparisons[0].rows[] | select(.key == "cluster QDn all") | .metrics[0]
			| .metric == "iops" and close(.base.center; $sum) and .change_pct == 0)
	' "$T_DIR/cmp.json" >/dev/null ||
		check_fail "compare of the 2-rank report: rows $(jq -c '[.comparisons[0].rows[].key]' "$T_DIR/cmp.json")"
fi

# 3 ranks, two of them behind one switch, rank 2 named by the host name
# with a line of its own rank after it, which wins
h=$(hostname)
{
	echo "0 $l0 switch=leaf1"
	echo "1 switch=leaf1 $l1"
	echo "$h /nonexistent/never-used   # every rank's host: their own lines win"
	echo "2 switch=leaf2 $l2"
} >"$T_DIR/three"
run_mpi 3 saturate "${q[@]}" --targets-file "$T_DIR/three" --json "$T_DIR/three.json"
if [ "$T_RC" -ne 0 ]; then
	check_fail "3 ranks: exit $T_RC"
	show_output
else
	check_json "$T_DIR/three.json" 3 || { check_fail "3 ranks: the JSON does not add up"; cat "$T_DIR/three.json" >&2; }
	[ "$(jq -r '[.hosts[].switch] | join(" ")' "$T_DIR/three.json")" = "leaf1 leaf1 leaf2" ] ||
		check_fail "3 ranks: switch= not per host"
	grep -Eq '^  switch leaf1: [^ ]+#0 [^ ]+#1$' "$T_OUT" || { check_fail "3 ranks: no shared switch line"; show_output; }
fi

# one rank found by its host name alone
echo "$h $l1 # by name" >"$T_DIR/byname"
run_mpi 1 saturate "${q[@]}" --targets-file "$T_DIR/byname" --json "$T_DIR/one.json"
if [ "$T_RC" -ne 0 ]; then
	check_fail "by host name: exit $T_RC"
	show_output
else
	jq -e --arg l "$l1" '.hosts[0].targets == [$l] and .hosts[0].targets_from == "targets file"' \
		"$T_DIR/one.json" >/dev/null || check_fail "by host name: not the host's line"
fi
t_done
