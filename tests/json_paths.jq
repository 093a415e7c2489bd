# Every key path of a JSON report with the type of its value, one
# "path<TAB>type" line each (duplicates included): paths as docs/json.md
# writes them (devices[].lat_ns.p99, an array's elements as []), types
# string, integer (a number without a fraction), number, bool, null, object
# or array. Used by tests/t_json_shape.sh.
def kind:
	if type == "boolean" then "bool"
	elif type == "number" then (if . == floor then "integer" else "number" end)
	else type end;
def paths_of(p):
	[p, kind],
	(if type == "object" then
		to_entries[] | .key as $k | .value | paths_of(if p == "" then $k else p + "." + $k end)
	elif type == "array" then
		.[] | paths_of(p + "[]")
	else empty end);
paths_of("") | select(.[0] != "") | @tsv
