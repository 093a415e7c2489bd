# Resource limits answered up front: buffers above
# MemAvailable and descriptors above RLIMIT_NOFILE are one line naming the
# need and the limit, exit 1, before any IO; registered buffers above
# RLIMIT_MEMLOCK fall back to unregistered ones, said once, and the JSON
# says fixed_buffers: false.
. "$(dirname "$0")/lib.sh"
need_iostorm
need_cmd jq prlimit

make_data_file f 16
q=(-q --time 300ms --ramp 0)

# with_limits WHAT LIMITS... -- ARGS...: iostorm under prlimit; like
# run_iostorm otherwise.
with_limits() {
	local lim=()
	while [ "$1" != -- ]; do lim+=("$1"); shift; done
	shift
	timeout -k 5 "$T_RUN_GUARD" "${LIMIT_PREFIX[@]}" prlimit "${lim[@]}" "$IOSTORM" "$@" \
		>"$T_OUT" 2>"$T_ERR" </dev/null
	T_RC=$?
}

# --- MemAvailable: 64 workers x 65536 x 1 MiB = 4 TiB, refused before IO
for cmd in run saturate; do
	expect_error "$cmd: buffers above MemAvailable" 1 \
		'64 workers x --qd 65536 x --bs 1048576 need 4\.0 TiB of buffers, more than MemAvailable \([0-9.]+ [KMGT]iB\)' \
		"$cmd" "${q[@]}" --bs 1m --qd 65536 --jobs-per-device 64 "$f"
done
# sweep checks its deepest point before the first one runs
expect_error "sweep: deepest point above MemAvailable" 1 'need 4\.0 TiB of buffers, more than MemAvailable' \
	sweep "${q[@]}" --bs 1m --qd 1,65536 --jobs-per-device 64 "$f"

# --- RLIMIT_NOFILE: 12 targets and their 12 rings do not fit in 20
files=()
for i in $(seq 12); do
	make_data_file g 1
	files+=("$g")
done
LIMIT_PREFIX=()
with_limits --nofile=20:20 -- run "${q[@]}" "${files[@]}"
if [ "$T_RC" -ne 1 ] || [ -s "$T_OUT" ] || [ "$(wc -l <"$T_ERR")" -ne 1 ] ||
	! grep -Eq '12 targets and 12 workers need about [0-9]+ file descriptors, more than RLIMIT_NOFILE allows \(20, hard 20\)' "$T_ERR"; then
	check_fail "RLIMIT_NOFILE 20: exit $T_RC, want 1 and one line naming the limit"
	show_output
fi
# a soft limit below the need but a hard one above: raised, nothing said
with_limits --nofile=20:4096 -- run "${q[@]}" --json - "${files[@]}"
if [ "$T_RC" -ne 0 ] || grep -q RLIMIT "$T_ERR" || ! json_check "$T_OUT" run 12; then
	check_fail "RLIMIT_NOFILE 20, hard 4096: exit $T_RC, want a run and no note"
	show_output
fi

# --- RLIMIT_MEMLOCK: 64 KiB cannot hold 32 x 4 KiB of registered buffers.
# Root has CAP_IPC_LOCK, which the kernel exempts: drop it for the test.
if [ "$(id -u)" -eq 0 ]; then
	command -v setpriv >/dev/null 2>&1 || skip "setpriv is not installed (needed to drop CAP_IPC_LOCK)"
	LIMIT_PREFIX=(setpriv --bounding-set=-ipc_lock --inh-caps=-ipc_lock)
	"${LIMIT_PREFIX[@]}" true 2>/dev/null || skip "setpriv cannot drop CAP_IPC_LOCK here"
fi
with_limits --memlock=65536:65536 -- run "${q[@]}" --engine io_uring --json - "$f"
if [ "$T_RC" -ne 0 ] || ! json_check "$T_OUT" run 1 ||
	! jq -e '.config.fixed_buffers == false' "$T_OUT" >/dev/null ||
	[ "$(grep -c 'RLIMIT_MEMLOCK is 64\.0 KiB): reading into unregistered buffers' "$T_ERR")" -ne 1 ]; then
	check_fail "RLIMIT_MEMLOCK 64 KiB: exit $T_RC, want a run on unregistered buffers, said once"
	show_output
fi
# a sweep says it once, not at every depth, and its JSON says so too
with_limits --memlock=65536:65536 -- sweep "${q[@]}" --qd 16,32 --json - "$f"
if [ "$T_RC" -ne 0 ] || ! jq -e '.config.fixed_buffers == false' "$T_OUT" >/dev/null ||
	[ "$(grep -c 'RLIMIT_MEMLOCK' "$T_ERR")" -ne 1 ]; then
	check_fail "RLIMIT_MEMLOCK 64 KiB, sweep: exit $T_RC, want one note"
	show_output
fi
# registered where they fit; libaio has none
expect_ok "fixed buffers" run "${q[@]}" --engine io_uring --json - "$f" &&
	{ jq -e '.config.fixed_buffers == true' "$T_OUT" >/dev/null || check_fail "fixed_buffers is not true"; }
expect_ok "libaio" run "${q[@]}" --engine libaio --json - "$f" &&
	{ jq -e '.config.fixed_buffers == false' "$T_OUT" >/dev/null || check_fail "libaio: fixed_buffers is not false"; }
t_done
