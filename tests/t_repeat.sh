# --repeat N: N measurements, each with its own ramp, in one report whose
# figures are over all of them and whose `repeats` hold each one: every
# repeat's IOs add up to the device's, their windows to its window, the
# devices' to the total, the per-second samples to the IOs; the spread is
# ordered (min <= hmean <= amean <= max); the table shows it; latency's
# seconds say their repeat; sweep repeats each depth and saturate each
# step; a repeat interrupted by SIGINT is the last and is kept.
. "$(dirname "$0")/lib.sh"
need_iostorm
need_cmd jq timeout script

make_data_file a 16
make_data_file b 16
q=(-q --time 300ms --ramp 50ms)

# repeat_sums FILE PATH...: the failures of each record at jq PATH of FILE
repeat_sums() {
	local f=$1 p out
	shift
	for p in "$@"; do
		out=$(jq -r "$p"' as $d | $d.repeats as $r
		| def close(a; b): ((a - b) | fabs) <= 1e-6 * ((b | fabs) + 1);
		(if ($r.runs | length) != $r.n then "\($d.name // "row"): \($r.runs | length) runs, n \($r.n)" else empty end),
		(if ([$r.runs[].ios] | add) != $d.ios then "\($d.name // "row"): its repeats hold \([$r.runs[].ios] | add) IOs, it \($d.ios)" else empty end),
		(if ($d.elapsed_s != null) and (close([$r.runs[].elapsed_s] | add; $d.elapsed_s) | not) then "\($d.name // "row"): its repeats last \([$r.runs[].elapsed_s] | add) s, it \($d.elapsed_s)" else empty end),
		(if $d.timeline and ([$d.timeline[].t_s] | . != sort or (unique | length) != length) then "\($d.name // "row"): its samples are not in time order end to end: \([$d.timeline[].t_s])" else empty end),
		(if $d.timeline and (([$d.timeline[].ios] | add // 0) != $d.ios) then "\($d.name // "row"): its samples hold \([$d.timeline[].ios] | add) IOs, not \($d.ios)" else empty end),
		(if ($r.iops.min <= $r.iops.hmean and $r.iops.hmean <= $r.iops.amean + 1e-6 and $r.iops.amean <= $r.iops.max) | not then "\($d.name // "row"): spread out of order: \($r.iops)" else empty end),
		(if $r.n > 1 and ($r.iops.stddev == null) then "\($d.name // "row"): no stddev over \($r.n) repeats" else empty end)
		' "$f") || { check_fail "$f: jq failed on $p"; continue; }
		[ -z "$out" ] || check_fail "$(basename "$f"): $out"
	done
}

# ---- run: two targets, three repeats ----
json=$T_DIR/run.json
run_iostorm run "${q[@]}" --repeat 3 --json "$json" "$a" "$b"
[ "$T_RC" -eq 0 ] && [ -s "$json" ] || { show_output; fail "run --repeat 3: exit $T_RC"; }
jq -e 'all(.devices[], .total; .repeats.n == 3) and .config.repeat == 3' "$json" >/dev/null ||
	check_fail "run --repeat 3: not 3 repeats everywhere: $(jq -c '[.devices[].repeats.n, .total.repeats.n]' "$json")"
repeat_sums "$json" '.devices[0]' '.devices[1]' '.total'
# repeat by repeat, the devices add up to the total
jq -e '[range(3) as $i | ([.devices[].repeats.runs[$i].ios] | add) == .total.repeats.runs[$i].ios] | all' \
	"$json" >/dev/null || check_fail "run: a repeat's devices do not add up to its total"
grep -q '^over 3 repeats' "$T_OUT" || { check_fail "run: no spread table"; show_output; }
rows=$(awk '/^over 3 repeats/ { on = 1; next } on && NF == 11 && $1 != "device"' "$T_OUT" | wc -l)
[ "$rows" -eq 3 ] || check_fail "run: the spread table has $rows rows, not 2 devices and the total"
grep -q ', 3 repeats' "$T_OUT" || check_fail "run: the config line does not say 3 repeats"

# ---- one repeat: one run of its own figures ----
run_iostorm run "${q[@]}" --json "$T_DIR/one.json" "$a"
jq -e '.devices[0] as $d | $d.repeats.n == 1 and $d.repeats.runs[0].ios == $d.ios
	and $d.repeats.iops.stddev == null' "$T_DIR/one.json" >/dev/null ||
	check_fail "run: one run is not one repeat of its own figures"
grep -q '^over ' "$T_OUT" && check_fail "run: a spread table for one run"

# ---- latency: the seconds say their repeat ----
run_iostorm latency --time 1s --ramp 50ms --repeat 2 --json "$T_DIR/lat.json" "$a"
jq -e '([.seconds[].repeat] | unique) == [1, 2] and ([.seconds[].ios] | add) == .devices[0].ios' \
	"$T_DIR/lat.json" >/dev/null ||
	check_fail "latency --repeat 2: seconds $(jq -c '[.seconds[] | [.repeat, .ios]]' "$T_DIR/lat.json"), IOs $(jq .devices[0].ios "$T_DIR/lat.json")"
repeat_sums "$T_DIR/lat.json" '.devices[0]'

# ---- sweep: each depth repeated ----
run_iostorm sweep "${q[@]}" --qd 1,2 --repeat 2 --json "$T_DIR/sweep.json" "$a" "$b"
jq -e 'all(.points[]; .repeats.n == 2 and all(.by_device[]; .repeats.n == 2))
	and all(.points[]; . as $p
		| ((([$p.by_device[].repeats.runs[0].iops] | add) - $p.repeats.runs[0].iops) | fabs)
		  < 1e-6 * ($p.iops + 1))' \
	"$T_DIR/sweep.json" >/dev/null || check_fail "sweep --repeat 2: $(jq -c '[.points[] | [.qd, .repeats.n, [.by_device[].repeats.n]]]' "$T_DIR/sweep.json")"
repeat_sums "$T_DIR/sweep.json" '.points[0]' '.points[1]'
grep -q '^QD2 ' "$T_OUT" || { check_fail "sweep: no spread row for QD2"; show_output; }

# ---- saturate: each step repeated ----
run_iostorm saturate "${q[@]}" --qd 2 --repeat 2 --json "$T_DIR/sat.json" "$a"
jq -e '.devices[0] | [.qd1.solo, .qd1.all, .qdn.solo, .qdn.all] | all(.repeats.n == 2)' \
	"$T_DIR/sat.json" >/dev/null || check_fail "saturate --repeat 2: $(jq -c '.devices[0] | [.qd1.solo.repeats.n, .qdn.all.repeats.n]' "$T_DIR/sat.json")"
repeat_sums "$T_DIR/sat.json" '.devices[0].qd1.solo' '.devices[0].qdn.all'

# ---- SIGINT in repeat 2 of 3: it is the last, kept, and the JSON whole ----
# Repeat 1 runs out its 8 s (a minute before, of a suite that CI runs
# three times); the signal goes as soon as repeat 2 says it measures,
# 8 s before it would end on its own.
live_iostorm run --time 8s --ramp 100ms --repeat 3 --json "$T_DIR/int.json" "$a"
if await_live "run 2/3]" 600; then
	kill -s INT "$T_PID"
	live_reap 300
	[ "$T_RC" -eq 0 ] || check_fail "SIGINT in repeat 2: exit $T_RC"
	jq -e '.interrupted and .devices[0].repeats.n == 2' "$T_DIR/int.json" >/dev/null ||
		check_fail "SIGINT in repeat 2: $(jq -c '[.interrupted, .devices[0].repeats.n]' "$T_DIR/int.json")"
	repeat_sums "$T_DIR/int.json" '.devices[0]'
	grep -q 'stopping after repeat 2 of 3' "$T_ERR" || { check_fail "SIGINT: not said"; show_output; }
else
	check_fail "repeat 2 never said it was measuring"
	kill -s KILL "$T_PID" 2>/dev/null
	live_reap 50
	show_output
fi
t_done
