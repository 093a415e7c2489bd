# The workers' CPU time is exact and its split says its resolution
# (docs/cpu.md): over three short runs of one workload (a file in
# /var/tmp, O_DIRECT, QD32, 1 s), the CPU per IO is never 0 and within 2x
# across runs; every total is the scheduler's runtime, to the nanosecond
# (not getrusage's microseconds, nor /proc's 10 ms); a user or system time
# below one tick is null, never 0; and the stream's intervals add up to
# the report's CPU time. No figure is held to a time.
. "$(dirname "$0")/lib.sh"
need_iostorm
need_cmd jq

make_data_file f 64
cpu=$(($(nproc) - 1))
for i in 1 2 3; do
	run_iostorm run -q --qd 32 --time 1s --ramp 200ms --interval 250ms --cpus "$cpu" \
		--stream "$T_DIR/s$i.jsonl" --json "$T_DIR/r$i.json" "$f"
	[ "$T_RC" -eq 0 ] && [ -s "$T_DIR/r$i.json" ] || { show_output; fail "run $i: exit $T_RC"; }
done
# a run too short for one tick of CPU time: both parts are below it
run_iostorm run -q --qd 1 --ios 8 --ramp 0 --cpus "$cpu" --stream "$T_DIR/s4.jsonl" \
	--json "$T_DIR/r4.json" "$f"
[ "$T_RC" -eq 0 ] && [ -s "$T_DIR/r4.json" ] || { show_output; fail "run of 8 IOs: exit $T_RC"; }

# ---- the total: never 0 per IO, within 2x across the runs ----
per_io=$(jq -s '[.[0:3][] | .devices[0].cpu.ns_per_io]' "$T_DIR"/r[123].json)
jq -e 'all(. != null and . > 0)' <<<"$per_io" >/dev/null ||
	check_fail "CPU per IO is 0 or missing in a run: $per_io"
jq -e 'max / min <= 2' <<<"$per_io" >/dev/null ||
	check_fail "CPU per IO of one workload differs more than 2x across runs: $per_io ns"

# ---- the split: a part is a figure of one tick or more, or null ----
for i in 1 2 3 4; do
	bad=$(jq -c '(.devices[], .total) | .cpu
		| select(.tick_s == null or .time_s <= 0
			 or (.user_s != null and .user_s < .tick_s)
			 or (.sys_s != null and .sys_s < .tick_s)
			 # a null part is what the other leaves of the total: below a tick
			 or (.user_s == null and .sys_s != null and .time_s - .sys_s >= .tick_s)
			 or (.sys_s == null and .user_s != null and .time_s - .user_s >= .tick_s))
		| {time_s, user_s, sys_s, tick_s}' "$T_DIR/r$i.json")
	[ -z "$bad" ] || check_fail "run $i: a split part below its tick is not null (or no tick): $bad"
done
if jq -e '.devices[0].cpu | .time_s < .tick_s' "$T_DIR/r4.json" >/dev/null; then
	jq -e '.devices[0].cpu | .time_s > 0 and .user_s == null and .sys_s == null
		and .user_ns_per_io == null and .sys_ns_per_io == null and .user_share == null
		and .ns_per_io > 0' "$T_DIR/r4.json" >/dev/null ||
		check_fail "8 IOs, less than a tick of CPU: want both parts null and the total above 0: $(jq -c '.devices[0].cpu' "$T_DIR/r4.json")"
else
	echo "note: 8 IOs took a tick of CPU time or more here: $(jq -c '.devices[0].cpu | {time_s, tick_s}' "$T_DIR/r4.json")"
fi

# ---- exact: to the nanosecond, as no tick-based or getrusage figure is ----
# (getrusage counts in microseconds, /proc in 10 ms; a clock to the
# nanosecond lands on a whole microsecond once in a thousand readings)
ns=$(jq -s '[.[] | select(.type == "interval" and .device != null) | .cpu_ns]' "$T_DIR"/s[123].jsonl)
jq -e 'length >= 12 and any(. % 1000 != 0)' <<<"$ns" >/dev/null ||
	check_fail "the intervals' CPU time is not to the nanosecond: $ns"
jq -e 'all(. > 0)' <<<"$ns" >/dev/null ||
	check_fail "an interval of a busy worker with no CPU time: $ns"

# ---- the stream's intervals add up to the report's CPU time ----
# (each interval is a difference of the worker's own readings, rounded to
# a nanosecond once: docs/json.md)
for i in 1 2 3 4; do
	jq -e -s --slurpfile r "$T_DIR/r$i.json" '
		[.[] | select(.type == "interval" and .device != null)] as $iv
		| $r[0].devices[0].cpu as $c
		| ([$iv[].cpu_ns] | add) as $sum
		| (($sum - 1e9 * $c.time_s) | fabs) <= ($iv | length) + 1
		  and (.[0].cpu_tick_ns == 1e9 * $c.tick_s)' "$T_DIR/s$i.jsonl" >/dev/null ||
		check_fail "run $i: the intervals' cpu_ns do not add up to cpu.time_s: $(jq -s -c \
			'[.[] | select(.type == "interval" and .device != null) | .cpu_ns]' \
			"$T_DIR/s$i.jsonl") against $(jq -c '.devices[0].cpu.time_s' "$T_DIR/r$i.json")"
done
t_done
