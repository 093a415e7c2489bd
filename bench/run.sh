#!/bin/bash
# make bench: iostorm side by side with fio's t/io_uring (the reference
# per-core engine) and with fio (io_uring with its best options), pinned to
# the same core, with the same depth and batch, on the same targets:
#  (c) 4K random reads at QD32, batch 32, without O_DIRECT, from a file in
#      the page cache: a 1 GiB file on tmpfs (/dev/shm) and a 16 MiB file in
#      BENCH_DIR, read once first. iostorm with latency timing against
#      t/io_uring -t1, iostorm --no-latency against t/io_uring -t0, and
#      iostorm against fio. The 16 MiB file fits in the CPU caches, so the
#      kernel's copy weighs less and the engines' own cost per IO shows;
#  (n) IORING_OP_NOP at QD128, batch 32: the engine alone;
#  (q) a loop device over a /dev/shm file with O_DIRECT at QD1 (IOPS and
#      p50 against t/io_uring -t1 and fio) and at QD32 (against fio);
#  (o) the open loop, iostorm --rate 1g (every IO always due), on the
#      cached 16 MiB file with the (c) case's options, beside that case's
#      closed iostorm: IOPS and IOs/CPU-s, no wall-clock target; after the
#      table, its instructions per IO against the closed loop's under
#      callgrind (bench/callgrind.sh, REPS=9), timed and --no-latency,
#      against issue 30's <= 1.30x (BENCH_NO_CALLGRIND=1 skips it;
#      valgrind is installed with apt-get where missing);
#  (m) three cached 16 MiB files from one thread on one core, QD32 each,
#      batch 32, no latency timing: iostorm --group on (one ring for the
#      three) against t/io_uring -n1 -d96 -s96 -c96 with the three files;
#  (s) after the table: two workers on two cores against one, on two
#      cached files (bench/scale.sh; BENCH_NO_SCALE=1 skips it);
#  (p) then NVMe passthrough in the emulated-NVMe rig: iostorm --engine
#      io_uring_cmd against t/io_uring -u1 on one QEMU drive, by interrupt
#      and polled, function only under TCG (bench/passthru.sh;
#      BENCH_NO_VM=1 skips it).
# Each round runs every case once, the tools one after the other, the
# order swapped every other round; the table shows medians over rounds and
# every ratio is the median of the rounds' own ratios (drift cancels).
# t/io_uring comes from bench/tio.sh (built once from Debian's fio source);
# where it cannot be had, its cases are skipped with the reason and the
# script exits non-zero at the end, as it does when any run failed.
# Latency: iostorm times submission to reap; so does fio's total "lat"
# (lat_percentiles=1) and t/io_uring's -t1 histogram (see compare.py's
# clock line). Env: IOSTORM (binary), BENCH_CPU (core, default the last
# one), BENCH_TIME (measured seconds per run, default 3, after 1 s of
# ramp), BENCH_REPS (rounds, default 5), BENCH_DIR (/var/tmp, for the
# 16 MiB file), BENCH_A_MIB (its size, default 16), BENCH_BIG_MIB (the
# tmpfs file, default 1024), BENCH_NO_TIO=1 (skip t/io_uring),
# BENCH_NO_CALLGRIND=1 (skip (o)'s instruction count),
# BENCH_KEEP=1 keeps the raw outputs; IOSTORM_BENCH_CACHE (bench/tio.sh).
# docs/bench.md maps each case to the three tools' options.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
IOSTORM=${IOSTORM:-$root/iostorm}
cpu=${BENCH_CPU:-$(($(nproc) - 1))}
secs=${BENCH_TIME:-3}
reps=${BENCH_REPS:-5}
dir=${BENCH_DIR:-/var/tmp}
a_mib=${BENCH_A_MIB:-16}
big_mib=${BENCH_BIG_MIB:-1024}
loop_mib=1024

die() { echo "bench: $*" >&2; exit 1; }
note() { echo "bench: $*" >&2; }
[ -x "$IOSTORM" ] || die "no iostorm binary at $IOSTORM (run make)"
command -v python3 >/dev/null || die "python3 is not installed"
command -v taskset >/dev/null || die "taskset is not installed (util-linux)"
[ "$(id -u)" -eq 0 ] || die "needs root (loop device)"
[ "$reps" -ge 1 ] 2>/dev/null || die "BENCH_REPS must be a positive count, not '$reps'"
[ "$secs" -ge 1 ] 2>/dev/null || die "BENCH_TIME must be whole seconds >= 1, not '$secs'"
if ! command -v fio >/dev/null; then
	note "fio is not installed; installing it with apt-get"
	apt-get -qq install -y fio >/dev/null 2>&1 ||
		{ apt-get -qq update && apt-get -qq install -y fio; } >/dev/null 2>&1 ||
		die "fio is not installed and apt-get install fio failed"
fi
# valgrind for (o)'s instruction count; where it cannot be had, its
# targets are not judged and the script exits non-zero at the end
cg_missing=""
if [ "${BENCH_NO_CALLGRIND:-0}" != 1 ] && ! command -v valgrind >/dev/null; then
	note "valgrind is not installed; installing it with apt-get"
	{ apt-get -qq install -y valgrind >/dev/null 2>&1 ||
		{ apt-get -qq update && apt-get -qq install -y valgrind; } >/dev/null 2>&1; } &&
		command -v valgrind >/dev/null ||
		cg_missing="valgrind is not installed and apt-get install valgrind did not provide it"
	[ -z "$cg_missing" ] || note "$cg_missing; (o)'s instruction targets will not be judged"
fi
shm_free=$(($(df -k --output=avail /dev/shm | tail -n 1) >> 10))
[ "$shm_free" -gt $((big_mib + loop_mib + 256)) ] ||
	die "/dev/shm has ${shm_free} MiB free; the bench needs $((big_mib + loop_mib)) MiB there"

work=$(mktemp -d "${TMPDIR:-/tmp}/iostorm-bench.XXXXXX")
file="" big="" shm="" loop="" child=""
cleanup() {
	set +e	# every step runs, whatever the one before it answered
	if [ -n "$child" ]; then
		kill "$child" 2>/dev/null
		wait "$child" 2>/dev/null
	fi
	[ -n "$loop" ] && losetup -d "$loop" 2>/dev/null
	rm -f ${shm:+"$shm"} ${big:+"$big"} ${file:+"$file"} ${file2:+"$file2"} ${file3:+"$file3"}
	if [ "${BENCH_KEEP:-0}" = 1 ]; then
		echo "raw outputs kept in $work" >&2
	else
		rm -rf "$work"
	fi
}
trap cleanup EXIT
# the runs are waited for in the background, so a signal is seen at once;
# the cleanup then stops the run in flight before it removes its target
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

# spawn CMD...: runs CMD so that a signal to this script can stop it
spawn() {
	local rc=0
	"$@" &
	child=$!
	wait "$child" || rc=$?
	child=""
	return "$rc"
}

fill() {	# real bytes: unwritten extents would read as zeros without IO
	head -c "$(($2 << 20))" /dev/urandom >"$1"
}

# t/io_uring and the TSC rate (Hz) that turns its -t1 ticks into time
tio="" tsc_hz=""
if [ "${BENCH_NO_TIO:-0}" = 1 ]; then
	note "BENCH_NO_TIO=1: skipping the t/io_uring cases"
	echo "BENCH_NO_TIO=1" >"$work/tio-missing"
elif tio=$("$here/tio.sh" 2>"$work/tio.err"); then
	cat "$work/tio.err" >&2	# what it installed or built, if anything
	if gcc -O2 -o "$work/tsc-hz" "$here/tsc-hz.c" 2>"$work/tsc.err" &&
		tsc_hz=$(taskset -c "$cpu" "$work/tsc-hz"); then
		:
	else
		note "no TSC rate for t/io_uring's ticks (see $work/tsc.err); its latency is left out"
		tsc_hz=""
	fi
else
	cat "$work/tio.err" >&2
	note "t/io_uring cannot be had; its cases are skipped"
	tail -n 1 "$work/tio.err" >"$work/tio-missing"
	tio=""
fi

file=$(mktemp "$dir/iostorm-bench.XXXXXX")
file2=$(mktemp "$dir/iostorm-bench.XXXXXX")
file3=$(mktemp "$dir/iostorm-bench.XXXXXX")
big=$(mktemp /dev/shm/iostorm-bench-big.XXXXXX)
shm=$(mktemp /dev/shm/iostorm-bench-loop.XXXXXX)
note "preparing a ${a_mib} MiB file in $dir, a ${big_mib} MiB file on /dev/shm and a ${loop_mib} MiB loop device on /dev/shm ..."
fill "$file" "$a_mib"
fill "$big" "$big_mib"
fill "$shm" "$loop_mib"
loop=$(losetup -f --show --direct-io=on "$shm") || die "losetup failed"
fill "$file2" "$a_mib"
fill "$file3" "$a_mib"
# into the page cache; the tmpfs file is in memory
cat "$file" "$file2" "$file3" >/dev/null

failed=0
# record NAME CMD...: one run; its output goes to $work/NAME.out, its
# errors to $work/NAME.err; a failed run is said and counted, not fatal
record() {
	local name=$1
	shift
	if ! spawn "$@" >"$work/$name.out" 2>"$work/$name.err"; then
		note "run $name failed: $(tail -n 1 "$work/$name.err")"
		rm -f "$work/$name.json"
		failed=$((failed + 1))
	fi
}

# iostorm NAME TARGET QD BATCH [ARGS...]
run_iostorm() {
	local name=$1 target=$2 qd=$3 batch=$4
	shift 4
	record "$name" taskset -c "$cpu" "$IOSTORM" run -q --cpus "$cpu" --qd "$qd" \
		--batch "$batch" --bs 4k --time "${secs}s" --ramp 1s \
		--json "$work/$name.json" "$@" "$target"
}

run_iostorm_nop() {
	local name=$1
	shift
	record "$name" taskset -c "$cpu" "$IOSTORM" nop -q --cpus "$cpu" --qd 128 \
		--batch 32 --time "${secs}s" --ramp 1s --json "$work/$name.json" "$@"
}

# t/io_uring NAME QD BATCH ARGS... : io_uring, interrupt completions (-p0),
# registered buffers, files and ring (-B1 -F1 -X1), random offsets, one
# thread; -r counts the ramp second and the second it stops in, neither of
# which it reports, so 'secs' per-second lines are measured after the ramp.
# No -T: its percentiles then come in TSC ticks, which compare.py converts
# with the measured rate, finer than the whole microseconds -T would print.
# It runs in $work, where no stray tsc-rate file can set its rate.
run_tio() {
	local name=$1 qd=$2 batch=$3
	shift 3
	[ -n "$tio" ] || return 0
	record "$name" sh -c 'cd "$1" && shift && exec "$@"' sh "$work" \
		taskset -c "$cpu" "$tio" -d"$qd" -s"$batch" -c"$batch" -b4096 -p0 -B1 \
		-F1 -X1 -R1 -n1 -r$((secs + 2)) "$@"
}

# fio NAME TARGET QD DIRECT SIZE_MIB [COMPLETE_MIN]: COMPLETE_MIN is how
# many completions a full queue waits for (default 1), like iostorm's
# --reap and t/io_uring's -c
run_fio() {
	local name=$1 target=$2 qd=$3 direct=$4 mib=$5 cmin=${6:-1}
	record "$name" fio --name=bench --filename="$target" --ioengine=io_uring \
		--rw=randread --bs=4k --iodepth="$qd" --direct="$direct" --fixedbufs=1 \
		--registerfiles=1 --sqthread_poll=0 --iodepth_batch_submit="$qd" \
		--iodepth_batch_complete_min="$cmin" --invalidate=0 --hipri=0 \
		--norandommap=1 --randrepeat=0 --thread=1 --cpus_allowed="$cpu" \
		--time_based=1 --runtime="$secs" --ramp_time=1 --size="${mib}M" \
		--lat_percentiles=1 --output-format=json --output="$work/$name.json"
}

# pair ROUND A B: runs the functions A then B, or B then A in even rounds,
# so that neither tool always runs right after the other's warm-up
pair() {
	if [ $(($1 % 2)) -eq 1 ]; then "$2"; "$3"; else "$3"; "$2"; fi
}

# The cases, as functions of the round's i and the case's key k, target t.
# Each tool waits for as many completions per call as t/io_uring's -c
# (its batch): iostorm --reap, fio iodepth_batch_complete_min.
c_lat() { run_iostorm "$k-iostorm-$i" "$t" 32 32 --buffered --reap 32; }
c_lat_tio() { run_tio "$k-tio-$i" 32 32 -O0 -t1 "$t"; }
# (o): the open loop on the same target, every IO due at once (1g per s)
c_open() { run_iostorm "$k-open-$i" "$t" 32 32 --buffered --rate 1g --reap 32; }
c_nolat() { run_iostorm "$k-nolat-$i" "$t" 32 32 --buffered --no-latency --reap 32; }
c_nolat_tio() { run_tio "$k-tio0-$i" 32 32 -O0 -t0 "$t"; }
c_nop() { run_iostorm_nop "nop-iostorm-$i" --reap 32; }
c_nop_tio() { run_tio "nop-tio-$i" 128 32 -N1 -t0; }
# (m): one CPU allowed, no --cpus: the three devices' workers are placed
# on it, and --group on makes them one worker with one ring
c_multi() {
	record "m3-iostorm-$i" taskset -c "$cpu" "$IOSTORM" run -q --group on --qd 32 \
		--batch 32 --reap 32 --bs 4k --buffered --no-latency --time "${secs}s" --ramp 1s \
		--json "$work/m3-iostorm-$i.json" "$file" "$file2" "$file3"
}
# t/io_uring at -s96 -c96: at -s32 it reads only the first file (a cached
# read completes in the call, so none is in flight when it picks the file;
# bench/multi.sh, docs/engine.md)
c_multi_tio() { run_tio "m3-tio-$i" 96 96 -O0 -t0 "$file" "$file2" "$file3"; }
c_q1() { run_iostorm "q1-iostorm-$i" "$loop" 1 1; }
c_q1_tio() { run_tio "q1-tio-$i" 1 1 -O1 -t1 "$loop"; }

for ((i = 1; i <= reps; i++)); do
	note "round $i/$reps ..."
	for k in c1g c16; do
		if [ "$k" = c1g ]; then t=$big mib=$big_mib; else t=$file mib=$a_mib; fi
		pair "$i" c_lat c_lat_tio
		# right after the closed iostorm in even rounds, one run later in odd
		if [ "$k" = c16 ]; then c_open; fi
		pair "$i" c_nolat c_nolat_tio
		run_fio "$k-fio-$i" "$t" 32 0 "$mib" 32
	done
	pair "$i" c_nop c_nop_tio
	pair "$i" c_multi c_multi_tio
	pair "$i" c_q1 c_q1_tio
	run_fio "q1-fio-$i" "$loop" 1 1 "$loop_mib"
	run_iostorm "q32-iostorm-$i" "$loop" 32 32
	run_fio "q32-fio-$i" "$loop" 32 1 "$loop_mib"
done

rc=0
python3 "$here/compare.py" "$work" "$reps" "$cpu" "$secs" "$tsc_hz" "$big_mib" \
	"$a_mib" || rc=$?
# (s) two workers on two cores against one (bench/scale.sh), same rounds
if [ "${BENCH_NO_SCALE:-0}" = 1 ]; then
	note "BENCH_NO_SCALE=1: no scaling check"
elif [ "$(nproc)" -lt 2 ]; then
	note "one CPU: no scaling check"
else
	note "scaling: 1 worker against 2, $reps rounds ..."
	SCALE_REPS=$reps SCALE_TIME=$secs SCALE_DIR=$dir IOSTORM=$IOSTORM \
		SCALE_CPUS="$cpu,$((cpu == 0 ? 1 : cpu - 1))" spawn "$here/scale.sh" ||
		{ note "the scaling check failed"; rc=1; }
fi
# (o) instructions per IO, open loop against closed (bench/callgrind.sh)
if [ "${BENCH_NO_CALLGRIND:-0}" = 1 ]; then
	note "BENCH_NO_CALLGRIND=1: no instruction count for the open loop"
else
	cg_reps=9	# as docs/engine.md's table
	if [ -n "$cg_missing" ]; then
		echo "$cg_missing" >"$work/callgrind.why"
	else
		note "open loop against closed under callgrind, REPS=$cg_reps, CPU $cpu ..."
		if ! BENCH_CPU=$cpu BENCH_DIR=$dir REPS=$cg_reps IOSTORM=$IOSTORM \
			spawn "$here/callgrind.sh" open closed open-untimed closed-untimed \
			>"$work/callgrind.out" 2>"$work/callgrind.err"; then
			echo "bench/callgrind.sh failed: $(tail -n 1 "$work/callgrind.err")" \
				>"$work/callgrind.why"
		fi
	fi
	python3 "$here/compare.py" --callgrind "$work" "$cg_reps" || rc=1
fi
# (p) passthrough in the rig (bench/passthru.sh), same rounds
if [ "${BENCH_NO_VM:-0}" = 1 ]; then
	note "BENCH_NO_VM=1: no passthrough case"
elif [ -z "$tio" ]; then
	note "no t/io_uring: no passthrough case"
else
	note "passthrough in the emulated-NVMe rig, $reps rounds ..."
	PT_REPS=$reps PT_TIME=$secs IOSTORM=$IOSTORM TIO=$tio spawn "$here/passthru.sh" ||
		{ note "the passthrough case failed"; rc=1; }
fi
if [ "$failed" -gt 0 ]; then
	note "$failed run(s) failed; their figures are missing above"
	rc=1
fi
exit "$rc"
