# --stream under iostorm-mpi: each rank writes its own stream, its path's
# %r the rank (or %h the host): a header with its rank and "mpi-run", a
# window, its intervals, and an end line with its own host's entry (what
# rank 0 gathers into hosts[]), whose IOs are its intervals' IOs; the two
# streams' IOs add up to the cluster's, and iostorm merge of them gives
# the cluster's IOs and p99. saturate: a window per step. A path that would have every rank
# write one file, or a '%' it does not know, stops every rank before any IO
# with one line, exit 2.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/mpi_lib.sh"
need_mpi
need_cmd jq

make_loop l0 32
make_loop l1 32
make_targets_file tf "$l0" "$l1"

run_mpi 2 run --qd 8 --ramp 0 --time 1s --interval 250ms --targets-file "$tf" \
	--json "$T_DIR/run.json" --stream "$T_DIR/s.%r.jsonl"
[ "$T_RC" -eq 0 ] || { check_fail "run: exit $T_RC"; show_output; }
for r in 0 1; do
	jq -e -s --argjson r "$r" --arg d "$([ "$r" -eq 0 ] && echo "${l0#/dev/}" || echo "${l1#/dev/}")" '
		.[0].type == "header" and .[0].rank == $r and .[0].command == "mpi-run"
		and .[1].type == "window" and .[1].devices == [$d]
		and .[-1].type == "end" and .[-1].how == "completed" and .[-1].report.rank == $r
		and ([.[] | select(.type == "interval" and .device == $d) | .ios] | add)
			== .[-1].report.run.devices[0].ios
	' "$T_DIR/s.$r.jsonl" >/dev/null ||
		check_fail "run: rank $r's stream is not its header, window, intervals and own end: $(jq -c '[.type, .rank, .device, .ios]' "$T_DIR/s.$r.jsonl" 2>&1 | head -20)"
done
jq -e -s --slurpfile c "$T_DIR/run.json" '
	[.[] | select(.type == "interval" and .device == null) | .ios] | add == $c[0].cluster.ios
' "$T_DIR/s.0.jsonl" "$T_DIR/s.1.jsonl" >/dev/null ||
	check_fail "run: the streams' IOs are not the cluster's"
# iostorm merge of the ranks' streams is the cluster's report again, and
# its first interval (on the 250 ms grid) is a window of its own
expect_ok "merge" merge --json "$T_DIR/m.json" "$T_DIR/s.0.jsonl" "$T_DIR/s.1.jsonl"
jq -e -n --slurpfile m "$T_DIR/m.json" --slurpfile c "$T_DIR/run.json" '
	$m[0].total.ios == $c[0].cluster.ios and ($m[0].hosts | length) == 2
	and $m[0].total.lat_ns.p99 == $c[0].cluster.lat_ns.p99' >/dev/null ||
	check_fail "merge: the ranks' streams merged are not the cluster's IOs and p99"
expect_ok "merge --to 250ms" merge --to 250ms "$T_DIR/s.0.jsonl" "$T_DIR/s.1.jsonl"

# saturate: each rank's stream has a window per step it measured (its own
# devices alone and together at QD1 and QDn, then the cluster's two steps),
# each ended, and the rank's own saturate result in its end line
run_mpi 2 saturate -q --time 300ms --ramp 0 --targets-file "$tf" --stream "$T_DIR/sat.%r.jsonl"
[ "$T_RC" -eq 0 ] || { check_fail "saturate: exit $T_RC"; show_output; }
for r in 0 1; do
	jq -e -s --argjson r "$r" '
		[.[] | select(.type == "window") | .run] as $w
		| .[0].command == "mpi-saturate" and .[0].rank == $r and $w == [0, 1, 2, 3, 4, 5]
		and ([.[] | select(.type == "interval" and .last and .device == null) | .run]) == $w
		and .[-1].type == "end" and .[-1].report.rank == $r
		and (.[-1].report.saturate | type == "object")
	' "$T_DIR/sat.$r.jsonl" >/dev/null ||
		check_fail "saturate: rank $r's stream has not a window per step: $(jq -c 'select(.type != "interval") | [.type, .run, .label]' "$T_DIR/sat.$r.jsonl" 2>&1 | head -20)"
done

# refused on every rank, before any IO
before=$(($(dev_reads "$l0") + $(dev_reads "$l1")))
run_mpi 2 run --time 1s --targets-file "$tf" --stream "$T_DIR/one.jsonl"
[ "$T_RC" -eq 2 ] && [ "$(mpi_lines | grep -c 'put %r (the rank) or %h')" -ge 1 ] ||
	{ check_fail "one path for two ranks: exit $T_RC, or not said"; show_output; }
run_mpi 2 run --time 1s --targets-file "$tf" --stream "$T_DIR/s.%x"
[ "$T_RC" -eq 2 ] && mpi_lines | grep -q "a '%' that is not %r" ||
	{ check_fail "an unknown %: exit $T_RC, or not said"; show_output; }
[ "$(($(dev_reads "$l0") + $(dev_reads "$l1")))" -eq "$before" ] || check_fail "refusals: a target was read"
[ ! -e "$T_DIR/one.jsonl" ] || check_fail "one path for two ranks: the file was made"
t_done
