# Helpers for the --listen tests (tests/t_prom*.sh), sourced after lib.sh:
# the port a background iostorm listens on, and connections held to it
# from this shell (bash's /dev/tcp) with what ss says of them.

# listen_port PID: the TCP port PID listens on, once it does (0.1 s a try;
# the tries guard against a hang)
listen_port() {
	local i p
	for ((i = 0; i < T_TRIES; i++)); do
		p=$(ss -Htlnp 2>/dev/null | awk -v pid="pid=$1," 'index($0, pid) { sub(/.*:/, "", $4); print $4; exit }')
		[ -n "$p" ] && { echo "$p"; return 0; }
		kill -0 "$1" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}

# hold PORT N: N more connections to 127.0.0.1:PORT held open by this
# shell, sending nothing; their fds are appended to HELD
HELD=()
hold() {
	local i fd
	for ((i = 0; i < $2; i++)); do
		exec {fd}<>"/dev/tcp/127.0.0.1/$1" || return 1
		HELD+=("$fd")
	done
}

# release: closes every connection hold opened
release() {
	local fd
	for fd in "${HELD[@]}"; do
		exec {fd}>&-
	done
	HELD=()
}

# accepted PID PORT: how many connections to PORT process PID has accepted
# (a connection the kernel holds in the listening socket's queue belongs
# to no process yet)
accepted() {
	ss -Htnp state established "( sport = :$2 )" 2>/dev/null | grep -c "pid=$1,"
}

# await_accepted PID PORT N: waits (0.1 s a try; T_TRIES, a guard against
# a hang) until PID has accepted N connections to PORT; 1 if PID ended or
# the tries ran out first
await_accepted() {
	local i
	for ((i = 0; i < T_TRIES; i++)); do
		[ "$(accepted "$1" "$2")" -eq "$3" ] && return 0
		kill -0 "$1" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}

# closed_by_server PORT: how many of this host's connections to PORT the
# server has closed while the client holds them (CLOSE-WAIT)
closed_by_server() {
	ss -Htn state close-wait "( dport = :$1 )" 2>/dev/null | wc -l
}
