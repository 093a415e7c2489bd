# A real Prometheus (Debian's, 2.42) scrapes a run's --listen every
# second: it takes the OpenMetrics text (up is 1), and its query API gives
# the report's figures. The counter's last value is the report's IOs
# exactly (max_over_time over the whole run, which the --linger keeps
# served for 3 scrapes), the latency histogram's count too, and
# rate(ios)/rate(measured seconds) over the run, two PromQL rates whose
# samples come from the same snapshots, so that their edges cancel, is
# the report's IOPS within 5%: the counters are served at 0 from the
# start, and the run ramps for 2 s (two scrapes), so the first sample
# comes before the measured window. increase() over the run (a range from
# the series' first sample to its last, evaluated at the last, so that
# nothing is extrapolated) of the IO counter and of the histogram's count
# is the report's IOs exactly: the histogram too is served at 0 before
# the first IO. histogram_quantile(0.5, 0.9 and 0.99, rate(...)) over its
# buckets is the report's p50, p90 and p99 within 5%.
. "$(dirname "$0")/lib.sh"
need_iostorm
need_cmd prometheus curl jq ss

make_loop a 64
json=$T_DIR/r.json

# free_port: a TCP port nothing listens on (picked at random; the test
# fails, rather than skips, where it was taken in between)
free_port() {
	local p i
	for ((i = 0; i < 100; i++)); do
		p=$((20000 + RANDOM % 40000))
		ss -Htln "sport = :$p" | grep -q . || { echo "$p"; return 0; }
	done
	return 1
}
pport=$(free_port) && iport=$(free_port) && [ "$pport" != "$iport" ] || fail "no free port"
cat >"$T_DIR/prometheus.yml" <<EOC
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: iostorm
    static_configs:
      - targets: ['127.0.0.1:$iport']
EOC
prometheus --config.file="$T_DIR/prometheus.yml" --storage.tsdb.path="$T_DIR/tsdb" \
	--web.listen-address="127.0.0.1:$pport" --log.level=warn >"$T_DIR/prom.log" 2>&1 &
prom=$!
trap 'kill $prom 2>/dev/null; wait $prom 2>/dev/null; t_cleanup' EXIT
api=http://127.0.0.1:$pport
for ((i = 0; i < T_TRIES; i++)); do
	curl -sf "$api/-/ready" >/dev/null && break
	kill -0 "$prom" 2>/dev/null || { cat "$T_DIR/prom.log" >&2; fail "prometheus did not start"; }
	sleep 0.1
done

# its scrape loop running: the target tried once (down, nothing listens
# yet); Prometheus hands new targets to its scrapers up to 5 s after start
for ((i = 0; i < T_TRIES; i++)); do
	curl -sf "$api/api/v1/targets" |
		jq -e '.data.activeTargets[] | select(.health == "down")' >/dev/null && break
	sleep 0.1
done

expect_ok "run --listen" run -q --time 8s --ramp 2s --listen "127.0.0.1:$iport" --linger 3s \
	--json "$json" "$a" || t_done
dev=$(jq -r '.devices[0].name' "$json")
ios=$(jq '.devices[0].ios' "$json")
iops=$(jq '.devices[0].iops' "$json")

# query PROMQL [TIME]: the instant query's one value (at TIME, Unix
# seconds; without it, now), or nothing
query() {
	curl -sf --data-urlencode "query=$1" ${2:+--data-urlencode "time=$2"} "$api/api/v1/query" |
		jq -r 'select(.status == "success") | .data.result | if length == 1 then .[0].value[1] else empty end'
}

# within A B PCT: A is within PCT% of B (B > 0)
within() {
	awk -v a="$1" -v b="$2" -v p="$3" 'BEGIN { exit !(a != "" && b > 0 && (a - b) / b * 100 <= p && (b - a) / b * 100 <= p) }'
}
sel="{job=\"iostorm\",device=\"$dev\"}"
up=$(query 'max_over_time(up{job="iostorm"}[5m])')
[ "$up" = 1 ] || { check_fail "Prometheus never scraped the run (up: '$up')"; cat "$T_DIR/prom.log" >&2; }
got=$(query "max_over_time(iostorm_ios_total$sel[5m])")
[ "$got" = "$ios" ] || check_fail "last iostorm_ios_total: '$got', the report's IOs: $ios"
got=$(query "max_over_time(iostorm_latency_seconds_count$sel[5m])")
[ "$got" = "$ios" ] || check_fail "last latency count: '$got', the report's IOs: $ios"
# the device's counters are served at 0 from the start: a scrape during
# the 2 s ramp makes the rates below cover the whole measured window
got=$(query "min_over_time(iostorm_ios_total$sel[5m])")
[ "$got" = 0 ] || check_fail "no scrape before the measured window (first IOs: '$got')"
rate=$(query "rate(iostorm_ios_total$sel[5m]) / rate(iostorm_measured_seconds_total$sel[5m])")
awk -v r="$rate" -v i="$iops" 'BEGIN { exit !(r != "" && r > 0 && (r - i) / i < 0.05 && (i - r) / i < 0.05) }' ||
	check_fail "Prometheus' rate of IOs: '$rate', the report's IOPS: $iops"
n=$(query "count(max_over_time(iostorm_setup_info{device=\"$dev\"}[5m]))")
[ "$n" = 1 ] || check_fail "no iostorm_setup_info for $dev in Prometheus"
n=$(query 'count(max_over_time(iostorm_window_info{job="iostorm",index="0",label="run"}[5m]))')
[ "$n" = 1 ] || check_fail "no iostorm_window_info of the run in Prometheus"
# Prometheus 2.42 keeps OpenMetrics' _created as a series of its own
got=$(query "min_over_time(iostorm_latency_seconds_created$sel[5m])")
awk -v c="$got" 'BEGIN { exit !(c > 1e9) }' || check_fail "iostorm_latency_seconds_created: '$got'"

# increase() from the first sample to the last, at the last: the range
# holds both ends (Prometheus 2.x ranges are closed), so nothing is
# extrapolated and the answer is last - first. The samples' times in ms.
read -r t0 t1 < <(curl -sf --data-urlencode "query=iostorm_ios_total$sel[5m]" "$api/api/v1/query" |
	jq -r '.data.result[0].values | "\(.[0][0] * 1000 | round) \(.[-1][0] * 1000 | round)"')
[ -n "${t1:-}" ] && [ "$t1" -gt "$t0" ] || check_fail "no samples of iostorm_ios_total ('${t0:-}' '${t1:-}')"
at=$(awk -v t="${t1:-0}" 'BEGIN { printf "%.3f", t / 1000 }')
range="[$((${t1:-0} - ${t0:-0}))ms]"
# every scrape from the first to the last taken (none refused: an
# exposition Prometheus cannot parse is a scrape with up 0)
got=$(query "min_over_time(up{job=\"iostorm\"}$range)" "$at")
[ "$got" = 1 ] || check_fail "a scrape of the run failed (min of up: '$got')"
for m in iostorm_ios_total iostorm_latency_seconds_count; do
	got=$(query "increase($m$sel$range)" "$at")
	awk -v g="$got" -v i="$ios" 'BEGIN { exit !(g != "" && g == i) }' ||
		check_fail "increase($m) over the run: '$got', the report's IOs: $ios (its first sample: $(query "min_over_time($m$sel[5m])"))"
done

# the latency histogram's quantiles against the report's percentiles
for p in 50 90 99; do
	q[$p]=$(query "histogram_quantile(0.$p, rate(iostorm_latency_seconds_bucket$sel[5m])) * 1e9")
	r[$p]=$(jq ".devices[0].lat_ns.p$p" "$json")
	d[$p]=$(awk -v q="${q[$p]}" -v r="${r[$p]}" 'BEGIN { if (q == "" || r <= 0) print "?"; else printf "%+.1f%%", (q - r) / r * 100 }')
done
for p in 50 90 99; do
	within "${q[$p]}" "${r[$p]}" 5 ||
		check_fail "histogram_quantile(0.$p): '${q[$p]}' ns, the report's p$p: ${r[$p]} ns (${d[$p]})"
done
echo "report: $ios IOs, $iops IOPS; Prometheus: rate $rate"
for p in 50 90 99; do
	echo "p$p: report ${r[$p]} ns, histogram_quantile $(printf '%.0f' "${q[$p]:-0}") ns (${d[$p]})"
done
t_done
