# Little's law on every command that reports latency: in a closed loop each
# slot is busy from submission to reap, so IOPS x mean latency = the queue
# depth, within 10%, whatever the batch (each loop refills every free slot,
# batch per call). On a loop device: run with both backends at several
# depths and batches, sweep's points (batch 1 by default), saturate's steps
# (at --qd 16 and at its default QD128) and latency's per-second lines
# (QD1). Each window is 2 s, so a pause of 50 ms moves the ratio by 2.5%.
. "$(dirname "$0")/lib.sh"
need_iostorm
need_cmd jq

make_loop dev 64
make_loop dev2 64
q=(-q --ramp 200ms --time 2s)

# little FILE FILTER WHAT: every object FILTER yields ({iops, mean_ns, qd})
# obeys the law within 10%. A ratio below 0.75 or above 1/0.75 fails at
# once: the bugs this test caught gave 0.1-0.6 at every depth. A near miss
# can be a worker the scheduler took off its CPU (other load on a 2-CPU
# machine really leaves fewer IOs in flight): such a case runs once more
# (LAW_RETRY, set by law_case) and fails only if it misses again; a pass on
# the second try is reported as retried, never silently.
little() {
	local bad far
	bad=$(jq -c "[$2 | select(.iops > 0) | . + {ratio: (.iops * .mean_ns / 1e9 / .qd)}
		| select(.ratio < 0.9 or .ratio > 1.1)]" "$1") || { check_fail "$3: no JSON"; return; }
	[ "$(jq "[$2] | length" "$1")" -gt 0 ] || check_fail "$3: nothing to check"
	[ "$bad" = "[]" ] && return
	far=$(jq -c '[.[] | select(.ratio < 0.75 or .ratio > 1 / 0.75)]' <<<"$bad")
	if [ "$far" != "[]" ]; then
		check_fail "$3: IOPS x mean latency is far from the depth: $far"
	elif [ -n "${LAW_RETRY:-}" ]; then
		LAW_MISSED="$3: $bad (load: $(cut -d' ' -f1 /proc/loadavg))"
		echo "note: $LAW_MISSED; running it again" >&2
	else
		check_fail "$3: IOPS x mean latency is not the depth, twice: $bad"
	fi
}

# law_case FUNCTION ARGS...: runs a case (a function that runs iostorm and
# calls little), and once more if the law missed narrowly the first time
law_case() {
	local failed_before=$T_FAILED
	LAW_MISSED= LAW_RETRY=1
	"$@"
	LAW_RETRY=
	[ -n "$LAW_MISSED" ] || return 0
	local first=$LAW_MISSED
	"$@"
	[ "$T_FAILED" = "$failed_before" ] && retried "$first; passed the second time"
	return 0
}

run_case() {
	local engine=$1 qd=$2 batch=$3
	if expect_ok "run $engine qd $qd batch $batch" run "${q[@]}" --engine "$engine" \
		--qd "$qd" --batch "$batch" --json - "$dev"; then
		little "$T_OUT" '.config.qd as $qd | .devices[] | {iops, mean_ns: .lat_ns.mean, qd: $qd}' \
			"run --engine $engine --qd $qd --batch $batch"
	fi
}
for engine in io_uring libaio; do
	for qb in 1:1 4:1 16:1 16:4 16:16 64:8; do
		law_case run_case "$engine" "${qb%:*}" "${qb#*:}"
	done
done

sweep_case() {
	if expect_ok "sweep" sweep "${q[@]}" --qd 1,4,16,64 --json - "$dev"; then
		little "$T_OUT" '.points[] | {iops, mean_ns: .lat_ns.mean, qd}' "sweep (batch $(jq .config.batch "$T_OUT"))"
	fi
}
sweep_aio_case() {
	if expect_ok "sweep libaio" sweep "${q[@]}" --engine libaio --qd 2,32 --json - "$dev"; then
		little "$T_OUT" '.points[] | {iops, mean_ns: .lat_ns.mean, qd}' "sweep --engine libaio"
	fi
}
saturate_case() {
	if expect_ok "saturate" saturate "${q[@]}" --qd 16 --json - "$dev" "$dev2"; then
		little "$T_OUT" '.system.qd as $qd | .devices[] |
			(.qd1.solo, .qd1.all | {iops, mean_ns: .lat_ns.mean, qd: 1}),
			(.qdn.solo, .qdn.all | {iops, mean_ns: .lat_ns.mean, qd: $qd})' "saturate's steps"
	fi
}
saturate_default_case() {
	if expect_ok "saturate at its default depth" saturate "${q[@]}" --json - "$dev" "$dev2"; then
		jq -e '.system.qd == 128' "$T_OUT" >/dev/null ||
			check_fail "saturate's default depth is not 128: $(jq -c .system.qd "$T_OUT")"
		little "$T_OUT" '.system.qd as $qd | .devices[] |
			(.qdn.solo, .qdn.all | {iops, mean_ns: .lat_ns.mean, qd: $qd})' "saturate's QD128 steps"
	fi
}
latency_case() {
	if expect_ok "latency" latency -q --ramp 200ms --time 3s --json - "$dev"; then
		# whole seconds only: the last line may be a part of one
		little "$T_OUT" '.seconds[] | select(.second <= 3) | {iops, mean_ns: .lat_ns.mean, qd: 1}' \
			"latency's seconds"
		little "$T_OUT" '.devices[] | {iops, mean_ns: .lat_ns.mean, qd: 1}' "latency's table"
	fi
}
law_case sweep_case
law_case sweep_aio_case
law_case saturate_case
law_case saturate_default_case
law_case latency_case
t_done
