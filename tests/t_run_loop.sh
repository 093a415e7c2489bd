# iostorm run on a loop device over /dev/shm: both engines, every completion
# mode (poll and hybrid fail with the documented one-line message, sqpoll
# works, auto picks irq and says so), JSON shape, --ios, --buffered.
. "$(dirname "$0")/lib.sh"
need_iostorm
need_cmd jq

make_loop dev 64
name=${dev#/dev/}
q=(-q --time 300ms --ramp 0)

for eng in io_uring libaio auto; do
	if expect_ok "engine $eng" run "${q[@]}" --engine "$eng" --json - "$dev"; then
		json_check "$T_OUT" run 1 || check_fail "engine $eng: JSON shape"
		[ "$(jq -r '.devices[0].name' "$T_OUT")" = "$name" ] ||
			check_fail "engine $eng: device name is not $name"
	fi
done

for mode in irq sqpoll; do
	if expect_ok "completion $mode" run "${q[@]}" --completion "$mode" --json - "$dev"; then
		json_check "$T_OUT" run 1 || check_fail "completion $mode: JSON shape"
		[ "$(jq -r .config.completion_used "$T_OUT")" = "$mode" ] ||
			check_fail "completion $mode: completion_used is not $mode"
	fi
done

for mode in poll hybrid; do
	expect_error "completion $mode" 1 "$name has no poll queues" \
		run "${q[@]}" --completion "$mode" "$dev"
	expect_error "completion $mode, libaio" '[12]' '.' \
		run "${q[@]}" --completion "$mode" --engine libaio "$dev"
done

# through a symlink (like /dev/disk/by-id/...): named and checked as the
# kernel's device, not as the link
ln -s "$dev" "$T_DIR/by-id-disk"
if expect_ok "symlink" run "${q[@]}" --json - "$T_DIR/by-id-disk"; then
	[ "$(jq -r '.devices[0].name' "$T_OUT")" = "$name" ] ||
		check_fail "symlink: device name is not $name"
fi
expect_error "symlink, poll" 1 "^iostorm run: $name has no poll queues" \
	run "${q[@]}" --completion poll "$T_DIR/by-id-disk"

# auto: irq here (loop devices have no poll queues), said in one line
if expect_ok "completion auto" run "${q[@]}" --completion auto --json - "$dev"; then
	json_check "$T_OUT" run 1 || check_fail "completion auto: JSON shape"
	[ "$(jq -r .config.completion_used "$T_OUT")" = irq ] ||
		check_fail "completion auto: did not choose irq"
fi
# without --json the table is on stdout; stderr says the choice once (other
# notes, like placement, may be there too)
if expect_ok "completion auto says" run "${q[@]}" --completion auto "$dev"; then
	if [ "$(grep -c -- "--completion auto: irq" "$T_ERR")" -ne 1 ]; then
		check_fail "completion auto: stderr does not say once that it chose irq"
		show_output
	fi
fi

if expect_ok "ios limit" run -q --ios 5000 --qd 8 --json - "$dev"; then
	[ "$(jq '.devices[0].ios' "$T_OUT")" = 5000 ] || check_fail "--ios 5000: wrong count"
fi
expect_ok "buffered" run "${q[@]}" --buffered "$dev"
expect_ok "qd1" run "${q[@]}" --qd 1 "$dev"

# --reap N: with io_uring a full queue waits for N completions in the call
# that submits, so each call carries about N IOs or more. libaio takes what
# its user-space ring already holds without a call and asks io_getevents
# for N only when nothing is there, and submits in calls of their own: it
# runs, with no such bound. The JSON says what was asked; the default is 1.
if expect_ok "reap 8 io_uring" run "${q[@]}" --engine io_uring --qd 16 --reap 8 --json - "$dev"; then
	jq -e '.config.reap == 8 and .devices[0].ios_per_call >= 6.4' "$T_OUT" >/dev/null ||
		check_fail "--reap 8: $(jq -c '{reap: .config.reap, ipc: .devices[0].ios_per_call}' "$T_OUT")"
fi
if expect_ok "reap 8 libaio" run "${q[@]}" --engine libaio --qd 16 --reap 8 --json - "$dev"; then
	jq -e '.config.reap == 8 and .devices[0].ios > 0' "$T_OUT" >/dev/null ||
		check_fail "--reap 8 --engine libaio: $(jq -c '{reap: .config.reap, ios: .devices[0].ios}' "$T_OUT")"
fi
if expect_ok "reap default" run "${q[@]}" --json - "$dev"; then
	jq -e '.config.reap == 1' "$T_OUT" >/dev/null || check_fail "the default --reap is not 1"
fi

# a file and a device at once
make_data_file f 16
if expect_ok "file and loop" run "${q[@]}" --json - "$dev" "$f"; then
	json_check "$T_OUT" run 2 || check_fail "file and loop: JSON shape"
fi
t_done
