# iostorm-mpi's report is never lost either: rank 0
# reserves --json FILE in the setup every rank agrees on, so a path in a
# missing folder or a directory stops every rank before any read, in one
# line (the loop device's read count does not move); a good path gets its
# report and no PATH.tmp-* is left. Runs under make mpicheck.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/mpi_lib.sh"
need_mpi
need_cmd jq

make_loop dev 16
mkdir "$T_DIR/good" "$T_DIR/isdir.json"
leftovers() { find "$T_DIR" -name '*.tmp-*' | head -1; }

for v in run saturate; do
	for p in "$T_DIR/none/m.json" "$T_DIR/isdir.json"; do
		before=$(dev_reads "$dev")
		run_mpi 2 $v -q --time 2s --ramp 0 --json "$p" "$dev"
		if [ "$T_RC" -ne 1 ] || [ -s "$T_OUT" ] || [ "$(mpi_lines | wc -l)" -ne 1 ] ||
		   ! mpi_lines | grep -q "^iostorm-mpi $v: .*(rank 0): $p: .*; every rank stops$"; then
			check_fail "mpi $v --json $p: want exit 1, one line naming it, got exit $T_RC"
			show_output
		fi
		[ "$(dev_reads "$dev")" = "$before" ] || check_fail "mpi $v --json $p: the target was read"
	done
	run_mpi 2 $v -q --time 200ms --ramp 0 --json "$T_DIR/good/mpi-$v.json" "$dev"
	[ "$T_RC" -eq 0 ] && jq -e '.schema == "iostorm/1"' "$T_DIR/good/mpi-$v.json" >/dev/null ||
		{ check_fail "mpi $v --json a good path: exit $T_RC or no report"; show_output; }
done
[ -z "$(leftovers)" ] || check_fail "mpi: temporary file left: $(leftovers)"
t_done
