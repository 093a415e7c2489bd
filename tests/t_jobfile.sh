# iostorm -c FILE: the shipped configs run, the command line overrides the
# file, targets come from the file when the command line has none (and
# never become an option or its value), bad files stop with FILE:LINE and
# exit 2; a file over 1 MiB or endless (/dev/zero, under a memory cap) is
# refused in one line, exit 2.
. "$(dirname "$0")/lib.sh"
need_iostorm
need_cmd jq

make_loop dev 32
src=${IOSTORM_SRC:-$(cd "$(dirname "$0")/.." && pwd)}
q=(-q --ramp 0 --time 200ms)

# the file says 9 depths; the command line's --qd wins
if expect_ok "qd-sweep.ini" -c "$src/configs/qd-sweep.ini" "${q[@]}" --qd 1,2 --json - "$dev"; then
	jq -e '.command == "sweep" and ([.points[].qd] == [1, 2])' "$T_OUT" >/dev/null ||
		{ check_fail "qd-sweep.ini: command line did not override"; show_output; }
fi
if expect_ok "qd1-latency.ini" -c "$src/configs/qd1-latency.ini" "${q[@]}" --time 1s --json - "$dev"; then
	jq -e '.command == "latency" and .config.time_s == 1' "$T_OUT" >/dev/null ||
		check_fail "qd1-latency.ini: not a 1s latency run"
fi
# the sweep by load, its loads from the file, shorter and shallower here
if expect_ok "load-sweep.ini" -c "$src/configs/load-sweep.ini" "${q[@]}" --qd 4 --json - "$dev"; then
	jq -e '.command == "sweep" and .by == "rate" and .max.qd == 4 and
		([.points[].load_pct] == [10, 20, 30, 40, 50, 60, 70, 80, 90, 100])' "$T_OUT" >/dev/null ||
		{ check_fail "load-sweep.ini: not a sweep by load at QD4"; show_output; }
fi
# a verb on the command line wins over the file's command
if expect_ok "verb override" -c "$src/configs/qd1-latency.ini" run "${q[@]}" --json - "$dev"; then
	jq -e '.command == "run"' "$T_OUT" >/dev/null || check_fail "verb override: not run"
fi

ini=$T_DIR/job.ini
printf '[job]\ncommand = saturate\nqd = 4\nramp = 0\ntime = 200ms\nquiet = yes\ntarget = %s\n' "$dev" >"$ini"
if expect_ok "targets from the file" -c "$ini" --json -; then
	jq -e '.command == "saturate" and .system.qd == 4 and (.devices | length == 1)' "$T_OUT" >/dev/null ||
		check_fail "targets from the file: wrong run"
fi

printf '[job]\ncommand = sweep\n; fine\nqdepth = 4\n' >"$ini"
expect_error "unknown key" 2 "^iostorm: $ini:4: unknown key 'qdepth'" -c "$ini" "$dev"
printf '[job]\ncommand = run\ntime = soon\n' >"$ini"
expect_error "bad value" 2 "^iostorm: $ini:3: bad value for time" -c "$ini" "$dev"
printf '[job]\ncommand = fly\n' >"$ini"
expect_error "bad command" 2 "$ini:2: bad value for command" -c "$ini" "$dev"
expect_error "missing file" 1 'cannot read the job file' -c "$T_DIR/none.ini" "$dev"
# a value missing on the command line is said, never taken from the file's
# targets (a forgotten --json FILE once wrote the report over the target)
printf 'keep me\n' >"$T_DIR/data"
printf '[job]\ncommand = run\ntarget = %s\n' "$T_DIR/data" >"$ini"
expect_error "dangling --json" 2 "--json needs a value" -c "$ini" --json
grep -qx 'keep me' "$T_DIR/data" || check_fail "dangling --json: the target was written"
# a target that would be read as an option
printf '[job]\ncommand = run\ntarget = %s -q\n' "$T_DIR/data" >"$ini"
expect_error "option as target" 2 "$ini:3: bad value for target: '-q' starts with '-'" -c "$ini"

# ---- bounded: a file over 1 MiB and an endless one are refused in one
# line, under a memory cap too (where a failed read once read as an empty
# file and the command ran); a directory cannot be read ----
T_CAP_MB=200 expect_error "endless job file" 2 '^iostorm: /dev/zero: longer than 1 MiB: not a job file$' \
	-c /dev/zero run "$T_DIR/X"
{ printf '[job]\nqd = 4\n'; yes '; a comment' | head -c $(((1 << 20) - 13)); echo; } >"$ini"
[ "$(stat -c %s "$ini")" -eq $(((1 << 20) + 1)) ] || fail "the 1 MiB + 1 job file is $(stat -c %s "$ini") bytes"
expect_error "job file over 1 MiB" 2 "^iostorm: $ini: longer than 1 MiB: not a job file$" -c "$ini" run "$dev"
truncate -s $((1 << 20)) "$ini"
expect_ok "job file of 1 MiB" -c "$ini" run "${q[@]}" "$dev"
expect_error "job file a directory" 1 "^iostorm: $T_DIR: cannot read the job file: Is a directory$" \
	-c "$T_DIR" run "$dev"
t_done
