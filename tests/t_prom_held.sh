# --listen's end with its connections held: 20 idle connections held from
# this shell (16 taken by the server, its limit, 4 queued by the kernel)
# hold neither a run that ends by --time nor one stopped by SIGINT
# (issue 39: without MHD_USE_ITC the stop waited for their idle timeout).
# No clock is read: the order is the proof. A second iostorm (the
# witness, same binary, so the same idle timeout) is sent one idle
# connection just before the run gets its 20; the witness closes it once
# idle for the timeout, so a run that ends while that connection is still
# open ended before the timeout could have closed any of its own. Then
# the witness closes it, which shows that idle connections are closed.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/prom_lib.sh"
need_iostorm
need_cmd ss jq

make_loop a 64
make_loop b 64
pid=
"$IOSTORM" run -q --rate 100 --time 10m --ramp 0 --linger 0 --listen 0 "$b" \
	>/dev/null 2>"$T_DIR/errw" </dev/null &
wpid=$!
trap 'release; kill -KILL $wpid $pid 2>/dev/null; wait $wpid $pid 2>/dev/null; t_cleanup' EXIT
wport=$(listen_port "$wpid") || { cat "$T_DIR/errw" >&2; fail "the witness never listened"; }

# ends_first PID: waits (0.1 s a try; T_TRIES, a guard against a hang)
# for PID to end, and reaps it (its status in T_RC): 0 where it had ended
# while the witness's connection was still open, 1 where the witness
# closed it first (or both happened between two looks)
ends_first() {
	local i
	for ((i = 0; i < T_TRIES; i++)); do
		if ! kill -0 "$1" 2>/dev/null; then
			wait "$1"
			T_RC=$?
			[ "$(closed_by_server "$wport")" -eq 0 ]
			return
		fi
		[ "$(closed_by_server "$wport")" -eq 0 ] || break
		sleep 0.1
	done
	reap_within "$1" "$T_TRIES"
	return 1
}

# held_run WHAT ARGS...: a run with ARGS on $a in the background, the
# witness's connection, then 20 held to the run until the server holds
# its 16; pid and port set
held_run() {
	local what=$1
	shift
	"$IOSTORM" run -q --ramp 0 --linger 0 --listen 0 --json "$T_DIR/$what.json" "$@" "$a" \
		>/dev/null 2>"$T_DIR/$what.err" </dev/null &
	pid=$!
	port=$(listen_port "$pid") || { cat "$T_DIR/$what.err" >&2; fail "$what: never listened"; }
	hold "$wport" 1 && await_accepted "$wpid" "$wport" 1 ||
		fail "$what: the witness never took its connection"
	hold "$port" 20 || fail "$what: cannot connect to port $port"
	await_accepted "$pid" "$port" 16 ||
		fail "$what: the run never held 16 connections (it ended first: $(accepted "$pid" "$port"))"
	[ "$(closed_by_server "$port")" -eq 0 ] || check_fail "$what: a held connection closed early"
}

# a run that ends by --time
held_run timed --time 2s
ends_first "$pid" ||
	check_fail "timed: the run ended only after the witness closed its idle connection"
[ "$T_RC" -eq 0 ] || { check_fail "timed: exit $T_RC"; cat "$T_DIR/timed.err" >&2; }
jq -e '.devices[0].ios > 0' "$T_DIR/timed.json" >/dev/null || check_fail "timed: no report"
release

# a run stopped by SIGINT (--time 10m otherwise)
held_run sigint --time 10m
kill -INT "$pid"
ends_first "$pid" ||
	check_fail "SIGINT: the run ended only after the witness closed its idle connection"
[ "$T_RC" -eq 0 ] || { check_fail "SIGINT: exit $T_RC"; cat "$T_DIR/sigint.err" >&2; }
jq -e '.interrupted == true' "$T_DIR/sigint.json" >/dev/null ||
	check_fail "SIGINT: the report is not marked interrupted"
pid=

# the witness closes its idle connection (it has all the test's time)
for ((i = 0; i < T_TRIES; i++)); do
	[ "$(closed_by_server "$wport")" -ge 1 ] && break
	sleep 0.1
done
[ "$(closed_by_server "$wport")" -ge 1 ] || check_fail "an idle connection is never closed"
release
kill -INT "$wpid"
reap_within "$wpid" "$T_TRIES"
[ "$T_RC" -eq 0 ] || check_fail "the witness exited $T_RC"
t_done
