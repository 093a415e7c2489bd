# --listen's first scrape, before any IO is counted, already serves every
# series of the device: the IO counters, each bucket of the latency
# histogram, its count and sum at 0, and the _created of each counter and
# of the histogram (a Unix time), in both formats; the last scrape serves
# the same series (the same le bounds), the report's IOs among them. The
# device is a fault loop device whose reads are held (tests/fusefault.c)
# until the first scrape is taken, so no IO can complete before it, whatever
# the machine's speed. --listen 127.0.0.1:0 says the port it took
# ("metrics on http://127.0.0.1:PORT/metrics", the one ss shows), and the
# scrapes go to the URL it said. The linger is said with how to end it,
# and a stop request does.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/prom_lib.sh"
need_iostorm
need_cmd curl jq ss promtool

make_fault_loop dev ctl 64
d=${dev#/dev/}
json=$T_DIR/r.json
om='application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5'

# held from the first read: the run's counters cannot move until released.
# No zero sample (its reads would be held before the run) and no stall
# watch (the held reads would end the run as stalled)
echo hang >"$ctl"
"$IOSTORM" run -q --no-zero-sample --stall-timeout 0 --time 1s --ramp 0 \
	--listen 127.0.0.1:0 --linger 10m --json "$json" "$dev" >"$T_OUT" 2>"$T_ERR" </dev/null &
pid=$!
trap 'echo ok >"$ctl" 2>/dev/null; kill -KILL $pid 2>/dev/null; wait $pid 2>/dev/null; t_cleanup' EXIT

port=$(listen_port "$pid") || { cat "$T_ERR" >&2; fail "the run never listened"; }
await_said() {
	local i
	for ((i = 0; i < T_TRIES; i++)); do
		grep -qF -- "$1" "$T_ERR" && return 0
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	grep -qF -- "$1" "$T_ERR"
}
await_said "metrics on " || { cat "$T_ERR" >&2; fail "no 'metrics on' line"; }
url=$(sed -n 's/^iostorm run: metrics on //p' "$T_ERR")
[ "$url" = "http://127.0.0.1:$port/metrics" ] ||
	check_fail "--listen 127.0.0.1:0 said '$url'; it listens on port $port"
[ "$(grep -c "metrics on" "$T_ERR")" -eq 1 ] || check_fail "'metrics on' said more than once"

# a read held: the run has started (the device served at 0 before its
# first IO), and none has completed
await_fault "$ctl" held 1 "$T_TRIES" || fail "the run never read $dev"
curl -sf -o "$T_DIR/first" "$url" || check_fail "a scrape at the URL said failed"
curl -sf -H "Accept: $om" -o "$T_DIR/first.om" "$url" || check_fail "an OpenMetrics scrape failed"
[ "$(fault_count "$ctl" served)" -eq 0 ] || check_fail "reads were served before the first scrape"
echo ok >"$ctl"

# check_zero FILE: every series of the device, each IO counter and the
# histogram at 0, 7 _created (5 counters, the CPU time's 2 modes, the
# histogram) after 1e9 (2001)
check_zero() {
	local out
	out=$(awk -v d="device=\"$d\"" '
		/^#/ || index($0, d) == 0 { next }
		{ name = $1; sub(/\{.*/, "", name); v = $NF }
		name ~ /_created$/ { created++; if (v + 0 < 1e9) print "bad " $0; next }
		name ~ /^iostorm_(ios|bytes|errors)_total$|^iostorm_latency_seconds_(bucket|count|sum)$/ {
			if (v + 0 != 0) print "not 0: " $0
		}
		name == "iostorm_latency_seconds_bucket" { buckets++ }
		END { printf "%d created, %d buckets\n", created, buckets }' "$1")
	grep -x "7 created, 322 buckets" <<<"$out" >/dev/null && ! grep -q "^bad \|^not 0" <<<"$out" ||
		{ check_fail "$1: not every series at 0 with its _created"; echo "$out" >&2; }
}
check_zero "$T_DIR/first"
check_zero "$T_DIR/first.om"
promtool check metrics <"$T_DIR/first" >"$T_DIR/lint" 2>&1 ||
	{ check_fail "promtool check metrics (the first scrape)"; cat "$T_DIR/lint" >&2; }

# the report written, the run lingers, saying so and how to end it
for ((i = 0; i < T_TRIES; i++)); do
	jq -e . "$json" >/dev/null 2>&1 && break
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.1
done
kill -0 "$pid" 2>/dev/null || { cat "$T_ERR" >&2; fail "the run did not linger"; }
jq -e . "$json" >/dev/null 2>&1 || fail "no report"
await_said "serving the final figures at $url for 10m more (--linger 0 skips this; Ctrl-C ends it)" ||
	{ check_fail "the linger was not said"; cat "$T_ERR" >&2; }
ios=$(jq '.devices[0].ios' "$json")
curl -sf -o "$T_DIR/last" "$url" || check_fail "the last scrape failed"
grep -qx "iostorm_ios_total{device=\"$d\"} $ios" "$T_DIR/last" ||
	check_fail "the last scrape does not hold the report's $ios IOs"
[ "$ios" -gt 0 ] || check_fail "no IO once the reads were served"

# series FILE: the device's series, without their values (the window's
# info comes with the first window, which the first scrape may precede)
series() {
	awk -v d="device=\"$d\"" '!/^#/ && index($0, d) { NF--; print }' "$1"
}
cmp -s <(series "$T_DIR/first") <(series "$T_DIR/last") ||
	{ check_fail "the first and last scrapes serve other series"; diff <(series "$T_DIR/first") <(series "$T_DIR/last") | head >&2; }

kill -INT "$pid"
reap_within "$pid" "$T_TRIES"
[ "$T_RC" -eq 0 ] || { check_fail "exit $T_RC after SIGINT in the linger"; cat "$T_ERR" >&2; }
t_done
