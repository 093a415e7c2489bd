# --listen with real clients: a run serves /metrics while it measures and
# for --linger after; curl gets 404 for / and a missing path, 405 for POST,
# 431 for a 64 KiB header, the classic text format (which promtool checks)
# or OpenMetrics when asked as Prometheus asks; the final scrape holds the
# report's IOs exactly, and so do 200 concurrent scrapes from 127.0.0.1
# (the kernel queues those beyond the server's 16); a stop request ends
# the linger. A port in use stops a second run before its first IO with
# one line (exit 1, like a --json file that cannot be written); a bad
# value is a usage error (exit 2). --listen 0 says the URL with the port
# it took, and the linger with how to end it. Loopback says nothing of the
# address; 0.0.0.0 says in one line that the metrics are served
# unauthenticated to every network, and the run goes on; --linger 0 says
# no linger.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/prom_lib.sh"
need_iostorm
need_cmd curl promtool jq ss

expect_error "--listen abc" 2 "^iostorm run: --listen: 'abc' is not \[ADDR:\]PORT" \
	run -q --listen abc /dev/null
expect_error "--listen 70000" 2 "--listen: '70000' is not" run -q --listen 70000 /dev/null
expect_error "--linger 2h" 2 "--linger" run -q --listen 0 --linger 2h /dev/null

make_loop a 64
make_loop b 64
json=$T_DIR/r.json

# not under timeout: $! is iostorm's pid, whose socket ss names; the trap
# kills it if the test ends first
"$IOSTORM" run -q --time 2s --ramp 0 --listen 0 --linger 10m \
	--json "$json" "$a" >"$T_DIR/out1" 2>"$T_DIR/err1" </dev/null &
pid=$!
trap 'kill -KILL $pid 2>/dev/null; wait $pid 2>/dev/null; t_cleanup' EXIT
port=$(listen_port "$pid") || { cat "$T_DIR/err1" >&2; fail "the run never listened"; }
url=http://127.0.0.1:$port
grep -qx "iostorm run: metrics on $url/metrics" "$T_DIR/err1" ||
	{ check_fail "--listen 0: not 'metrics on $url/metrics'"; cat "$T_DIR/err1" >&2; }

# a second run on that port, on another device: one line, no read of it
before=$(dev_reads "$b")
expect_error "port in use" 1 "^iostorm run: --listen 127\.0\.0\.1:$port: the port is in use$" \
	run -q --time 1s --listen "127.0.0.1:$port" "$b"
[ "$(dev_reads "$b")" -eq "$before" ] || check_fail "port in use: the refused run read $b"

# the report written, the first run lingers: its last figures are served
for ((i = 0; i < T_TRIES; i++)); do
	jq -e . "$json" >/dev/null 2>&1 && break
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.1
done
kill -0 "$pid" 2>/dev/null || fail "the run did not linger"
said="iostorm run: serving the final figures at $url/metrics for 10m more (--linger 0 skips this; Ctrl-C ends it)"
for ((i = 0; i < T_TRIES; i++)); do
	grep -qxF "$said" "$T_DIR/err1" && break
	sleep 0.1
done
grep -qxF "$said" "$T_DIR/err1" || { check_fail "the linger not said"; cat "$T_DIR/err1" >&2; }
ios=$(jq '.devices[0].ios' "$json")
dev=$(jq -r '.devices[0].name' "$json")

code() { curl -s -o /dev/null -w '%{http_code}' "$@"; }
[ "$(code "$url/")" = 404 ] || check_fail "/: $(code "$url/"), want 404"
[ "$(code "$url/nothing")" = 404 ] || check_fail "/nothing: want 404"
[ "$(code -d x=1 "$url/metrics")" = 405 ] || check_fail "POST: want 405"
big=$(head -c 65536 /dev/zero | tr '\0' a)
[ "$(code -H "X-Big: $big" "$url/metrics")" = 431 ] || check_fail "a 64 KiB header: want 431"
curl -sf -o "$T_DIR/m.txt" -D "$T_DIR/h.txt" "$url/metrics" || check_fail "GET /metrics failed"
grep -qi '^content-type: text/plain; version=0.0.4' "$T_DIR/h.txt" || check_fail "curl: not the text format"
promtool check metrics <"$T_DIR/m.txt" >"$T_DIR/lint" 2>&1 ||
	{ check_fail "promtool check metrics"; cat "$T_DIR/lint" >&2; }
grep -qx "iostorm_ios_total{device=\"$dev\"} $ios" "$T_DIR/m.txt" ||
	{ check_fail "the final scrape does not hold the report's $ios IOs"; grep ios_total "$T_DIR/m.txt" >&2; }
grep -qx "iostorm_latency_seconds_count{device=\"$dev\"} $ios" "$T_DIR/m.txt" ||
	check_fail "the histogram's count is not the report's IOs"
grep -q "^iostorm_setup_info{device=\"$dev\",.*kernel=\"$(uname -r)\"" "$T_DIR/m.txt" ||
	check_fail "no setup info for $dev"
curl -sf -o "$T_DIR/om.txt" -D "$T_DIR/h.txt" -H 'Accept: application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5,*/*;q=0.1' "$url/metrics" ||
	check_fail "GET /metrics (OpenMetrics) failed"
grep -qi '^content-type: application/openmetrics-text; version=1.0.0; charset=utf-8' "$T_DIR/h.txt" ||
	check_fail "Prometheus' Accept: not OpenMetrics"
[ "$(tail -n 1 "$T_DIR/om.txt")" = "# EOF" ] || check_fail "OpenMetrics: no # EOF at the end"
grep -qx "iostorm_ios_total{device=\"$dev\"} $ios" "$T_DIR/om.txt" || check_fail "OpenMetrics: the IOs"

# 200 at once from one address, each answered with the final figures
# (--max-time guards against a hang)
seq 200 | xargs -P 200 -I{} curl -s --max-time 60 -o "$T_DIR/c{}" -w '%{http_code}\n' "$url/metrics" \
	>"$T_DIR/codes"
n=$(grep -cx 200 "$T_DIR/codes")
[ "$n" -eq 200 ] || check_fail "$n of 200 concurrent scrapes answered: $(sort "$T_DIR/codes" | uniq -c | tr '\n' ' ')"
n=$(grep -lx "iostorm_ios_total{device=\"$dev\"} $ios" "$T_DIR"/c* | wc -l)
[ "$n" -eq 200 ] || check_fail "$n of 200 concurrent scrapes hold the report's IOs"
grep -q unauthenticated "$T_DIR/err1" && { check_fail "loopback: said unauthenticated"; cat "$T_DIR/err1" >&2; }

# a stop request ends the linger (10 minutes otherwise); the run's status stays 0
kill -INT "$pid"
reap_within "$pid" "$T_TRIES"
[ "$T_RC" -eq 0 ] || { check_fail "the lingering run exited $T_RC after SIGINT"; cat "$T_DIR/err1" >&2; }
[ "$(code "$url/metrics")" = 000 ] || check_fail "still served after the linger"

# every network: one line, and the run goes on
run_iostorm run -q --time 1s --ramp 0 --listen 0.0.0.0:0 --linger 0 "$b"
[ "$T_RC" -eq 0 ] || { check_fail "--listen 0.0.0.0:0: exit $T_RC"; show_output; }
[ "$(grep -c unauthenticated "$T_ERR")" -eq 1 ] &&
	grep -qx "iostorm run: --listen 0\.0\.0\.0:0: the metrics are served unauthenticated to every network this host is on" "$T_ERR" ||
	{ check_fail "--listen 0.0.0.0:0: not the one line"; show_output; }
grep -q "^iostorm run: metrics on http://0\.0\.0\.0:[1-9][0-9]*/metrics$" "$T_ERR" ||
	{ check_fail "--listen 0.0.0.0:0: no URL with its port"; show_output; }
grep -q "serving the final figures" "$T_ERR" && { check_fail "--linger 0: a linger said"; show_output; }
t_done
