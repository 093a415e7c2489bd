#!/bin/bash
# --range past the end of a target is a usage error (exit 2, as for a
# block size the target does not fit; docs/iostorm.1, EXIT STATUS): the
# target's size is learnt when it is opened, and the run stops there, with
# one line naming the range and the target, nothing on stdout, no report
# and no IO. A range that ends exactly at the end reads only inside it.
# The usage checks run on a regular file (no root); the no-IO check reads
# a loop device's read counter and needs root.
. "$(dirname "$0")/lib.sh"

need_iostorm
need_cmd jq
make_data_file f 4
json=$T_DIR/r.json

# past WHAT RANGE [CMD]: exit 2, one line naming RANGE and the file, no
# JSON written.
past() {
	local what=$1 range=$2 cmd=${3:-run} pat
	rm -f "$json"
	pat="^iostorm $cmd: --range $range goes beyond the end of $f \\(4194304 bytes\\)$"
	expect_error "$what" 2 "$pat" "$cmd" --range "$range" --ios 100 -q --json "$json" "$f"
	[ -e "$json" ] && check_fail "$what: a report was written ($json)"
}

past "length past the end" 0:8388608
past "offset at the end" 4194304:4096
past "offset beyond the end" 8388608:4096
past "offset far beyond the end" 18446744073709543424:4096
past "OFF+LEN past the end" 2097152:2101248
past "OFF+LEN past the end by one block" 4096:4194304
# the longest length the parser takes after an offset (OFF+LEN = 2^64 - 1)
past "a length near 2^64" 4096:18446744073709547519
# the same check before every command that opens targets
past "sweep: length past the end" 0:8388608 sweep
past "saturate: length past the end" 0:8388608 saturate
run_iostorm run --range 8M --ios 100 -q "$f"
if [ "$T_RC" -ne 2 ] || ! grep -q -- '--range 0:8388608 goes beyond the end' "$T_ERR"; then
	check_fail "--range 8M (no offset): exit $T_RC, want 2 naming 0:8388608"
	show_output
fi

# in_range WHAT RANGE OFF LEN: exit 0, the JSON says the range.
in_range() {
	rm -f "$json"
	expect_ok "$1" run --range "$2" --ios 200 -q --json "$json" "$f" || return
	jq -e --argjson off "$3" --argjson len "$4" '
		.config.range_off == $off and .config.range_len == $len
		and .devices[0].ios == 200 and .devices[0].errors == 0' "$json" >/dev/null ||
		check_fail "$1: want range $3:$4, 200 IOs and no error, got $(jq -c '[.config.range_off, .config.range_len, .devices[0].ios, .devices[0].errors]' "$json" 2>&1)"
}

in_range "exactly up to the end" 2M:2M 2097152 2097152
in_range "the whole target" 4M 0 4194304
in_range "the last block" 4190208:4096 4190208 4096

# no IO: a loop device's completed reads do not move (last: without root
# or losetup, make_loop skips after the checks above have run)
make_loop dev 4
# udev may still be reading the new device: let it finish first
command -v udevadm >/dev/null 2>&1 && udevadm settle -t 10 2>/dev/null
before=$(dev_reads "$dev")
expect_error "loop: offset beyond the end" 2 \
	"--range 8388608:4096 goes beyond the end of $dev" \
	run --range 8M:4K --ios 100 -q "$dev"
expect_error "loop: OFF+LEN past the end" 2 \
	"--range 2097152:4194304 goes beyond the end of $dev" \
	run --range 2M:4M --ios 100 -q "$dev"
after=$(dev_reads "$dev")
[ "$before" = "$after" ] ||
	check_fail "a range past the end read from $dev: $before reads before, $after after"
# the counter does move when iostorm reads: the check above can fail
expect_ok "loop: exactly up to the end" run --range 2M:2M --ios 100 -q "$dev"
after=$(dev_reads "$dev")
[ "$after" -ge $((before + 100)) ] ||
	check_fail "$dev's read counter did not move with 100 reads ($before, then $after)"

t_done
