# What the drive says of a run (issue 31): every command's targets are
# sampled for never-written blocks before the run. A sparse file (and, as
# root, a loop device over one) reads ~100% zeros and is named in one line;
# a file of random data reads ~0% and is not; the JSON's
# devices[].drive.zero_read_pct and the setup record's agree with the line;
# --no-zero-sample leaves them null; sweep and saturate carry them too; a
# target that is not NVMe has no SMART / Health log and no line about it;
# compare's setup diff lists a changed share and a drive that throttled.
. "$(dirname "$0")/lib.sh"
need_iostorm
need_cmd jq truncate

q=(-q --time 200ms --ramp 0)
make_data_file data 8
sparse=$(mktemp /var/tmp/iostorm-t_drive.XXXXXX) || fail "mktemp in /var/tmp"
T_FILES+=("$sparse")
truncate -s 8M "$sparse" || fail "truncate $sparse"
sname=$(basename "$sparse") dname=$(basename "$data")
zline="^iostorm run: $sname: [0-9]+% of [0-9]+ sampled blocks read as zeros \(.*\): .*\`iostorm fill\` writes them\.$"

# ---- a sparse file and a data file in one run ----
if expect_ok "sparse and data" run "${q[@]}" --json "$T_DIR/r.json" "$sparse" "$data"; then
	grep -Eq "$zline" "$T_ERR" || { check_fail "sparse: no zeros line naming $sname"; show_output; }
	grep -q "^iostorm run: $dname: .*read as zeros" "$T_ERR" &&
		{ check_fail "data: a file of random data is named as reading zeros"; show_output; }
	pct=$(sed -En "s/^iostorm run: $sname: ([0-9]+)% of .*/\1/p" "$T_ERR")
	jq -e --arg s "$sname" --arg d "$dname" --argjson p "${pct:-999}" '
		(.devices[] | select(.name == $s) | .drive
			| .zero_read_pct >= 90 and (.zero_read_pct | round) == $p
			and .zero_sampled > 100 and .smart_before == null
			and .smart_after == null and .smart_change == null)
		and (.devices[] | select(.name == $d) | .drive | .zero_read_pct <= 10)
		and ([.setup.devices[].zero_read_pct] == [.devices[].drive.zero_read_pct])
		and ([.setup.devices[].critical_warnings] == [null, null])' "$T_DIR/r.json" >/dev/null ||
		{ check_fail "sparse and data: JSON zero_read_pct wrong or not the line's ($pct)"; \
			jq -c '[.devices[] | {name, drive}], [.setup.devices[] | {name, zero_read_pct}]' "$T_DIR/r.json" >&2; }
	# not NVMe: no log, and not a word about it
	grep -Eiq "smart|health|critical warning" "$T_ERR" &&
		{ check_fail "a target that is not NVMe has a line about its drive's log"; show_output; }
fi

# ---- --no-zero-sample: nothing read, nothing said, null ----
if expect_ok "no sample" run "${q[@]}" --no-zero-sample --json "$T_DIR/n.json" "$sparse"; then
	grep -q "read as zeros" "$T_ERR" && { check_fail "--no-zero-sample: a zeros line"; show_output; }
	jq -e '.devices[0].drive.zero_read_pct == null and .devices[0].drive.zero_sampled == 0
		and .setup.devices[0].zero_read_pct == null' "$T_DIR/n.json" >/dev/null ||
		{ check_fail "--no-zero-sample: zero_read_pct not null"; jq -c '.devices[0].drive' "$T_DIR/n.json" >&2; }
fi

# ---- a refusal comes before the sample: one line, no zeros line ----
expect_error "run refused before the sample" 2 "^iostorm run: --completion poll needs O_DIRECT" \
	run "${q[@]}" --buffered --completion poll "$sparse"
# sweep and saturate print their plan first (stdout); the refusal is
# still the one line on stderr
for v in sweep saturate; do
	run_iostorm $v "${q[@]}" --buffered --completion poll "$sparse"
	[ "$T_RC" = 2 ] && [ "$(wc -l <"$T_ERR")" = 1 ] && grep -q "needs O_DIRECT" "$T_ERR" ||
		{ check_fail "$v refused before the sample: exit $T_RC, or not the one line"; show_output; }
done
expect_error "--steady refused before the sample" 2 "^iostorm run: --steady's window of 30 s does not fit in --time" \
	run "${q[@]}" --steady 5% "$sparse"

# ---- the commands built on the runner: sweep and saturate ----
if expect_ok sweep sweep "${q[@]}" --qd 1,2 --json "$T_DIR/s.json" "$sparse"; then
	grep -Eq "^iostorm sweep: $sname: [0-9]+% of .* read as zeros" "$T_ERR" ||
		{ check_fail "sweep: no zeros line"; show_output; }
	jq -e --arg s "$sname" '.setup.devices[0].zero_read_pct >= 90
		and .drives == [{"name": $s, "drive": .drives[0].drive}]
		and .drives[0].drive.zero_read_pct == .setup.devices[0].zero_read_pct' \
		"$T_DIR/s.json" >/dev/null ||
		{ check_fail "sweep: the setup record or drives[] without the share"; \
			jq -c '.drives, [.setup.devices[].zero_read_pct]' "$T_DIR/s.json" >&2; }
fi
if expect_ok saturate saturate "${q[@]}" --qd 2 --json "$T_DIR/t.json" "$sparse" "$data"; then
	[ "$(grep -c "read as zeros" "$T_ERR")" -eq 1 ] ||
		{ check_fail "saturate: not one zeros line, for the sparse file only"; show_output; }
	jq -e --arg s "$sname" '(.devices[] | select(.name == $s) | .drive.zero_read_pct >= 90)
		and (.setup.devices[0].zero_read_pct >= 90)' "$T_DIR/t.json" >/dev/null ||
		check_fail "saturate: devices[].drive or the setup record without the share"
fi

# ---- a loop device over a sparse /dev/shm file, and over data (root) ----
if [ "$(id -u)" -eq 0 ] && command -v losetup >/dev/null; then
	shm=$(mktemp /dev/shm/iostorm-t_drive.XXXXXX) || fail "mktemp in /dev/shm"
	T_FILES+=("$shm")
	truncate -s 8M "$shm"
	lsparse=$(losetup -f --show "$shm" 2>/dev/null) || skip "losetup is not allowed here"
	T_LOOPS+=("$lsparse")
	make_loop ldata 8
	ls=${lsparse#/dev/} ld=${ldata#/dev/}
	if expect_ok "loop devices" run "${q[@]}" --json "$T_DIR/l.json" "$lsparse" "$ldata"; then
		grep -Eq "^iostorm run: $ls: [0-9]+% of [0-9]+ sampled blocks read as zeros \(never written or trimmed\): the drive may answer them without reading flash" "$T_ERR" ||
			{ check_fail "loop: no zeros line naming $ls"; show_output; }
		grep -q "^iostorm run: $ld: .*read as zeros" "$T_ERR" &&
			{ check_fail "loop: $ld (random data) named"; show_output; }
		jq -e --arg s "$ls" --arg d "$ld" '
			(.devices[] | select(.name == $s) | .drive.zero_read_pct >= 90)
			and (.devices[] | select(.name == $d) | .drive.zero_read_pct <= 10)' \
			"$T_DIR/l.json" >/dev/null || check_fail "loop: zero_read_pct wrong"
	fi
fi

# ---- compare: the setup diff lists a changed share, and a drive that
# throttled during one side's run (its log edited in: no drive here
# throttles on cue) ----
if [ -f "$T_DIR/r.json" ] && [ -f "$T_DIR/n.json" ]; then
	jq '.devices[0].drive.smart_change = {"moved": false, "throttled_s": 0}' \
		"$T_DIR/n.json" >"$T_DIR/base.json"
	jq 'del(.devices[1]) | .config.targets |= .[:1] | .setup.devices |= .[:1]
		| .devices[0].drive.smart_change = {"moved": true, "throttled_s": 12}' \
		"$T_DIR/r.json" >"$T_DIR/new.json"
	if expect_ok compare compare --json "$T_DIR/c.json" "$T_DIR/base.json" "$T_DIR/new.json"; then
		jq -e --arg s "$sname" '.comparisons[0].setup_changes as $c
			| ($c | map(.key) | any(test("^setup\\.devices\\[.*\\]\\.zero_read_pct$")))
			and ($c | any(.key == "drive[\($s)].smart_change.throttled_s"
				and .base == "0" and .new == "12"))' "$T_DIR/c.json" >/dev/null ||
			{ check_fail "compare: the setup diff lists no zero_read_pct or throttled_s change"; \
				jq -c '.comparisons[0].setup_changes' "$T_DIR/c.json" >&2; }
		grep -q "zero_read_pct: null -> " "$T_OUT" ||
			{ check_fail "compare: the text lists no zero_read_pct change"; show_output; }
	fi
fi
t_done
