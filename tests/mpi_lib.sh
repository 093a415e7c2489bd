# Helpers for the iostorm-mpi tests (tests/t_mpi*.sh), sourced after
# lib.sh. They run only under `make mpicheck`, which sets IOSTORM_MPI;
# elsewhere (make check without MPI) they skip.

# need_mpi: skip without iostorm-mpi or mpirun.
need_mpi() {
	[ -n "${IOSTORM_MPI:-}" ] || skip "IOSTORM_MPI not set (make mpicheck runs the MPI tests)"
	[ -x "$IOSTORM_MPI" ] || skip "no iostorm-mpi at $IOSTORM_MPI (make mpi)"
	need_cmd mpirun
}

# Every rank on this machine, each a "host" of its own; --bind-to none
# because a rank is a whole host, not one core.
MPIRUN=(mpirun --allow-run-as-root --oversubscribe --bind-to none)
# Open MPI under AddressSanitizer: its own allocations are not ours.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}

# run_mpi NP ARGS...: iostorm-mpi on NP ranks; stdout in $T_OUT, stderr in
# $T_ERR, exit status in $T_RC.
run_mpi() {
	local np=$1
	shift
	timeout -k 5 "$T_RUN_GUARD" "${MPIRUN[@]}" -np "$np" "$IOSTORM_MPI" "$@" \
		>"$T_OUT" 2>"$T_ERR" </dev/null
	T_RC=$?
}

# mpi_lines: iostorm-mpi's own lines on stderr (not mpirun's banners).
mpi_lines() {
	grep '^iostorm-mpi ' "$T_ERR"
}

# make_targets_file VAR LOOP...: a targets file with rank i on the i-th
# loop device (ranks share this machine's name, so rank numbers it is).
make_targets_file() {
	local _v=$1 _f=$T_DIR/targets _i=0 _l
	shift
	{
		echo "# rank, then its targets"
		for _l in "$@"; do
			echo "$_i $_l   # rank $_i"
			_i=$((_i + 1))
		done
	} >"$_f"
	printf -v "$_v" '%s' "$_f"
}
