# The "slo" object of a sweep --slo or saturate --slo report (docs/json.md,
# "The slo object"): every key, its type and no other. Prints what breaks
# it, a line each; nothing where it holds. Used by t_slo and t_slo_saturate.
def bad(cond; msg): if cond then empty else msg end;
def num: type == "number";
def num_or_null: type == "number" or type == "null";
def str_or_null: type == "string" or type == "null";
def pcts: type == "null" or (type == "object" and keys == ["p50", "p90", "p99", "p99.9", "p99.99"] and
	([.[] | type == "number"] | all));
def cend: type == "number" or type == "null";
def cis: type == "null" or (type == "object" and keys == ["p50", "p90", "p99", "p99.9", "p99.99"] and
	([.[] | type == "array" and length == 2 and (.[0] | cend) and (.[1] | cend)] | all));
# held: true (held), false (the device broke it), null (undecided, or the
# generator broke it)
def verdict: (.held | type == "boolean" or type == "null") and (.broke | str_or_null) and
	(if .held == true then .broke == null elif .held == false then .broke != null and .broke != "generator"
	 else .broke == null or .broke == "generator" end) and (.at_bound | type == "boolean") and
	((.at_bound | not) or .held == true);
def pt_body: (.rate | num) and (.iops | num) and (.ios | num) and (.windows | num) and
	(.percentiles_ns | pcts) and (.percentiles_ns_ci | cis) and (.service_ns | pcts) and (.service_ns_ci | cis) and
	(.late_share | num) and ([.lateness_octaves[] | num] | all) and (.slot_waited_ios | num) and (.depth | num) and
	(.run_delay_pct | num or . == null) and verdict;
def point: type == "object" and (keys == ["again", "at_bound", "broke", "depth", "held", "iops", "ios", "late_share",
	"lateness_octaves", "percentiles_ns", "percentiles_ns_ci", "rate", "run_delay_pct", "search", "service_ns", "service_ns_ci",
	"slot_waited_ios", "windows"]) and
	(.search | num) and (.again | type == "boolean") and pt_body;
def together_point: type == "object" and keys == ["again", "broke", "by_device", "device", "fraction", "held"] and
	(.fraction | num) and (.held | type == "boolean" or type == "null") and (.device | str_or_null) and (.broke | str_or_null) and
	([.by_device[] | keys == ["at_bound", "broke", "depth", "held", "iops", "ios", "late_share", "lateness_octaves", "name",
		"percentiles_ns", "percentiles_ns_ci", "rate", "run_delay_pct", "service_ns", "service_ns_ci", "slot_waited_ios",
		"windows"] and (.name | type == "string") and
		pt_body] | all);
.command as $cmd | .slo as $s |
bad($s | type == "object"; "slo: \($s | type)"),
bad(($s | keys) == ((["bounds", "devices", "interrupted", "max_points", "searches"] +
	(if $cmd == "saturate" then ["attribution", "together"] else [] end)) | sort); "slo keys: \($s | keys)"),
($s.bounds[] | bad(keys == ["ns", "percentile"] and (.ns | num) and (.percentile | type == "string"); "bound: \(.)")),
bad(($s.max_points | num) and ($s.searches | num) and ($s.interrupted | type == "boolean"); "slo: max_points, searches, interrupted"),
($s.devices[] | bad(type == "object" and keys == ["capacities", "capacity_iops", "capacity_iops_ci", "confirmed", "failed",
	"first_failing_iops", "first_failing_percentile", "generator_iops", "lowest", "max_iops", "missed", "name", "points",
	"start_iops", "undecided_iops"]; "device keys: \(keys)"),
	bad((.name | type == "string") and (.max_iops | num) and (.capacity_iops | num_or_null) and
		(.capacity_iops_ci | type == "null" or (type == "array" and length == 2 and ([.[] | num] | all))) and
		(.start_iops | num_or_null) and (.generator_iops | num_or_null) and
		(.undecided_iops | type == "null" or (type == "array" and length == 2 and ([.[] | num] | all))) and
		([.capacities[] | num_or_null] | all) and (.confirmed | type == "boolean") and
		(.missed | type == "boolean") and (.failed | str_or_null) and (.first_failing_iops | num_or_null) and
		(.first_failing_percentile | str_or_null) and (.lowest | type == "null" or point) and
		([.points[] | point] | all); "device \(.name): a type")),
(if $cmd == "saturate" then
	bad($s.attribution | type == "object" and keys == ["kind", "text"]; "attribution: \($s.attribution)"),
	($s.together | bad(type == "null" or (keys == ["capacity_iops", "confirmed", "devices", "first_failing_device",
		"first_failing_fraction", "first_failing_percentile", "fraction", "gap_pct", "points", "sum_alone_iops"] and
		(.devices | num) and (.sum_alone_iops | num) and (.fraction | num_or_null) and (.capacity_iops | num_or_null) and
		(.gap_pct | num_or_null) and (.confirmed | type == "boolean") and (.first_failing_fraction | num_or_null) and
		(.first_failing_device | str_or_null) and (.first_failing_percentile | str_or_null) and
		([.points[] | together_point] | all)); "together: a key or a type"))
else empty end)
