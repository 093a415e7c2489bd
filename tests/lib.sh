# Shared helpers for the shell integration tests (tests/t_*.sh), sourced:
#   . "$(dirname "$0")/lib.sh"
# Exit codes follow the runner: 0 pass, 1 fail, 77 skip (last line = reason).
# Everything made here (files, loop devices, mounts, temp dirs) is removed by
# one EXIT trap, also when a check fails or the test is interrupted.

set -u

IOSTORM=${IOSTORM:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/iostorm}
T_NAME=$(basename "$0" .sh)
T_FAILED=0
T_FAILED_WHAT=
T_LOOPS=()
T_FILES=()
T_MOUNTS=()
T_FUSE=()
T_SYSFS=()	# "FILE VALUE": restored by the EXIT trap
T_DIR=$(mktemp -d "${TMPDIR:-/tmp}/iostorm-$T_NAME.XXXXXX") || exit 1
T_OUT=$T_DIR/stdout
T_ERR=$T_DIR/stderr

t_cleanup() {
	local i
	# a held FUSE read blocks whoever issued it, unkillably, until answered
	for i in "${T_FUSE[@]}"; do
		echo ok >"$i/ctl" 2>/dev/null
	done
	for i in "${T_SYSFS[@]}"; do
		echo "${i#* }" >"${i%% *}" 2>/dev/null
	done
	for ((i = ${#T_MOUNTS[@]} - 1; i >= 0; i--)); do
		umount -l "${T_MOUNTS[i]}" 2>/dev/null
	done
	for i in "${T_LOOPS[@]}"; do
		losetup -d "$i" 2>/dev/null || echo "could not detach $i" >&2
	done
	# after the loop devices: a file one of them holds keeps the mount busy
	for i in "${T_FUSE[@]}"; do
		fusermount3 -u "$i" 2>/dev/null || umount -l "$i" 2>/dev/null
	done
	for i in "${T_FILES[@]}"; do
		rm -f -- "$i"
	done
	rm -rf -- "$T_DIR"
}
trap t_cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# skip REASON: this test cannot run here. After a failed check it is a
# failure instead, naming the check: a skip must never hide one.
skip() {
	if [ "$T_FAILED" -ne 0 ]; then
		echo "FAIL: skipped ($*) after a failed check: $T_FAILED_WHAT" >&2
		exit 1
	fi
	echo "skip: $*"
	exit 77
}

# fail MESSAGE: stop now, failed.
fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# check_fail MESSAGE: note a failure and go on; end with t_done.
check_fail() {
	echo "FAIL: $*" >&2
	[ "$T_FAILED" -ne 0 ] || T_FAILED_WHAT=$*
	T_FAILED=1
}

# retried WHAT: a check that failed once passed when run again; the runner
# prints "PASS name (retried)" and counts it, so a retry is never silent.
retried() {
	echo "retried: $*"
}

t_done() {
	exit "$T_FAILED"
}

need_root() {
	[ "$(id -u)" -eq 0 ] || skip "${1:-this test} needs root"
}

need_cmd() {
	local c
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 || skip "$c is not installed"
	done
}

need_iostorm() {
	[ -x "$IOSTORM" ] || fail "no iostorm binary at $IOSTORM (set IOSTORM)"
}

# make_data_file VAR SIZE_MIB [DIR]: a new file of real random bytes (not
# fallocate: unwritten extents read as zeros without doing IO); its path
# goes into VAR.
make_data_file() {
	# locals are prefixed: printf -v must not land on one of them
	local _v=$1 _mib=$2 _dir=${3:-/var/tmp} _f
	_f=$(mktemp "$_dir/iostorm-$T_NAME.XXXXXX") || fail "mktemp in $_dir"
	T_FILES+=("$_f")
	head -c "$((_mib << 20))" /dev/urandom >"$_f" || fail "writing $_f"
	sync "$_f" 2>/dev/null
	printf -v "$_v" '%s' "$_f"
}

# make_loop VAR SIZE_MIB [SECTOR_SIZE]: a loop device (direct IO) over a
# new /dev/shm file; skips where root or losetup is missing or refused.
make_loop() {
	local _v=$1 _mib=$2 _ss=${3:-512} _back _dev
	need_root "a loop device"
	need_cmd losetup
	make_data_file _back "$_mib" /dev/shm
	_dev=$(losetup -f --show --direct-io=on --sector-size "$_ss" "$_back" 2>/dev/null) ||
		_dev=$(losetup -f --show --sector-size "$_ss" "$_back" 2>/dev/null) ||
		skip "losetup is not allowed here"
	[[ $_dev == /dev/loop* ]] || skip "losetup printed no loop device"
	T_LOOPS+=("$_dev")
	printf -v "$_v" '%s' "$_dev"
}

# make_fault_loop VAR CTLVAR SIZE_MIB: a loop device over the file of a
# fusefault mount (tests/fusefault.c) in $T_DIR, and its control file:
# echo eio (or hang, or ok) >"$CTLVAR". A schedule counted in reads
# ("ok 200 hang") counts from the command's first read, and each command
# first samples its targets for never-written blocks (cli/runner/drive.h):
# a run whose schedule is set before it starts passes --no-zero-sample. The EXIT trap answers held reads
# first, then detaches and unmounts. Skips without root, /dev/fuse,
# fusermount3 or the fusefault binary (built only where libfuse3 is).
make_fault_loop() {
	local _v=$1 _c=$2 _mib=$3 _ff=${TESTBIN:-}/fusefault _d _dev _q
	need_root "a loop device on FUSE"
	need_cmd losetup fusermount3
	[ -c /dev/fuse ] || skip "no /dev/fuse"
	[ -x "$_ff" ] || skip "no $_ff (libfuse3-dev missing when it was built?)"
	_d=$T_DIR/fuse${#T_FUSE[@]}
	mkdir -p "$_d"
	"$_ff" "$_d" "$_mib" 2>/dev/null || skip "cannot mount a FUSE file system here"
	T_FUSE+=("$_d")
	# direct IO keeps the loop device's page cache out of the way; FUSE may
	# refuse it
	_dev=$(losetup -f --show --direct-io=on "$_d/data" 2>/dev/null) ||
		_dev=$(losetup -f --show "$_d/data" 2>/dev/null) ||
		skip "losetup on a FUSE file is not allowed here"
	[[ $_dev == /dev/loop* ]] || skip "losetup printed no loop device"
	T_LOOPS+=("$_dev")
	# no merging: each read iostorm sends is one read the fault file
	# system counts (its schedules count reads), never two merged into one
	_q=/sys/block/${_dev#/dev/}/queue/nomerges
	T_SYSFS+=("$_q $(cat "$_q")")
	echo 2 >"$_q" || fail "cannot turn off merging on $_dev"
	printf -v "$_v" '%s' "$_dev"
	printf -v "$_c" '%s' "$_d/ctl"
}

# make_ramfs VAR: a ramfs mount (it refuses O_DIRECT) in a temp dir.
make_ramfs() {
	local _v=$1 _d=$T_DIR/ram
	need_root "mounting ramfs"
	mkdir -p "$_d"
	mount -t ramfs iostorm-test "$_d" 2>/dev/null || skip "cannot mount ramfs here"
	T_MOUNTS+=("$_d")
	printf -v "$_v" '%s' "$_d"
}

# workers PID: how many of PID's threads are iostorm's workers, named
# iostorm-wN by the engine (not its main thread, a sanitizer's own, nor
# io_uring's iou-* threads).
workers() {
	local n=0 t
	for t in /proc/"$1"/task/*/comm; do
		[[ $(cat "$t" 2>/dev/null) == iostorm-w* ]] && n=$((n + 1))
	done
	echo "$n"
}

# run_iostorm ARGS...: runs it, stdout in $T_OUT, stderr in $T_ERR, exit
# status in $T_RC. The timeout only guards against a hang; under TSan,
# which makes every step several times slower, it is longer.
T_RUN_GUARD=120
[[ ${SANITIZE:-} == *thread* ]] && T_RUN_GUARD=400
# the same guard in await_json's tries (0.1 s each), for runs in the background
T_TRIES=$((T_RUN_GUARD * 10))
run_iostorm() {
	timeout -k 5 "$T_RUN_GUARD" "$IOSTORM" "$@" >"$T_OUT" 2>"$T_ERR" </dev/null
	T_RC=$?
}

# run_iostorm_capped MB ARGS...: run_iostorm with its memory capped at MB
# MiB, so that an input read without bound fails as an allocation would:
# ulimit -v; under a sanitizer, whose shadow memory RLIMIT_AS breaks,
# its allocator's own limits instead (one allocation over MB, or the
# process's RSS over it, returns NULL).
run_iostorm_capped() {
	local mb=$1 lim
	shift
	if [ -n "${SANITIZE:-}" ]; then
		lim="max_allocation_size_mb=$mb:soft_rss_limit_mb=$mb:allocator_may_return_null=1"
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}$lim" \
			TSAN_OPTIONS="${TSAN_OPTIONS:+$TSAN_OPTIONS:}$lim" run_iostorm "$@"
		return
	fi
	(
		ulimit -v $((mb << 10)) || exit 99
		exec timeout -k 5 "$T_RUN_GUARD" "$IOSTORM" "$@"
	) >"$T_OUT" 2>"$T_ERR" </dev/null
	T_RC=$?
}

# ---- iostorm as another user (nobody) ----
# The binary may sit where nobody cannot reach it: a clone under /root
# (mode 700) is the README's own setup. nobody_iostorm [FILE...] copies
# $IOSTORM, and each FILE that nobody must read besides (a fixture), under
# its base name, into a folder of their own, T_NOBODY_DIR under $T_DIR
# (removed with it by the EXIT trap), opened to others ($T_DIR and the
# folder 755, the copy 755, the files 644); T_NOBODY_IOSTORM is the copy.
# Needs root (only root becomes another user). A missing setpriv
# (util-linux, on the README's install line) is a failed check, and it
# returns 1; where nobody cannot run the copy even there (a $TMPDIR closed
# to others), the test skips, saying so.
nobody_iostorm() {
	local f
	need_root "running iostorm as nobody"
	if ! command -v setpriv >/dev/null; then
		check_fail "setpriv is missing (util-linux)"
		return 1
	fi
	T_NOBODY_DIR=$T_DIR/nobody
	mkdir -p "$T_NOBODY_DIR" && cp "$IOSTORM" "$T_NOBODY_DIR/iostorm" &&
		chmod 755 "$T_DIR" "$T_NOBODY_DIR" "$T_NOBODY_DIR/iostorm" ||
		fail "cannot copy $IOSTORM into $T_NOBODY_DIR"
	for f in "$@"; do
		cp "$f" "$T_NOBODY_DIR/" && chmod 644 "$T_NOBODY_DIR/${f##*/}" ||
			fail "cannot copy $f into $T_NOBODY_DIR"
	done
	T_NOBODY_IOSTORM=$T_NOBODY_DIR/iostorm
	# through env: setpriv itself finds the program it runs with root's
	# capabilities still in force (util-linux sys-utils/setpriv.c sets
	# PR_SET_KEEPCAPS and applies them again after setresuid, then calls
	# execvp), so it runs /root/x as nobody; what that program opens or
	# runs after the exec, which clears them, nobody must reach itself
	as_nobody env "$T_NOBODY_IOSTORM" --version >/dev/null 2>&1 ||
		skip "nobody cannot run iostorm even copied to $T_NOBODY_DIR (${TMPDIR:-/tmp} closed to others?)"
}

# as_nobody CMD ARGS...: CMD as nobody (uid and gid 65534, no groups),
# from T_NOBODY_DIR (the caller's folder may be closed to nobody), under
# run_iostorm's guard against a hang. nobody_iostorm first.
as_nobody() {
	(cd "$T_NOBODY_DIR" &&
		exec timeout -k 5 "$T_RUN_GUARD" setpriv --reuid=65534 --regid=65534 --clear-groups "$@")
}

show_output() {
	sed 's/^/    out: /' "$T_OUT" >&2
	sed 's/^/    err: /' "$T_ERR" >&2
}

# await_json PID FILE TRIES: waits (0.1 s a try) until iostorm PID has
# written a complete JSON FILE and begun to exit (the table is written
# before the JSON, and stdout is flushed on the way out), or has exited; a
# process whose reads are held may stay in the kernel after writing it, so
# the file and the exit are the signal. Returns 1 when the tries (a guard
# against a hang, not a measure) ran out with neither.
await_json() {
	local i
	for ((i = 0; i < $3; i++)); do
		kill -0 "$1" 2>/dev/null || return 0
		jq -e . "$2" >/dev/null 2>&1 && t_exiting "$1" && return 0
		sleep 0.1
	done
	return 1
}

# reap_within PID TRIES: waits (0.1 s a try; a guard against a hang, not
# a measure) for background iostorm PID to exit, kills it once the tries
# run out, and reaps it: its exit status in T_RC.
reap_within() {
	local i
	for ((i = 0; i < $2; i++)); do
		kill -0 "$1" 2>/dev/null || break
		sleep 0.1
	done
	kill -s KILL "$1" 2>/dev/null
	wait "$1"
	T_RC=$?
}

# release_reap PID DOG CTL: answers the held reads of fault file CTL, then
# reaps iostorm PID (its exit status in T_RC) and stops its watchdog DOG.
release_reap() {
	echo ok >"$3"
	wait "$1"
	T_RC=$?
	kill "$2" 2>/dev/null
	wait "$2" 2>/dev/null
}

# t_exiting PID: PID's main thread has begun to exit (PF_EXITING, 0x4, in
# the flags of /proc/PID/stat), or PID is gone: exit() has flushed stdio.
t_exiting() {
	local st
	st=$(cat "/proc/$1/stat" 2>/dev/null) || return 0
	# after "pid (comm) ": state ppid pgrp session tty tpgid flags
	set -- ${st##*) }
	(($7 & 4))
}

# fault_count CTL WHAT: the number a fault file's ctl gives for WHAT
# (served, failed or held; tests/fusefault.c), 0 if it cannot be read.
fault_count() {
	local n
	n=$(awk -v w="$2" '{ for (i = 1; i < NF; i++) if ($i == w) print $(i + 1) }' "$1" 2>/dev/null)
	echo "${n:-0}"
}

# await_fault CTL WHAT N TRIES: waits (0.1 s a try) until fault_count CTL
# WHAT is at least N; 1 when the tries (a guard against a hang) ran out.
await_fault() {
	local i
	for ((i = 0; i < $4; i++)); do
		[ "$(fault_count "$1" "$2")" -ge "$3" ] && return 0
		sleep 0.1
	done
	return 1
}

# live_iostorm ARGS...: starts iostorm in the background with its stderr on
# a terminal (a pty of script(1): need_cmd script first), so that it draws
# its live progress line, "[PHASE] ..." after each second of a phase: PHASE
# is "run, ramp" while it ramps, "run" (or latency's, a sweep point's or a
# saturate step's label) while it measures. That line is how a test knows
# the run is measuring, rather than guessing from a sleep. stdout goes to
# $T_OUT; the terminal's text to $T_ERR (live_clean makes it plain lines).
# T_PID is iostorm's pid, T_LIVE the script's (live_reap waits for it).
live_iostorm() {
	live_cmd "$IOSTORM" "$@"
}

# live_cmd CMD ARGS...: live_iostorm for a CMD that execs iostorm (timeout);
# T_PID is CMD's pid.
live_cmd() {
	local q i pidf=$T_DIR/live.pid
	printf -v q ' %q' "$@"
	rm -f "$pidf"
	SHELL=/bin/bash script -qfec "echo \$\$ >$(printf %q "$pidf"); exec$q >$(printf %q "$T_OUT") </dev/null" \
		"$T_ERR" </dev/null >/dev/null 2>&1 &
	T_LIVE=$!
	for ((i = 0; i < 300; i++)); do
		[ -s "$pidf" ] && break
		kill -0 "$T_LIVE" 2>/dev/null || break
		sleep 0.1
	done
	T_PID=$(cat "$pidf" 2>/dev/null)
	T_PID=${T_PID:-$T_LIVE}
}

# await_in FILE TEXT TRIES: waits (0.1 s a try) until live_iostorm's FILE
# ($T_ERR or $T_OUT) has TEXT; 1 when iostorm ended first or the tries (a
# guard against a hang) ran out.
await_in() {
	local i
	for ((i = 0; i < $3; i++)); do
		grep -qF -- "$2" "$1" 2>/dev/null && return 0
		kill -0 "$T_LIVE" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}

# await_live PHASE TRIES: await_in for the live line showing PHASE (the
# text after its "[": "run]" is run's measured window, "step 2/"
# saturate's second step).
await_live() {
	await_in "$T_ERR" "[$1" "$2"
}

# sched_of QUEUE: the IO scheduler in force in QUEUE (a queue/ folder), the
# one the kernel shows in brackets
sched_of() {
	sed -n 's/.*\[\(.*\)\].*/\1/p' "$1/scheduler"
}

# dev_reads DEV: reads submitted to block device DEV so far (its stat
# file: completed plus merged into others), 0 where it cannot be read.
dev_reads() {
	local r m
	read -r r m _ <"/sys/block/${1#/dev/}/stat" 2>/dev/null
	echo $((${r:-0} + ${m:-0}))
}

# await_reads DEV BEFORE PID TRIES: waits (0.1 s a try) until DEV has had
# reads since BEFORE (a dev_reads count) while PID runs; 1 when PID ended
# without them or the tries (a guard against a hang) ran out.
await_reads() {
	local i
	for ((i = 0; i < $4; i++)); do
		[ "$(dev_reads "$1")" -gt "$2" ] && return 0
		kill -0 "$3" 2>/dev/null || break
		sleep 0.1
	done
	[ "$(dev_reads "$1")" -gt "$2" ]
}

# live_reap TRIES: waits (0.1 s a try) for live_iostorm's run to end, kills
# it if the tries (a guard against a hang) run out; its exit status in T_RC,
# $T_ERR made plain lines (live_clean).
live_reap() {
	local i
	for ((i = 0; i < $1; i++)); do
		kill -0 "$T_LIVE" 2>/dev/null || break
		sleep 0.1
	done
	kill -0 "$T_LIVE" 2>/dev/null && kill -s KILL "$T_PID" 2>/dev/null
	wait "$T_LIVE"
	T_RC=$?
	live_clean
}

# live_clean: $T_ERR as the terminal would end up showing it, one line a
# message: no \r\n line ends, no progress lines rewritten in place or
# erased (\r, ESC [K), no script(1) header.
live_clean() {
	sed -i 's/\r$//; s/.*\r//; s/\x1b\[K//g; /^Script \(started\|done\) on /d' "$T_ERR"
}

# A test that calls a function or tool that does not exist fails, rather
# than going on as if the check had passed.
command_not_found_handle() {
	check_fail "no such command: $1 (a typo in the test, or a tool to install)"
	return 127
}

# expect_ok WHAT ARGS...: exit 0.
expect_ok() {
	local what=$1
	shift
	run_iostorm "$@"
	if [ "$T_RC" -ne 0 ]; then
		check_fail "$what: iostorm $* exited $T_RC, want 0"
		show_output
		return 1
	fi
	return 0
}

# expect_error WHAT CODE PATTERN ARGS...: exit CODE (a number or a regex
# like '[12]'), nothing on stdout,
# exactly one line on stderr, matching the extended regex PATTERN. With
# T_CAP_MB=MB before it, iostorm runs with its memory capped at MB
# (run_iostorm_capped).
expect_error() {
	local what=$1 code=$2 pat=$3 lines
	shift 3
	if [ -n "${T_CAP_MB:-}" ]; then
		run_iostorm_capped "$T_CAP_MB" "$@"
	else
		run_iostorm "$@"
	fi
	lines=$(wc -l <"$T_ERR")
	if ! [[ $T_RC =~ ^($code)$ ]]; then
		check_fail "$what: exit $T_RC, want $code (iostorm $*)"
		show_output
	elif [ -s "$T_OUT" ]; then
		check_fail "$what: something on stdout (iostorm $*)"
		show_output
	elif [ "$lines" -ne 1 ]; then
		check_fail "$what: $lines lines on stderr, want exactly 1 (iostorm $*)"
		show_output
	elif ! grep -Eq -- "$pat" "$T_ERR"; then
		check_fail "$what: stderr does not match /$pat/ (iostorm $*)"
		show_output
	fi
}

# json_check FILE COMMAND NDEVICES: the report's documented minimum shape
# (docs/json.md) with sane values: ios > 0 on each device, no errors.
json_check() {
	local f=$1 cmd=$2 ndev=$3
	jq -e --arg cmd "$cmd" --argjson n "$ndev" '
		def num: type == "number";
		def lat: (.mean|num) and (.p50|num) and (.p90|num) and (.p99|num)
			and (.["p99.9"]|num) and (.["p99.99"]|num) and (.max|num)
			and .p50 <= .p90 and .p90 <= .p99 and .p99 <= .["p99.9"]
			and .["p99.9"] <= .["p99.99"] and .["p99.99"] <= .max;
		.schema == "iostorm/1" and .command == $cmd
		and (.config | type == "object")
		and (.devices | type == "array" and length == $n)
		and all(.devices[]; (.name|type == "string") and (.path|type == "string")
			and (.iops|num) and .iops > 0 and (.bw_bytes|num) and (.ios|num)
			and .ios > 0 and .errors == 0 and (.lat_ns|lat)
			and (.cpu.time_s|num) and .cpu.time_s > 0
			# a part of the split below one tick is null (docs/cpu.md)
			and ((.cpu.user_s|num) or .cpu.user_s == null)
			and ((.cpu.sys_s|num) or .cpu.sys_s == null))
		and (.total.iops|num) and (.total.bw_bytes|num)
		and .total.ios == ([.devices[].ios] | add)
	' "$f" >/dev/null
}

# saturate_json_check FILE NDEVICES QD: a saturate report (with
# --compare-placement) is complete and adds up: every device has every
# figure, losses follow from their figures, devices sum to nodes and to the
# system.
saturate_json_check() {
	jq -e --argjson n "$2" --argjson qd "$3" '
		def num: type == "number";
		def close(a; b): ((a - b) | fabs) <= 1e-6 * ((b | fabs) + 1);
		def lat: (.p50|num) and (.p99|num) and (.["p99.99"]|num) and .p50 <= .p99;
		.schema == "iostorm/1" and .command == "saturate" and .interrupted == false
		and (.devices | length == $n)
		and all(.devices[];
			(.name|type == "string") and (.numa_nodes|type == "array")
			and (.qd1.solo.iops|num) and .qd1.solo.iops > 0 and (.qd1.solo.lat_ns|lat)
			and (.qd1.all.iops|num) and .qd1.all.iops > 0 and (.qd1.all.lat_ns|lat)
			and (.qdn.solo.iops|num) and .qdn.solo.iops > 0
			and (.qdn.all.iops|num) and .qdn.all.iops > 0
			and (.qdn.remote.iops|num) and (.numa_penalty_pct|num)
			and (.loss_pct|num)
			and close(.loss_pct; 100 * (.qdn.solo.iops - .qdn.all.iops) / .qdn.solo.iops))
		and .system.qd == $qd
		and close(.system.qdn.all_iops; [.devices[].qdn.all.iops] | add)
		and close(.system.qdn.solo_sum_iops; [.devices[].qdn.solo.iops] | add)
		and close(.system.qd1.all_iops; [.devices[].qd1.all.iops] | add)
		and close(.system.qd1.solo_sum_iops; [.devices[].qd1.solo.iops] | add)
		and close(.system.qdn.gap_pct; 100 * (.system.qdn.solo_sum_iops - .system.qdn.all_iops) / .system.qdn.solo_sum_iops)
		and close([.nodes[].all_iops] | add; .system.qdn.all_iops)
		and ([.nodes[].ndevices] | add) == $n
		and (.findings | type == "array")
		and all(.findings[]; (.kind|type == "string") and (.text|type == "string"))
		and (.verdict.kind|type == "string") and (.verdict.text|length > 0)
		' "$1" >/dev/null
}
