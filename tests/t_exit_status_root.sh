# t_exit_status.sh's rule for files that are there but cannot be read: a
# root-only file read as nobody exits 1 with one line naming it and nothing
# on stdout, whichever option named it. Needs root (setpriv to nobody).
. "$(dirname "$0")/lib.sh"
need_iostorm
need_root "setpriv to nobody"

make_data_file f 8
fx=tests/fixtures
# iostorm and the one fixture nobody reads, where nobody can (the clone
# may be under /root)
nobody_iostorm "$fx/topo-2node-free.xml" || t_done
secret() { cp "$1" "$T_DIR/$2" && chmod 600 "$T_DIR/$2"; }
secret "$f" data
secret "$fx/topo-2node-free.xml" topo.xml
secret "$fx/report-saturate.json" sat.json
secret "$fx/report-run.json" run.json
printf '[job]\ncommand = run\nqd = 4\n' >"$T_DIR/job.ini"
chmod 600 "$T_DIR/job.ini"
mkdir -m 777 "$T_DIR/w"	# plot's picture: nobody may write it

# unreadable WHAT FILE ARGS...: as nobody, exit 1, stdout empty, one line
# on stderr naming FILE
unreadable() {
	local what=$1 file=$2
	shift 2
	as_nobody "$T_NOBODY_IOSTORM" "$@" >"$T_OUT" 2>"$T_ERR" </dev/null
	T_RC=$?
	if [ "$T_RC" -ne 1 ] || [ -s "$T_OUT" ] || [ "$(wc -l <"$T_ERR")" -ne 1 ] ||
	   ! grep -Eqi "$file.*(permission|denied)" "$T_ERR"; then
		check_fail "$what: exit $T_RC, want 1, one line naming $file, nothing on stdout"
		show_output
	fi
}

q=(-q --time 200ms --ramp 0)
unreadable "target" "$T_DIR/data" run "${q[@]}" "$T_DIR/data"
unreadable "topo --topology" "$T_DIR/topo.xml" topo --topology "$T_DIR/topo.xml"
unreadable "plan --topology" "$T_DIR/topo.xml" plan --topology "$T_DIR/topo.xml" --drive-iops 1m
unreadable "-c" "$T_DIR/job.ini" -c "$T_DIR/job.ini" "$T_DIR/data"
unreadable "plan --from" "$T_DIR/sat.json" plan --topology "$T_NOBODY_DIR/topo-2node-free.xml" \
	--from "$T_DIR/sat.json"
unreadable "plot" "$T_DIR/run.json" plot -o "$T_DIR/w/x.svg" "$T_DIR/run.json"
t_done
