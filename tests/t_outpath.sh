# A report is never lost: every command's output file (--json
# FILE of run, nop, latency, sweep, saturate, plan and topo; plot -o) is
# made ready before the first IO. A path in a missing folder, a path that
# is a directory and a folder nobody may write to each stop the command at
# once: exit 1, one line on stderr naming the path, nothing on stdout, not
# one read on the target (its /sys/block/loopN/stat read count does not
# move), and no PATH.tmp-* left. A good path gets its report and no
# temporary is left: after a whole run, after a usage error and a failure
# found once the file was reserved, after SIGINT (the partial report) and
# after a run that ends with exit 1 on a failing device.
. "$(dirname "$0")/lib.sh"
need_iostorm
need_cmd jq

fx=$(cd "$(dirname "$0")" && pwd)/fixtures
f=
# readable and searchable by nobody (mktemp -d makes it 0700)
chmod 755 "$T_DIR"
good=$T_DIR/good
ro=$T_DIR/ro
mkdir "$good" "$ro" "$T_DIR/mark"
chmod 555 "$ro"
# plot's gnuplot leaves a mark when it runs (for nobody too), then draws
chmod 777 "$T_DIR/mark"
gp=$T_DIR/gnuplot
printf '#!/bin/sh\ntouch %s/mark/ran\nexec %s\n' "$T_DIR" "$(command -v gnuplot || echo false)" >"$gp"
chmod 755 "$gp"
export IOSTORM_GNUPLOT=$gp

# (and beside the data file $f, once there is one)
leftovers() {
	{ find "$T_DIR" -name '*.tmp-*'; [ -z "${f:-}" ] || ls -d "$f".tmp-* 2>/dev/null; } | head -1
}

# refused WHAT PATTERN: the last command exited 1 with nothing on stdout,
# exactly one line on stderr matching PATTERN, and left no temporary
refused() {
	if [ "$T_RC" -ne 1 ] || [ -s "$T_OUT" ] || [ "$(wc -l <"$T_ERR")" -ne 1 ] ||
	   ! grep -Eq -- "$2" "$T_ERR"; then
		check_fail "$1: want exit 1, one line /$2/ and no stdout, got exit $T_RC"
		show_output
	fi
	[ -z "$(leftovers)" ] || check_fail "$1: temporary file left: $(leftovers)"
}

# run_nobody ARGS...: iostorm as an unprivileged user (root writes
# anywhere), from the copy nobody_iostorm made, which also holds the
# fixtures the commands read (the clone may be under /root, closed to
# nobody). nobody: whether it could be made (a missing setpriv is a
# failed check, said).
nobody=false
nobody_iostorm "$fx/topo-1node-2hb.xml" "$fx/report-run.json" && nobody=true
run_nobody() {
	as_nobody "$T_NOBODY_IOSTORM" "$@" >"$T_OUT" 2>"$T_ERR" </dev/null
	T_RC=$?
}


# bad_paths VERB EXT ARGS...: VERB with its output (--json, or -o for
# plot) in a missing folder, on a directory and in a folder nobody may
# write; ARGS after the path. With $dev set, the device was not read.
bad_paths() {
	local verb=$1 ext=$2 opt=--json before p
	shift 2
	[ "$verb" = plot ] && opt=-o
	mkdir -p "$T_DIR/isdir$ext"
	for p in "$T_DIR/none/r$ext" "$T_DIR/isdir$ext" "$ro/r$ext"; do
		rm -f "$T_DIR/mark/ran"
		before=${dev:+$(dev_reads "$dev")}
		case $p in
		"$ro"/*)
			$nobody || continue
			run_nobody "$verb" "$opt" "$p" "$@"
			refused "$verb $opt in a folder nobody may write" \
				"^iostorm $verb: $p: Permission denied$" ;;
		"$T_DIR/none"/*)
			run_iostorm "$verb" "$opt" "$p" "$@"
			refused "$verb $opt in a missing folder" \
				"^iostorm $verb: $p: No such file or directory$" ;;
		*)
			run_iostorm "$verb" "$opt" "$p" "$@"
			refused "$verb $opt on a directory" "^iostorm $verb: $p: Is a directory$" ;;
		esac
		[ -z "$before" ] || [ "$(dev_reads "$dev")" = "$before" ] ||
			check_fail "$verb $opt $p: the target was read ($before, then $(dev_reads "$dev") reads)"
		[ -e "$T_DIR/mark/ran" ] && check_fail "$verb $opt $p: gnuplot ran"
	done
}

# ---- commands without a target ----
dev=
# a refused run would take 2 s and print its table: neither happens
bad_paths nop .json --time 2s
bad_paths topo .json
bad_paths plan .json --topology "${T_NOBODY_DIR:-$fx}/topo-1node-2hb.xml" --drive-iops 1m
bad_paths plot .svg "${T_NOBODY_DIR:-$fx}/report-run.json"
# the picture's path before the report is even read
echo '{}' >"$T_DIR/notreport.json"
run_iostorm plot -o "$T_DIR/none/n.svg" "$T_DIR/notreport.json"
refused "plot -o in a missing folder, of a non-report" "^iostorm plot: $T_DIR/none/n.svg: No such"
# a report that is not one: the reserved picture's temporary goes too
run_iostorm plot -o "$good/n.svg" "$T_DIR/notreport.json"
[ "$T_RC" -eq 2 ] || { check_fail "plot of a non-report: exit $T_RC, want 2"; show_output; }
[ -z "$(leftovers)" ] || check_fail "plot of a non-report: temporary file left: $(leftovers)"
if command -v gnuplot >/dev/null; then
	expect_ok "plot -o a good path" plot -o "$good/r.svg" "$fx/report-run.json" &&
		{ [ -s "$good/r.svg" ] || check_fail "plot: no picture at $good/r.svg"; }
	[ -e "$T_DIR/mark/ran" ] || check_fail "plot: \$IOSTORM_GNUPLOT did not run (the marks prove nothing)"
else
	echo "note: no gnuplot: plot's good path is not checked"
fi
for v in nop topo; do
	extra=()
	[ $v = nop ] && extra=(-q --time 200ms --ramp 0)
	expect_ok "$v --json a good path" $v "${extra[@]}" --json "$good/$v.json" &&
		{ jq -e '.schema == "iostorm/1"' "$good/$v.json" >/dev/null ||
			check_fail "$v: no report at $good/$v.json"; }
done
expect_ok "plan --json a good path" plan --topology "$fx/topo-1node-2hb.xml" --drive-iops 1m --json "$good/plan.json" &&
	{ jq -e '.schema == "iostorm/1"' "$good/plan.json" >/dev/null ||
		check_fail "plan: no report at $good/plan.json"; }
# stdout needs no file; a FIFO is written in place once its reader comes
expect_ok "--json -" nop -q --time 100ms --ramp 0 --json -
jq -e '.schema == "iostorm/1"' "$T_OUT" >/dev/null || check_fail "--json -: no report on stdout"
[ -z "$(leftovers)" ] || check_fail "commands without a target: temporary file left: $(leftovers)"

# ---- commands on a device: not one read when the path is refused ----
make_loop dev 16
command -v udevadm >/dev/null && udevadm settle 2>/dev/null
q=(--time 2s --ramp 0)
bad_paths run .json "${q[@]}" "$dev"
bad_paths latency .json "${q[@]}" "$dev"
bad_paths sweep .json "${q[@]}" --qd 1,2 "$dev"
bad_paths saturate .json "${q[@]}" "$dev"

s=(-q --time 200ms --ramp 0)
for v in run latency sweep saturate; do
	extra=()
	[ $v = sweep ] && extra=(--qd 1,2)
	[ $v = latency ] && extra=(--time 1s)
	expect_ok "$v --json a good path" $v "${s[@]}" "${extra[@]}" --json "$good/$v.json" "$dev" &&
		{ jq -e --arg v $v '.schema == "iostorm/1" and .command == $v' "$good/$v.json" \
			>/dev/null || check_fail "$v: no report at $good/$v.json"; }
done
[ -z "$(leftovers)" ] || check_fail "good paths: temporary file left: $(leftovers)"

# a FIFO is written in place, opened only at the end: the run does not
# wait for its reader, whose open comes once the device is being read
mkfifo "$T_DIR/fifo"
before=$(dev_reads "$dev")
"$IOSTORM" run -q --time 1s --ramp 0 --json "$T_DIR/fifo" "$dev" >"$T_OUT" 2>"$T_ERR" </dev/null &
pid=$!
if ! await_reads "$dev" "$before" "$pid" 300; then
	check_fail "--json FIFO: the run did not start before the FIFO had a reader"
	timeout 10 cat "$T_DIR/fifo" >/dev/null
else
	timeout 60 jq -c .schema "$T_DIR/fifo" >"$T_DIR/fifo.out"
	[ "$(cat "$T_DIR/fifo.out")" = '"iostorm/1"' ] || check_fail "--json FIFO: the reader got no report"
fi
wait "$pid" || { check_fail "--json FIFO: exit $?"; show_output; }
[ -p "$T_DIR/fifo" ] || check_fail "--json FIFO: the FIFO was replaced"

# a usage error once the file is reserved (--json names the target), and
# a target that cannot be opened: no report, no temporary
make_data_file f 4
run_iostorm run "${s[@]}" --json "$f" "$f"
[ "$T_RC" -eq 2 ] || { check_fail "--json on the target: exit $T_RC, want 2"; show_output; }
run_iostorm run "${s[@]}" --json "$good/gone.json" "$T_DIR/no-such-target"
[ "$T_RC" -eq 1 ] || { check_fail "a target that is not there: exit $T_RC, want 1"; show_output; }
[ -e "$good/gone.json" ] && check_fail "a target that is not there: a report was written"
[ -z "$(leftovers)" ] || check_fail "failed before the run: temporary file left: $(leftovers)"

# SIGINT once the device is being read (not after a fixed sleep): the
# partial report arrives and no temporary is left
for v in run saturate; do
	json=$good/int-$v.json
	before=$(dev_reads "$dev")
	"$IOSTORM" $v -q --time 60s --ramp 0 --json "$json" "$dev" >"$T_OUT" 2>"$T_ERR" </dev/null &
	pid=$!
	await_reads "$dev" "$before" "$pid" 300
	kill -INT "$pid" 2>/dev/null
	reap_within "$pid" 300
	[ "$T_RC" -eq 0 ] || { check_fail "$v SIGINT: exit $T_RC, want 0"; show_output; }
	jq -e '.interrupted == true' "$json" >/dev/null 2>&1 ||
		check_fail "$v SIGINT: no partial report at $json"
	[ -z "$(leftovers)" ] || check_fail "$v SIGINT: temporary file left: $(leftovers)"
done

# a run that ends with exit 1 (every read fails) still writes its report
make_fault_loop bad ctl 16
echo eio >"$ctl"
run_iostorm run "${s[@]}" --json "$good/eio.json" "$bad"
echo ok >"$ctl"
[ "$T_RC" -eq 1 ] || { check_fail "failing device: exit $T_RC, want 1"; show_output; }
jq -e '.total.errors > 0' "$good/eio.json" >/dev/null 2>&1 ||
	check_fail "failing device: no report with its errors at $good/eio.json"
[ -z "$(leftovers)" ] || check_fail "failing device: temporary file left: $(leftovers)"
t_done
