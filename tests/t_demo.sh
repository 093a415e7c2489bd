# saturate --demo (and iostorm with options but no command, on a machine
# without NVMe) makes its targets, reports, and leaves nothing behind in
# /var/tmp, /dev/shm or losetup -a: after a full run, after SIGINT during
# the run, and after SIGINT while it is still writing the targets.
. "$(dirname "$0")/lib.sh"
need_iostorm

leftovers() {	# PID: what a run of that pid left behind
	ls -d /var/tmp/iostorm-demo-"$1"-* /dev/shm/iostorm-demo-"$1"-* 2>/dev/null
	if command -v losetup >/dev/null; then
		losetup -a 2>/dev/null | grep "iostorm-demo-$1-"
	fi
	return 0
}

# demo_reads PID: a demo loop device of that pid has served reads
demo_reads() {
	local d
	for d in $(losetup -a 2>/dev/null | grep "iostorm-demo-$1-" | cut -d: -f1); do
		[ "$(dev_reads "$d")" -gt 0 ] && return 0
	done
	return 1
}

# run_bg ARGS...: iostorm in the background; its pid in $pid
run_bg() {
	"$IOSTORM" "$@" >"$T_OUT" 2>"$T_ERR" </dev/null &
	pid=$!
}

check_clean() {	# WHAT
	local left
	left=$(leftovers "$pid")
	[ -z "$left" ] || check_fail "$1: left behind: $left"
}

q=(-q --demo-size 16m --qd 8 --ramp 100ms --time 300ms)

run_bg saturate --demo "${q[@]}"
wait "$pid"
rc=$?
[ "$rc" -eq 0 ] || { check_fail "--demo: exit $rc"; show_output; }
grep -q '^verdict: ' "$T_OUT" || { check_fail "--demo: no verdict"; show_output; }
# the device rows of the first table (the CPU per IO table repeats them)
rows=$(awk -v p="iostorm-demo-$pid-" '/^system / { exit } index($0, p) == 1' "$T_OUT" | wc -l)
[ "$rows" -eq 2 ] || check_fail "--demo: $rows file rows, want 2"
if [ "$(id -u)" -eq 0 ] && [ -e /dev/loop-control ]; then
	grep -q '^loop[0-9]' "$T_OUT" || check_fail "--demo as root: no loop device row"
fi
check_clean "--demo"

# a reader that goes away (| head -1): no death by SIGPIPE, the targets are
# removed, and a report that could not be written is exit 1
sh -c 'echo $$ >"$1/pid"; shift; exec "$@"' sh "$T_DIR" "$IOSTORM" saturate --demo \
	--demo-size 16m --qd 8 --ramp 100ms --time 300ms 2>&1 </dev/null | head -n 1 >/dev/null
rc=${PIPESTATUS[0]}
pid=$(cat "$T_DIR/pid")
[ "$rc" -eq 1 ] || check_fail "--demo | head -1: exit $rc, want 1 (the report did not reach its reader)"
check_clean "--demo | head -1"

# no NVMe here: options without a command run the demo
if ! ls /sys/class/nvme/*/ >/dev/null 2>&1; then
	run_bg "${q[@]}"
	wait "$pid"
	rc=$?
	[ "$rc" -eq 0 ] || { check_fail "no command: exit $rc"; show_output; }
	grep -q 'no NVMe namespace' "$T_ERR" || check_fail "no command: did not say why it runs the demo"
	grep -q '^verdict: ' "$T_OUT" || check_fail "no command: no report"
	check_clean "no command"
fi

# SIGINT mid-run: steps of 3s, interrupted once the first one started
run_bg saturate --demo --demo-size 16m --ramp 0 --time 3s
for _ in $(seq 100); do
	[ -n "$(leftovers "$pid")" ] && grep -q 'demo: ' "$T_ERR" && break
	sleep 0.1
done
[ -n "$(leftovers "$pid")" ] || check_fail "SIGINT mid-run: never saw the demo targets"
# mid-run: once a demo loop device has served reads
for _ in $(seq 100); do
	demo_reads "$pid" && break
	sleep 0.1
done
kill -INT "$pid"
wait "$pid"
rc=$?
[ "$rc" -lt 128 ] || check_fail "SIGINT mid-run: died of a signal (exit $rc)"
check_clean "SIGINT mid-run"

# SIGINT while the targets are being written
run_bg saturate --demo --demo-size 2g --ramp 0 --time 3s
for _ in $(seq 50); do
	[ -n "$(leftovers "$pid")" ] && break
	sleep 0.05
done
[ -n "$(leftovers "$pid")" ] || check_fail "SIGINT while writing: never saw the demo file"
kill -INT "$pid"
wait "$pid"
rc=$?
[ "$rc" -lt 128 ] || check_fail "SIGINT while writing: died of a signal (exit $rc)"
check_clean "SIGINT while writing"
t_done
