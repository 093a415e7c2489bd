# Every bad input of issue 2: exactly one line on stderr naming the thing and
# the problem, nothing on stdout, exit 2 (usage) or 1 (runtime).
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

# O_DIRECT refused: ramfs; the message suggests --buffered
if [ "$(id -u)" -eq 0 ] && mkdir -p "$T_DIR/ram" && mount -t ramfs iostorm-test "$T_DIR/ram" 2>/dev/null; then
	T_MOUNTS+=("$T_DIR/ram")
	head -c 1048576 /dev/urandom >"$T_DIR/ram/data"
	bad "O_DIRECT refused" 1 "$T_DIR/ram/data.*--buffered" run "${q[@]}" "$T_DIR/ram/data"
	expect_ok "ramfs buffered" run "${q[@]}" --buffered "$T_DIR/ram/data"
else
	echo "not checked: O_DIRECT refusal (cannot mount ramfs)"
fi

# no permission: a root-only file read as nobody
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	secret=$T_DIR/secret
	cp "$f" "$secret"
	chmod 600 "$secret"
	chmod 755 "$T_DIR"
	T_RC=0
	timeout 60 setpriv --reuid=nobody --regid=nogroup --clear-groups \
		"$IOSTORM" run "${q[@]}" "$secret" >"$T_OUT" 2>"$T_ERR" </dev/null
	T_RC=$?
	if [ "$T_RC" -ne 1 ] || [ -s "$T_OUT" ] || [ "$(wc -l <"$T_ERR")" -ne 1 ] ||
	   ! grep -Eqi "$secret.*permission" "$T_ERR"; then
		check_fail "no permission: exit $T_RC, want 1 and one line naming $secret"
		show_output
	fi
else
	echo "not checked: no permission (needs root and setpriv)"
fi

# devices: the same loop device through two paths; bs below its sector size
if [ "$(id -u)" -eq 0 ] && command -v losetup >/dev/null; then
	make_loop dev 4 4096
	ln -s "$dev" "$T_DIR/loopsym"
	bad "same device via symlink" 2 "same" run "${q[@]}" "$dev" "$T_DIR/loopsym"
	bad "bs below sector size" 2 "${dev#/dev/}|$dev" run "${q[@]}" --bs 512 "$dev"
	bad "range not aligned" '[12]' "range|$dev" run "${q[@]}" --range 512:1m "$dev"
	# a file on a file system over 4K sectors: O_DIRECT needs 4K there too
	if command -v mkfs.ext4 >/dev/null && make_loop dev4k 32 4096 &&
		mkfs.ext4 -q -F -b 4096 "$dev4k" >/dev/null 2>&1 && mkdir -p "$T_DIR/m4k" &&
		mount "$dev4k" "$T_DIR/m4k" 2>/dev/null; then
		T_MOUNTS+=("$T_DIR/m4k")
		head -c 4194304 /dev/urandom >"$T_DIR/m4k/data"
		bad "bs below the file system's alignment" 2 "m4k/data.*4096" \
			run "${q[@]}" --bs 512 "$T_DIR/m4k/data"
		expect_ok "bs 4k on that file system" run "${q[@]}" --bs 4k "$T_DIR/m4k/data"
	else
		echo "not checked: a file on a 4K-sector file system (needs mkfs.ext4 and mount)"
	fi
else
	echo "not checked: loop devices (needs root and losetup)"
fi
t_done
