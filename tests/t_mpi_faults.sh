# iostorm-mpi's faults end the job cleanly: a bad target on one rank stops
# every rank with one line naming that rank; a bad targets file is one
# line, exit 2, from rank 0 alone; a rank killed mid-run ends the job (Open
# MPI's mpirun aborts it) instead of leaving rank 0 waiting. Nothing waits a
# guessed time: rank 1 is killed once its loop device has done reads, and
# the only time limits are guards against a hang (run_mpi's timeout).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/mpi_lib.sh"
need_mpi

make_loop l0 32
make_loop l1 32
q=(--qd 16 --ramp 100ms --time 300ms)

# expect_mpi_error WHAT CODE PATTERN: exit CODE, nothing on stdout, one
# line of iostorm-mpi's own on stderr, matching PATTERN.
expect_mpi_error() {
	local what=$1 code=$2 pat=$3 n
	n=$(mpi_lines | wc -l)
	if [ "$T_RC" -ne "$code" ]; then
		check_fail "$what: exit $T_RC, want $code"
		show_output
	elif [ -s "$T_OUT" ]; then
		check_fail "$what: something on stdout"
		show_output
	elif [ "$n" -ne 1 ]; then
		check_fail "$what: $n lines of iostorm-mpi on stderr, want 1"
		show_output
	elif ! mpi_lines | grep -Eq -- "$pat"; then
		check_fail "$what: stderr does not match /$pat/"
		show_output
	fi
}

# a bad target on rank 1 of 2, for saturate and for run
printf '0 %s\n1 /nonexistent/iostorm-x\n' "$l0" >"$T_DIR/bad"
# (a job left waiting is ended by run_mpi's timeout: exit 124, not 1)
for verb in saturate run; do
	run_mpi 2 "$verb" "${q[@]}" --targets-file "$T_DIR/bad"
	expect_mpi_error "$verb, bad target on rank 1" 1 \
		"^iostorm-mpi $verb: [^ ]+ \(rank 1\): /nonexistent/iostorm-x: .*; every rank stops$"
done

# a bad file: same fault on every rank, said once, a usage error
printf '0 %s colour=red\n1 %s\n' "$l0" "$l1" >"$T_DIR/badkey"
run_mpi 2 saturate "${q[@]}" --targets-file "$T_DIR/badkey"
expect_mpi_error "unknown key" 2 "badkey:1: unknown key 'colour'"
printf '0 %s\n0 %s\n' "$l0" "$l1" >"$T_DIR/twice"
run_mpi 2 saturate "${q[@]}" --targets-file "$T_DIR/twice"
expect_mpi_error "a rank twice" 2 "twice:2: '0' has a line already \(line 1\)"
run_mpi 2 saturate "${q[@]}" --targets-file "$T_DIR/missing"
expect_mpi_error "missing file" 2 "--targets-file .*missing: No such file"
# rank 1 has no line, and no NVMe here (or the test would read it)
if [ ! -d /sys/class/nvme ] || [ -z "$(ls /sys/class/nvme 2>/dev/null)" ]; then
	printf '0 %s\n' "$l0" >"$T_DIR/only0"
	run_mpi 2 saturate "${q[@]}" --targets-file "$T_DIR/only0"
	expect_mpi_error "no line, no NVMe" 2 "\(rank 1\): no targets: no line for it in .*only0.*--demo"
fi
run_mpi 2 saturate --qd 0 "$l0"
expect_mpi_error "--qd 0" 2 -- "--qd"
run_mpi 2 frobnicate
expect_mpi_error "unknown command" 2 "unknown command 'frobnicate'"

# rank 1 killed in its first step, once its loop device has done reads
# (it is measuring): mpirun must end the job, non-zero
printf '0 %s\n1 %s\n' "$l0" "$l1" >"$T_DIR/good"
r1=$(dev_reads "$l1")
"${MPIRUN[@]}" -np 2 "$IOSTORM_MPI" run --qd 16 --ramp 100ms --time 60s \
	--targets-file "$T_DIR/good" >"$T_OUT" 2>"$T_ERR" </dev/null &
mpirun_pid=$!
victim=
for ((i = 0; i < 100; i++)); do
	[ -z "$victim" ] || break
	sleep 0.1
	for p in $(pgrep -P "$mpirun_pid"); do
		if tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx 'OMPI_COMM_WORLD_RANK=1'; then
			victim=$p
		fi
	done
done
if [ -z "$victim" ]; then
	kill -9 "$mpirun_pid" 2>/dev/null
	check_fail "killed rank: no rank 1 under mpirun $mpirun_pid"
else
	for ((i = 0; i < 300; i++)); do
		[ "$(dev_reads "$l1")" -gt $((r1 + 1000)) ] && break
		sleep 0.1
	done
	[ "$(dev_reads "$l1")" -gt $((r1 + 1000)) ] || check_fail "killed rank: rank 1 never read $l1"
	kill -9 "$victim"
	# a guard against a job left hanging, not a measure
	for ((i = 0; i < 600; i++)); do
		kill -0 "$mpirun_pid" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$mpirun_pid" 2>/dev/null; then
		check_fail "killed rank: mpirun still running a minute later"
		for p in $(pgrep -P "$mpirun_pid"); do
			kill -9 "$p"
		done
		kill -9 "$mpirun_pid"
	fi
	wait "$mpirun_pid"
	rc=$?
	[ "$rc" -ne 0 ] || check_fail "killed rank: mpirun exited 0"
	grep -q 'rank 1 .*exited on signal 9' "$T_ERR" ||
		{ check_fail "killed rank: mpirun did not say which rank died"; show_output; }
fi
t_done
