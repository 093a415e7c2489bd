# The "slo" object of a sweep --slo or saturate --slo report (docs/json.md,
# "The slo object"): every key, its type and no other. Prints what breaks
# it, a line each; nothing where it holds. Used by t_slo and t_slo_saturate.
def bad(cond; msg): if cond then empty else msg end;
def num: type == "number";
def num_or_null: type == "number" or type == "null";
def str_or_null: type == "string" or type == "null";
def pcts: type == "null" or (type == "object" and keys == ["p50", "p90", "p99", "p99.9", "p99.99"] and
	([.[] | type == "number"] | all));
def point: type == "object" and (keys == ["again", "broke", "held", "iops", "percentiles_ns", "rate", "search"]) and
	(.search | num) and (.rate | num) and (.iops | num) and (.again | type == "boolean") and
	(.held | type == "boolean") and (.percentiles_ns | pcts) and (.broke | str_or_null) and
	(.held == (.broke == null));
def together_point: type == "object" and keys == ["again", "broke", "by_device", "device", "fraction", "held"] and
	(.fraction | num) and (.held | type == "boolean") and (.device | str_or_null) and (.broke | str_or_null) and
	([.by_device[] | keys == ["broke", "held", "iops", "name", "percentiles_ns", "rate"] and (.name | type == "string") and
		(.rate | num) and (.iops | num) and (.percentiles_ns | pcts)] | all);
.command as $cmd | .slo as $s |
bad($s | type == "object"; "slo: \($s | type)"),
bad(($s | keys) == ((["bounds", "devices", "interrupted", "max_points", "searches"] +
	(if $cmd == "saturate" then ["attribution", "together"] else [] end)) | sort); "slo keys: \($s | keys)"),
($s.bounds[] | bad(keys == ["ns", "percentile"] and (.ns | num) and (.percentile | type == "string"); "bound: \(.)")),
bad(($s.max_points | num) and ($s.searches | num) and ($s.interrupted | type == "boolean"); "slo: max_points, searches, interrupted"),
($s.devices[] | bad(type == "object" and keys == ["capacities", "capacity_ci95", "capacity_iops", "confirmed", "failed",
	"first_failing_iops", "first_failing_percentile", "lowest", "max_iops", "missed", "name", "points"]; "device keys: \(keys)"),
	bad((.name | type == "string") and (.max_iops | num) and (.capacity_iops | num_or_null) and
		(.capacity_ci95 | type == "null" or (type == "array" and length == 2 and ([.[] | num] | all))) and
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
