# --json FILE: the report arrives whole or not at all. A run writes a
# complete file and leaves no PATH.tmp-* beside it; a path that cannot be
# written gives one line and exit 1; a write that fails half-way (a file
# size limit) leaves the previous report as it was.
. "$(dirname "$0")/lib.sh"
need_iostorm
need_cmd jq

make_data_file f 16
q=(-q --time 200ms --ramp 0)
out=$T_DIR/out
mkdir "$out"

leftovers() { find "$out" -name '*.tmp-*' | head -1; }

# one_error WHAT PATTERN: the last run exited 1 with one line on stderr
# matching PATTERN (the table still goes to stdout)
one_error() {
	if [ "$T_RC" -ne 1 ] || [ "$(wc -l <"$T_ERR")" -ne 1 ] || ! grep -Eq -- "$2" "$T_ERR"; then
		check_fail "$1: want exit 1 and one line /$2/, got exit $T_RC"
		show_output
	fi
}

if expect_ok "write" run "${q[@]}" --json "$out/r.json" "$f"; then
	json_check "$out/r.json" run 1 || check_fail "write: JSON shape"
	[ "$(tail -c 1 "$out/r.json" | od -An -c | tr -d ' ')" = '\n' ] ||
		check_fail "write: no final newline"
	[ -z "$(leftovers)" ] || check_fail "write: temporary file left: $(leftovers)"
fi

# a second run replaces the first report
cp "$out/r.json" "$out/first.json"
expect_ok "replace" run "${q[@]}" --seed 7 --json "$out/r.json" "$f" &&
	[ "$(jq .config.seed "$out/r.json")" = 7 ] || check_fail "replace: not the new report"

run_iostorm run "${q[@]}" --json "$out/none/r.json" "$f"
one_error "missing directory" "^iostorm run: $out/none/r.json: No such file or directory$"

# writing stops at the size limit after the temporary file exists: the
# error names the path, the old report stays whole, nothing is left over
cp "$out/first.json" "$out/r.json"
# (stderr through a pipe: the limit would stop a file there too)
run_limited() {
	local err

	err=$( (ulimit -f 0; trap '' XFSZ; exec "$IOSTORM" "$@" 2>&1 >/dev/null </dev/null) )
	T_RC=$?
	printf '%s\n' "$err" >"$T_ERR"
}
run_limited run "${q[@]}" --json "$out/r.json" "$f"
one_error "size limit" "^iostorm run: $out/r.json: cannot write the JSON report: "
cmp -s "$out/r.json" "$out/first.json" || check_fail "size limit: the old report changed"
[ -z "$(leftovers)" ] || check_fail "size limit: temporary file left: $(leftovers)"

# not a regular file: written in place, never renamed over
expect_ok "/dev/null" run "${q[@]}" --json /dev/null "$f"
[ -c /dev/null ] || fail "/dev/null is no longer a device"
t_done
