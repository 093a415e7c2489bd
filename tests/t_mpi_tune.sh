# iostorm-mpi tune on 2 ranks, each a host with its own target: a job file
# that every rank would write over is refused before any IO, in one line;
# then each host tunes its own target within the budget (by its own
# report's elapsed_s), writes its own job file (%r in the path) naming its
# own target, which runs as is; rank 0 prints each host's search in rank
# order, and the knobs it names as disagreeing are exactly those whose
# winning values differ between the hosts' own reports, counted in the
# words too. Order and counts only. Runs under make mpicheck.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/mpi_lib.sh"
need_mpi
need_cmd jq

make_data_file f0 16
make_data_file f1 16
make_targets_file tf "$f0" "$f1"

# ---- refusals: one job file for every rank; a bad pattern ----
run_mpi 2 tune --stages placement --budget 1m --targets-file "$tf" --write-config "$T_DIR/one.ini"
{ [ "$T_RC" -eq 2 ] && mpi_lines | grep -q -- "--write-config .*put %r (the rank) or %h"; } ||
	{ check_fail "one job file for 2 ranks: exit $T_RC, want 2 and the line"; show_output; }
run_mpi 2 tune --stages placement --budget 1m --targets-file "$tf" --write-config "$T_DIR/%x.ini"
{ [ "$T_RC" -eq 2 ] && mpi_lines | grep -q "not %r (the rank), %h (the host) or %%"; } ||
	{ check_fail "a bad %: exit $T_RC, want 2 and the line"; show_output; }
[ -z "$(ls "$T_DIR"/*.ini 2>/dev/null)" ] || check_fail "a refused tune left a job file"

# ---- the search on both hosts ----
budget=45
run_mpi 2 tune --stages placement --budget ${budget}s --ramp 100ms --targets-file "$tf" \
	--write-config "$T_DIR/job%r.ini" --json "$T_DIR/t.json"
if [ "$T_RC" -ne 0 ]; then
	check_fail "mpi tune: exit $T_RC"
	show_output
	t_done
fi
jq -e --arg d "$T_DIR" --arg f0 "$f0" --arg f1 "$f1" --argjson b "$budget" '
	.command == "tune" and (.hosts | length == 2)
	and ([.hosts[].job_file] == [$d + "/job0.ini", $d + "/job1.ini"])
	and ([.hosts[].targets[0]] == [$f0, $f1])
	and all(.hosts[]; .tune.command == "tune" and .tune.tune.budget_s == $b
		and .tune.tune.elapsed_s <= 1.1 * $b and (.tune.tune.winner.knobs | length) == 9
		and (.tune.setup | type) == "object" and (has("text") | not))
' "$T_DIR/t.json" >/dev/null || { check_fail "mpi tune: the JSON"; jq -c '.hosts[] | del(.tune)' "$T_DIR/t.json" >&2; }

# the knobs named are those the hosts' own winners differ on, in order
jq -e '
	[.hosts[].tune.tune.winner.knobs] as $w
	| [$w[0] | keys_unsorted[] | select([$w[][.]] | unique | length > 1)] as $want
	| [.disagree[].knob] == $want
	and all(.disagree[]; [.values[].hosts[]] | length == 2)
' "$T_DIR/t.json" >/dev/null ||
	check_fail "mpi tune: disagree $(jq -c '[.disagree[].knob]' "$T_DIR/t.json") is not what the hosts' winners differ on"
n=$(jq '.disagree | length' "$T_DIR/t.json")
if [ "$n" -eq 0 ]; then
	grep -q '^hosts agree' "$T_OUT" || check_fail "mpi tune: no disagreement and no 'hosts agree'"
else
	grep -q "^hosts disagree on $n knob" "$T_OUT" || check_fail "mpi tune: no 'hosts disagree on $n knob'"
fi
# each host's search, in rank order, then the cluster's line
grep -n '^== .*(rank [01])' "$T_OUT" | sed 's/.*(rank \([01]\)).*/\1/' | tr -d '\n' | grep -qx 01 ||
	check_fail "mpi tune: the hosts' searches are not both there in rank order"
[ "$(grep -c '^winner: ' "$T_OUT")" -eq 2 ] || check_fail "mpi tune: not one winner line per host"

# each job file runs as is, on its own host's target
for r in 0 1; do
	eval "want=\$f$r"
	grep -qx "target = $want" "$T_DIR/job$r.ini" || check_fail "job$r.ini does not name $want"
	run_iostorm -c "$T_DIR/job$r.ini" --time 200ms --ramp 0 --json "$T_DIR/r$r.json"
	[ "$T_RC" -eq 0 ] && jq -e '.total.ios > 0' "$T_DIR/r$r.json" >/dev/null ||
		{ check_fail "iostorm -c job$r.ini: exit $T_RC"; show_output; }
done
t_done
