#!/bin/bash
# Merge is exact, end to end (issue 32): two runs as two processes, each on
# its own loop device and each writing its own stream (--stream), stand
# for two hosts; iostorm merge of the two streams gives each device the
# very IOs and percentiles (min to max) of its run's own report, the
# runs' sum for the cluster and a row per run; the halves (--to 1,
# --from 1) add up to the whole; compare takes the merged report beside a
# run's. A run killed with SIGKILL leaves a stream that merge reads, says
# is cut short, and reports. Needs root (loop devices) and the stream
# writer (--stream).
. "$(dirname "$0")/lib.sh"
need_iostorm
need_cmd jq
make_loop l1 32
make_loop l2 32
r=$T_DIR
q=(-q --time 2s --ramp 0 --qd 8)
host=$(hostname)

# ---- two processes at once, a stream each ----
timeout -k 5 "$T_RUN_GUARD" "$IOSTORM" run "${q[@]}" --stream "$r/s1.jsonl" --json "$r/r1.json" \
	"$l1" >"$r/o1" 2>"$r/e1" </dev/null &
p1=$!
timeout -k 5 "$T_RUN_GUARD" "$IOSTORM" run "${q[@]}" --stream "$r/s2.jsonl" --json "$r/r2.json" \
	"$l2" >"$r/o2" 2>"$r/e2" </dev/null &
p2=$!
wait "$p1"
rc1=$?
wait "$p2"
rc2=$?
[ "$rc1" -eq 0 ] || { cat "$r/e1" >&2; fail "run on $l1 (--stream) exited $rc1"; }
[ "$rc2" -eq 0 ] || { cat "$r/e2" >&2; fail "run on $l2 (--stream) exited $rc2"; }
for s in s1 s2; do
	[ "$(head -n 1 "$r/$s.jsonl" | jq -r '.type + " " + .schema')" = "header iostorm-stream/1" ] ||
		fail "$s.jsonl: no header line"
	[ "$(tail -n 1 "$r/$s.jsonl" | jq -r '.type + " " + .how')" = "end completed" ] ||
		fail "$s.jsonl: no end line saying completed"
	# merge reads how and exit from the head of an end line over 1 MiB
	tail -n 1 "$r/$s.jsonl" | grep -Eq '^\{"type":"end","how":"completed","exit":0,"report":\{' ||
		check_fail "$s.jsonl: the end line's keys are not type, how, exit, report, in that order"
done

# ---- merged: each device its run's IOs and percentiles, exactly ----
expect_ok "merge of two streams" merge --json "$r/m.json" "$r/s1.jsonl" "$r/s2.jsonl"
for i in 1 2; do
	jq -e -n --slurpfile m "$r/m.json" --slurpfile r "$r/r$i.json" --arg h "$host#$i" '
		def figs: {ios, errors, lat: (.lat_ns | {min, p50, p90, p99, "p99.9", "p99.99", max})};
		($r[0].devices[0] | figs) as $want
		| [$m[0].devices[] | select(.name == $h + ":" + $r[0].devices[0].name) | figs] == [$want]
		and ([$m[0].hosts[] | select(.name == $h) | .ios] == [$r[0].total.ios])' >/dev/null ||
		{
			check_fail "merge: run $i's device differs from its report"
			jq -c '[.devices[] | {name, ios, lat_ns}]' "$r/m.json" "$r/r$i.json" >&2
		}
done
jq -e -n --slurpfile m "$r/m.json" --slurpfile a "$r/r1.json" --slurpfile b "$r/r2.json" '
	$m[0].total.ios == $a[0].total.ios + $b[0].total.ios
	and $m[0].total.errors == 0 and ($m[0].hosts | length) == 2
	and ($m[0].merge.streams | map(.ended)) == ["completed", "completed"]' >/dev/null ||
	check_fail "merge: the cluster is not the runs' sum"
grep -Eq "^cluster +2 " "$T_OUT" || { check_fail "merge: no cluster row"; show_output; }

# ---- the halves add up to the whole ----
expect_ok "first half" merge --to 1 --json "$r/h1.json" "$r/s1.jsonl"
expect_ok "second half" merge --from 1 --json "$r/h2.json" "$r/s1.jsonl"
jq -e -n --slurpfile a "$r/h1.json" --slurpfile b "$r/h2.json" --slurpfile w "$r/r1.json" '
	$a[0].total.ios + $b[0].total.ios == $w[0].total.ios and $a[0].total.ios > 0
	and $b[0].total.ios > 0' >/dev/null || check_fail "--to 1 and --from 1 do not add up to the run"

# ---- compare takes a merged report beside the run's ----
expect_ok "merge of one" merge --json "$r/m1.json" "$r/s1.jsonl"
expect_ok "compare run and merged" compare "$r/r1.json" "$r/m1.json"

# ---- SIGKILL: the finished intervals, said to be cut short ----
timeout -k 5 "$T_RUN_GUARD" "$IOSTORM" run -q --time 20s --ramp 0 --qd 8 --stream "$r/k.jsonl" \
	"$l1" >/dev/null 2>"$r/ek" </dev/null &
pk=$!
for ((i = 0; i < T_TRIES; i++)); do
	[ "$(grep -c '"type":"interval"' "$r/k.jsonl" 2>/dev/null)" -ge 4 ] && break
	kill -0 "$pk" 2>/dev/null || break
	sleep 0.1
done
kill -s KILL "$pk" 2>/dev/null
wait "$pk" 2>/dev/null
run_iostorm merge --json "$r/k.json" "$r/k.jsonl"
[ "$T_RC" -eq 0 ] || { check_fail "merge of a killed run's stream: exit $T_RC"; show_output; }
grep -q "$host: stream ends at t=.*s of run 0, cut short (no end line)" "$T_ERR" ||
	{ check_fail "merge of a killed run's stream: not said to be cut short"; show_output; }
jq -e '.total.ios > 0 and .merge.streams[0].ended == "cut short" and .interrupted' "$r/k.json" \
	>/dev/null || check_fail "merge of a killed run's stream: its JSON"

t_done
