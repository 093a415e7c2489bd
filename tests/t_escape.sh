# Strings from outside reach the terminal with their control characters
# escaped: a job file's binary bytes or an escape sequence in its values,
# and a target path with a newline in it, each give one line on stderr.
. "$(dirname "$0")/lib.sh"
need_iostorm

make_data_file f 4
ini=$T_DIR/bad.ini
printf '[job]\nqd = 4\033[31mRED\a\n' >"$ini"
expect_error "escape sequence in a job-file value" 2 "bad value for qd: .*4\\\\x1b\\[31mRED\\\\x07" -c "$ini" run "$f"
grep -q "$(printf '\033')" "$T_ERR" && check_fail "job file: a raw ESC reached stderr"

head -c 512 "$IOSTORM" >"$T_DIR/binary.ini"
expect_error "binary job file" 2 "binary.ini:1: " -c "$T_DIR/binary.ini" run "$f"
LC_ALL=C grep -q '[[:cntrl:]]' <(tr -d '\n' <"$T_ERR") && check_fail "binary job file: control characters reached stderr"

expect_error "a path with a newline" 1 "no\\\\x0asuch: no such file" run "$T_DIR/no
such"
t_done
