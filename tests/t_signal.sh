# SIGINT (and SIGTERM) mid-run: the run stops cleanly and the report holds
# what was measured up to then, as valid JSON.
. "$(dirname "$0")/lib.sh"
need_iostorm
need_cmd jq timeout

make_data_file f 32
for sig in INT TERM; do
	# --preserve-status: iostorm's own exit status, not timeout's 124
	timeout --preserve-status -s "$sig" -k 10 2 "$IOSTORM" run -q --time 60s --ramp 200ms \
		--json - "$f" >"$T_OUT" 2>"$T_ERR" </dev/null
	rc=$?
	if [ "$rc" -ne 0 ]; then
		check_fail "SIG$sig: exit $rc: not stopped cleanly"
		show_output
		continue
	fi
	if ! json_check "$T_OUT" run 1; then
		check_fail "SIG$sig: partial report is not a valid report"
		show_output
		continue
	fi
	# measured well under the 60 s asked for
	jq -e '.devices[0].elapsed_s < 30 and .interrupted == true' "$T_OUT" >/dev/null ||
		check_fail "SIG$sig: elapsed says the run was not cut short"
done
t_done
