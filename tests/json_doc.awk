# The key paths docs/json.md documents, one "command<TAB>path<TAB>types<TAB>
# conditional" line each, shapes expanded (the rules are in the file's "How
# to read the tables"). types is a comma-separated list of string, integer,
# number, bool, null, object, array; conditional is 1 for a key whose
# meaning starts with "(only". Says what it cannot read on stderr and exits
# 1. Used by tests/t_json_shape.sh.
function trim(s) { gsub(/^[ \t]+|[ \t]+$/, "", s); return s }
function bad(msg) { printf "docs/json.md:%d: %s\n", NR, msg > "/dev/stderr"; failed = 1 }
# the commands or shape named in backticks on a Reports: or Shape line
function ticked(s,   out) {
	out = ""
	while (match(s, /`[a-z_]+`/)) {
		out = out (out == "" ? "" : " ") substr(s, RSTART + 1, RLENGTH - 2)
		s = substr(s, RSTART + RLENGTH)
	}
	return out
}
/^Reports: / {
	mode = "r"
	nsec++
	sec_cmds[nsec] = ticked($0)
	if (sec_cmds[nsec] == "")
		bad("a Reports: line that names no command")
	next
}
/^Shape `/ {
	mode = "s"
	shape = ticked($0)
	if ($0 ~ /: an object\.$/)
		shape_kind[shape] = "object"
	else if ($0 ~ /: an array\.$/)
		shape_kind[shape] = "array"
	else
		bad("a Shape line that says neither \"an object.\" nor \"an array.\"")
	next
}
/^## / { if (mode == "s") mode = "" }
/^\|/ {
	if (mode == "")
		next
	n = split($0, c, "|")
	key = trim(c[2])
	if (key == "key" || key ~ /^-+$/)
		next
	if (n < 5 || key !~ /^`[^`]+`$/) {
		bad("a row whose first cell is not one key path in backticks: " $0)
		next
	}
	key = substr(key, 2, length(key) - 2)
	type = trim(c[3])
	cond = trim(c[4]) ~ /^\(only/ ? 1 : 0
	if (mode == "r") {
		i = ++nrow[nsec]
		row_key[nsec, i] = key; row_type[nsec, i] = type; row_cond[nsec, i] = cond
	} else {
		if (key !~ /^(\.|\[\])/)
			bad("a shape's row whose path starts with neither . nor []: " key)
		i = ++nsrow[shape]
		srow_key[shape, i] = key; srow_type[shape, i] = type; srow_cond[shape, i] = cond
	}
}
# one documented path, and what its shapes add below it
function expand(cmd, path, type, cond, depth,   t, nt, k, base, out, name, i) {
	if (depth > 8) {
		bad("shapes nested deeper than 8 at " path)
		return
	}
	nt = split(type, t, / or /)
	out = ""
	for (k = 1; k <= nt; k++) {
		base = trim(t[k])
		if (base ~ /^`[a-z_]+`$/) {
			name = substr(base, 2, length(base) - 2)
			if (!(name in shape_kind)) {
				bad("no shape " name " (at " path ")")
				continue
			}
			base = shape_kind[name]
			for (i = 1; i <= nsrow[name]; i++)
				expand(cmd, path srow_key[name, i], srow_type[name, i],
				       cond || srow_cond[name, i], depth + 1)
		} else if (base !~ /^(string|integer|number|bool|null|object|array)$/) {
			bad("unknown type \"" base "\" at " path)
		}
		out = out (out == "" ? "" : ",") base
	}
	if ((cmd, path) in seen)
		bad("documented twice for " cmd ": " path)
	seen[cmd, path] = 1
	printf "%s\t%s\t%s\t%d\n", cmd, path, out, cond
}
END {
	for (s = 1; s <= nsec; s++) {
		nc = split(sec_cmds[s], cmds, " ")
		for (j = 1; j <= nc; j++)
			for (i = 1; i <= nrow[s]; i++)
				expand(cmds[j], row_key[s, i], row_type[s, i], row_cond[s, i], 0)
	}
	exit failed
}
