# The same kind of fault gets the same exit status (iostorm(1), EXIT
# STATUS): a file named on the command line that cannot be opened or read
# exits 1; what the command was told, on the command line or inside one of
# those files, exits 2. Each case: that status, nothing on stdout, exactly
# one line on stderr naming the file. The unreadable cases need another
# user: t_exit_status_root.sh.
. "$(dirname "$0")/lib.sh"
need_iostorm

make_data_file f 8
fx=tests/fixtures
two=$fx/topo-2node-free.xml
none=$T_DIR/none
mkdir "$T_DIR/dir"
dir=$T_DIR/dir
q=(-q --time 200ms --ramp 0)

# 1: a named file missing, or a directory (it cannot be read)
for p in "$none" "$dir"; do
	expect_error "target $p" 1 "$p" run "${q[@]}" "$p"
	expect_error "topo --topology $p" 1 "$p" topo --topology "$p"
	expect_error "plan --topology $p" 1 "$p" plan --topology "$p" --drive-iops 1m
	expect_error "-c $p" 1 "$p: cannot read the job file" -c "$p" run "$f"
	expect_error "plan --from $p" 1 "$p" plan --topology "$two" --from "$p"
	expect_error "plot $p" 1 "$p" plot -o "$T_DIR/x.svg" "$p"
done

# 2: what a file holds is not what the command takes
printf '[job]\ncommand = run\nqd = abc\n' >"$T_DIR/badval.ini"
expect_error "job file bad value" 2 "$T_DIR/badval.ini:3: bad value for qd" \
	-c "$T_DIR/badval.ini" "$f"
printf '[job]\ncommand = run\nqdepth = 4\n' >"$T_DIR/badkey.ini"
expect_error "job file bad key" 2 "$T_DIR/badkey.ini:3: unknown key" -c "$T_DIR/badkey.ini" "$f"
printf 'not an ini file\n' >"$T_DIR/junk.ini"
expect_error "job file junk" 2 "$T_DIR/junk.ini:1:" -c "$T_DIR/junk.ini" "$f"
expect_error "XML hwloc crashes on" 2 "topo-hwloc-crash.xml: not an lstopo XML" \
	topo --topology "$fx/topo-hwloc-crash.xml"
expect_error "plan: XML hwloc crashes on" 2 "topo-hwloc-crash.xml: not an lstopo XML" \
	plan --topology "$fx/topo-hwloc-crash.xml" --drive-iops 1m
echo 'not xml' >"$T_DIR/bad.xml"
expect_error "not XML" 2 "bad.xml" topo --topology "$T_DIR/bad.xml"
echo '{"schema": "iostorm/1"}' >"$T_DIR/notrep.json"
expect_error "plan --from: not a report" 2 "notrep.json: not a saturate report" \
	plan --topology "$two" --from "$T_DIR/notrep.json"
expect_error "plot: not a report" 2 "notrep.json: not an iostorm report" \
	plot -o "$T_DIR/x.svg" "$T_DIR/notrep.json"
echo 'not json' >"$T_DIR/text.json"
expect_error "plot: not JSON" 2 "text.json: not an iostorm report" \
	plot -o "$T_DIR/x.svg" "$T_DIR/text.json"
expect_error "plan --from: not JSON" 2 "text.json: not JSON" \
	plan --topology "$two" --from "$T_DIR/text.json"

# and the command line itself
expect_error "bad value" 2 "--qd" run "${q[@]}" --qd 0 "$f"
expect_error "unknown command" 2 "unknown command 'fly'" fly
t_done
