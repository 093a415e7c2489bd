# --quiet-advice (issue 42, item 5): an option of the measuring commands
# and a job-file key, offered by completion and in the man page; run on a
# loop device prints the settings line and the placement note without it,
# neither with it, and the same JSON.
. "$(dirname "$0")/lib.sh"
need_iostorm
need_cmd jq

for v in run sweep saturate latency; do
	"$IOSTORM" --complete options $v | grep -q '^--quiet-advice ' ||
		check_fail "completion: $v has no --quiet-advice"
done
grep -q 'quiet-advice' "$(dirname "$0")/../docs/iostorm.1" || check_fail "man page: no --quiet-advice"
# run on a loop device: the advice lines without it, none with it; the
# JSON the same
make_loop dev 64
# iostats on, so check has a finding to name (put back as found at exit)
q=/sys/block/${dev#/dev/}/queue
[ -w "$q/iostats" ] || skip "no writable $q/iostats"
T_SYSFS+=("$q/iostats $(cat "$q/iostats")")
echo 1 >"$q/iostats" || fail "cannot set $q/iostats"
run_iostorm run --time 300ms --ramp 0 --json "$T_DIR/a.json" "$dev"
[ "$T_RC" -eq 0 ] || { check_fail "run: exit $T_RC"; show_output; }
grep -q 'is a loop device' "$T_ERR" || { check_fail "run: no placement note without --quiet-advice"; show_output; }
grep -q 'cost IOPS on this target' "$T_ERR" || { check_fail "run: no settings line without --quiet-advice"; show_output; }
printf '[job]\ncommand = run\ntime = 300ms\nramp = 0\nquiet-advice = yes\njson = %s\ntarget = %s\n' \
	"$T_DIR/b.json" "$dev" >"$T_DIR/j.ini"
# the JSON's object keys two deep (deeper ones, a spread's, are null or
# not by the run's figures; array lengths vary by run)
keys='[paths | map(select(type == "string")) | .[0:2] | join(".")] | unique'
for how in option jobfile; do
	if [ $how = option ]; then
		run_iostorm run --time 300ms --ramp 0 --quiet-advice --json "$T_DIR/b.json" "$dev"
	else
		run_iostorm -c "$T_DIR/j.ini"
	fi
	[ "$T_RC" -eq 0 ] || { check_fail "run --quiet-advice ($how): exit $T_RC"; show_output; }
	! grep -Eq 'cost IOPS|costs IOPS|is a loop device' "$T_ERR" ||
		{ check_fail "run --quiet-advice ($how): an advice line"; show_output; }
	[ "$(jq -c "$keys" "$T_DIR/a.json")" = "$(jq -c "$keys" "$T_DIR/b.json")" ] ||
		check_fail "run --quiet-advice ($how): the JSON's keys differ"
done
t_done
