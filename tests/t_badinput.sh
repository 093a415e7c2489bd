# Every bad input: exactly one line on stderr naming the thing and
# the problem, nothing on stdout, exit 2 (usage) or 1 (runtime). These need
# no root and no device, so they run everywhere; the ones that need a loop
# device, a mount or another user are in t_badinput_root.sh.
. "$(dirname "$0")/lib.sh"
need_iostorm

make_data_file f 8
q=(-q --time 200ms --ramp 0)
bad() { expect_error "$@"; }

# targets
bad "missing path" 1 "/var/tmp/iostorm-no-such-target" run "${q[@]}" /var/tmp/iostorm-no-such-target
bad "directory" 1 "$T_DIR.*directory" run "${q[@]}" "$T_DIR"
bad "char device" 1 "/dev/null.*(block device|regular file)" run "${q[@]}" /dev/null
: >"$T_DIR/empty"
bad "empty file" 1 "$T_DIR/empty.*smaller" run "${q[@]}" "$T_DIR/empty"
head -c 100 /dev/urandom >"$T_DIR/tiny"
bad "smaller than a block" 1 "$T_DIR/tiny.*smaller" run "${q[@]}" "$T_DIR/tiny"
bad "no target" 2 "TARGET" run "${q[@]}"
# the count is checked in one place for every command
many=()
for ((i = 0; i < 257; i++)); do many+=("$f"); done
for cmd in run sweep saturate; do
	bad "$cmd: too many targets" 2 "^iostorm $cmd: 257 targets: at most 256 \\(try 'iostorm $cmd --help'\\)$" \
		$cmd "${q[@]}" "${many[@]}"
done

# block size
bad "bs zero" 2 "--bs.*zero" run "${q[@]}" --bs 0 "$f"
bad "bs not a power of two" 2 "--bs.*power of two" run "${q[@]}" --bs 3000 "$f"
bad "bs above 1 MiB" 2 "--bs.*1 MiB" run "${q[@]}" --bs 2m "$f"
bad "bs garbage" 2 "--bs" run "${q[@]}" --bs lots "$f"

# queue depth, time
bad "qd 0" 2 "--qd.*'0'" run "${q[@]}" --qd 0 "$f"
bad "qd 65537" 2 "--qd.*65537" run "${q[@]}" --qd 65537 "$f"
bad "qd garbage" 2 "--qd" run "${q[@]}" --qd 12x "$f"
bad "time zero" 2 "--time.*'0'" run -q --time 0 "$f"
bad "time garbage" 2 "--time.*'abc'" run -q --time abc "$f"
bad "time negative" 2 "--time" run -q --time -5s "$f"

# engine, completion mode, unknown option
bad "unknown engine" 2 "--engine.*'foo'" run "${q[@]}" --engine foo "$f"
bad "unknown completion" 2 "--completion.*'foo'" run "${q[@]}" --completion foo "$f"
bad "unknown option" 2 "--bogus" run "${q[@]}" --bogus "$f"
bad "polling buffered reads" 2 "--completion poll needs O_DIRECT" run "${q[@]}" --buffered --completion poll "$f"
bad "fewer IOs than workers" 2 "--ios 2 is fewer than the 4 workers" run -q --ios 2 --jobs-per-device 4 "$f"

# the same target twice, also through a symlink and a hard link
bad "same file twice" 2 "$f.*same" run "${q[@]}" "$f" "$f"
ln -s "$f" "$T_DIR/sym"
bad "same file via symlink" 2 "same" run "${q[@]}" "$f" "$T_DIR/sym"

t_done
