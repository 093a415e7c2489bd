# Every additive figure adds up, not only ios: in run's JSON the devices
# sum to the total for ios, errors, calls, CPU seconds, iops and bw_bytes
# (the total's rates are defined as the sum of the devices' own rates,
# docs/json.md), and the table's rows show the same figures, its total row
# the sum of the rows above it within their rounding; each timeline sums to
# its ios. In sweep each point is the sum of its targets. In saturate the
# healthy devices sum to each NUMA node, to each host bridge and to the
# system, and the nodes to the system. Several loop devices, a file, a
# device whose reads fail (errors to add), two workers per device.
. "$(dirname "$0")/lib.sh"
need_iostorm
need_cmd jq awk

make_loop a 16
make_loop b 16
make_data_file file 16
targets=("$a" "$b" "$file")
# the failing device is what makes the errors column add up more than zeros
make_fault_loop fault ctl 16
echo eio >"$ctl"
targets+=("$fault")
q=(--time 300ms --ramp 0)

# ---- run: the JSON ----
json=$T_DIR/run.json
run_iostorm run "${q[@]}" --jobs-per-device 2 --json "$json" "${targets[@]}"
[ -s "$json" ] || { show_output; fail "run: no JSON (exit $T_RC)"; }
cp "$T_OUT" "$T_DIR/table"
jq -e --argjson n "${#targets[@]}" '.devices | length == $n' "$json" >/dev/null ||
	check_fail "run: not one device per target"
jq -e 'all(.devices[]; (.cpus | length) == 2)' "$json" >/dev/null ||
	check_fail "run: a device without its two workers: $(jq -c '[.devices[].cpus]' "$json")"
[ -z "$fault" ] || jq -e '[.devices[].errors] | add > 0' "$json" >/dev/null ||
	check_fail "run: the failing device had no errors"
sums=$(jq -r '
	def close(a; b): ((a - b) | fabs) <= 1e-9 * ((b | fabs) + 1);
	def sum(f): [.devices[] | f] | add;
	. as $r
	| ([["iops", "exact"], ["bw_bytes", "exact"], ["ios", "int"], ["errors", "int"],
	    ["calls", "int"]][]
	   | .[0] as $k | .[1] as $how
	   | ($r | sum(.[$k])) as $s | $r.total[$k] as $t
	   | if ($how == "int" and $s != $t) or ($how == "exact" and (close($s; $t) | not))
	     then "total.\($k) is \($t), the devices add up to \($s)" else empty end),
	  # a part of the split below its tick is null (docs/cpu.md): the
	  # parts add up where every device resolves them
	  ((["time_s", "ios"] + (if all($r.devices[].cpu; .user_s != null and .sys_s != null)
				 then ["user_s", "sys_s"] else [] end))[]
	   | . as $k | ($r | sum(.cpu[$k])) as $s | $r.total.cpu[$k] as $t
	   | if close($s; $t) then empty else "total.cpu.\($k) is \($t), the devices add up to \($s)" end),
	  (($r.devices[], $r.total) | select(([.timeline[].ios] | add // 0) != .ios)
	   | "\(.name // "total"): its timeline holds \([.timeline[].ios] | add) IOs, not \(.ios)"),
	  (if (([.devices[].timeline[].ios] | add) != ([.total.timeline[].ios] | add))
	   then "the devices timelines do not add up to the total timeline" else empty end)
' "$json") || check_fail "run: jq failed on the JSON"
while IFS= read -r line; do
	[ -z "$line" ] || check_fail "run JSON: $line"
done <<<"$sums"

# ---- run: the table says the same, and its total row adds up ----
# rows: name IOPS MiB/s mean p50 p90 p99 p99.9 p99.99 max CPU% ns/IO usr% IO/call errors
awk '/^device +IOPS/ { on = 1; next } /^latency in/ { on = 0 } on && NF == 15 {
	print $1, $2, $3, $14, $15 }' "$T_DIR/table" >"$T_DIR/rows"
[ "$(wc -l <"$T_DIR/rows")" -eq $((${#targets[@]} + 1)) ] ||
	{ check_fail "table: want ${#targets[@]} device rows and a total row"; cat "$T_DIR/table" >&2; }
jq -r '(.devices[], (.total | .name = "total"))
	| "\(.name) \(.iops) \(.bw_bytes / 1048576) \(.ios_per_call) \(.errors)"' "$json" >"$T_DIR/want"
table=$(awk -v n="${#targets[@]}" '
	FILENAME == ARGV[1] { iops[$1] = $2; mib[$1] = $3; ipc[$1] = $4; err[$1] = $5; next }
	{
		if (!($1 in iops)) { print "a row for " $1 ", which the JSON does not have"; next }
		if ($2 != sprintf("%.0f", iops[$1])) print $1 ": IOPS " $2 ", JSON " iops[$1]
		if ($3 != sprintf("%.1f", mib[$1])) print $1 ": MiB/s " $3 ", JSON " mib[$1]
		if ($4 != sprintf("%.2f", ipc[$1])) print $1 ": IO/call " $4 ", JSON " ipc[$1]
		if ($5 != err[$1]) print $1 ": errors " $5 ", JSON " err[$1]
		if ($1 == "total") { ti = $2; tm = $3; te = $5; next }
		si += $2; sm += $3; se += $5
	}
	END {
		# each row is rounded to half a unit: n of them, and the total
		if ((si - ti) > (n + 1) / 2 || (ti - si) > (n + 1) / 2)
			print "the IOPS rows add up to " si ", the total row says " ti
		if ((sm - tm) > (n + 1) * 0.05 + 1e-9 || (tm - sm) > (n + 1) * 0.05 + 1e-9)
			print "the MiB/s rows add up to " sm ", the total row says " tm
		if (se != te)
			print "the errors rows add up to " se ", the total row says " te
	}' "$T_DIR/want" "$T_DIR/rows")
while IFS= read -r line; do
	[ -z "$line" ] || check_fail "table: $line"
done <<<"$table"

# ---- sweep: each point is its targets' sum ----
json=$T_DIR/sweep.json
run_iostorm sweep -q "${q[@]}" --qd 1,4 --json "$json" "$a" "$b" "$file"
if [ -s "$json" ]; then
	jq -e '
		def close(a; b): ((a - b) | fabs) <= 1e-9 * ((b | fabs) + 1);
		(.points | length) == 2
		and all(.points[]; close(.iops; [.by_device[].iops] | add)
			and (.by_device | length) == 3
			and ([.timeline[].ios] | add) == .ios)
	' "$json" >/dev/null || check_fail "sweep: a point is not its targets' sum: $(jq -c '[.points[] | {qd, iops, by: [.by_device[].iops]}]' "$json")"
else
	check_fail "sweep: no JSON (exit $T_RC)"
	show_output
fi

# ---- saturate: devices -> nodes -> system, devices -> host bridges ----
json=$T_DIR/sat.json
run_iostorm saturate -q "${q[@]}" --qd 4 --json "$json" "${targets[@]}"
[ -s "$json" ] || { show_output; fail "saturate: no JSON (exit $T_RC)"; }
sums=$(jq -r '
	def close(a; b): ((a - b) | fabs) <= 1e-9 * ((b | fabs) + 1);
	def figs: {solo_sum_iops: .qdn.solo.iops, all_iops: .qdn.all.iops,
		   qd1_solo_sum_iops: .qd1.solo.iops, qd1_all_iops: .qd1.all.iops};
	# a group (node or host bridge) against the healthy devices in it
	def group(what; sub; devs):
		(if (devs | length) != sub.ndevices
		 then "\(what): ndevices \(sub.ndevices), \(devs | length) devices are in it" else empty end),
		(["solo_sum_iops", "all_iops", "qd1_solo_sum_iops", "qd1_all_iops"][] as $k
		 | ([devs[] | figs[$k]] | add) as $s
		 | if close($s; sub[$k]) then empty
		   else "\(what).\($k) is \(sub[$k]), its devices add up to \($s)" end);
	. as $r
	| [.devices[] | select(.failed == null)] as $ok
	| (if ($ok | map(.name)) != .system.devices then "system.devices is not the healthy devices" else empty end),
	  ({qdn: ["solo_sum_iops", "qdn", "solo"], qdn_all: ["all_iops", "qdn", "all"],
	    qd1: ["solo_sum_iops", "qd1", "solo"], qd1_all: ["all_iops", "qd1", "all"]}
	   | to_entries[] | .value as [$k, $q, $step]
	   | ([$ok[] | .[$q][$step].iops] | add) as $s | $r.system[$q][$k] as $t
	   | if close($s; $t) then empty else "system.\($q).\($k) is \($t), the devices add up to \($s)" end),
	  (.nodes[] as $n | group("node \($n.os_index)"; $n;
		[$ok[] | select((.numa_nodes[0] // null) == $n.os_index)])),
	  (.host_bridges[] as $h | group("host bridge \($h.id)"; $h;
		[$ok[] | select((.host_bridge // null) == $h.id)])),
	  (if ([.nodes[].ndevices] | add // 0) != ($ok | length) then "the nodes do not hold every healthy device once" else empty end),
	  (if ([.host_bridges[].ndevices] | add // 0) != ($ok | length) then "the host bridges do not hold every healthy device once" else empty end),
	  (["solo_sum_iops", "all_iops", "qd1_solo_sum_iops", "qd1_all_iops"][] as $k
	   | ([$r.nodes[][$k]] | add) as $s
	   | (if $k | startswith("qd1") then $r.system.qd1 else $r.system.qdn end)
	     [$k | ltrimstr("qd1_")] as $t
	   | if close($s; $t) then empty else "the nodes add up to \($s) for \($k), the system says \($t)" end)
' "$json") || check_fail "saturate: jq failed on the JSON"
while IFS= read -r line; do
	[ -z "$line" ] || check_fail "saturate JSON: $line"
done <<<"$sums"
[ -z "$fault" ] || jq -e --arg f "$(basename "$fault")" \
	'.devices[] | select(.name == $f) | .failed | type == "string"' "$json" >/dev/null ||
	check_fail "saturate: the failing device was not left out"
jq -e '(.nodes | length) > 0 and (.host_bridges | length) > 0' "$json" >/dev/null ||
	check_fail "saturate: no node or host bridge to add up"
t_done
