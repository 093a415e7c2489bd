# The bad inputs that need root: O_DIRECT refused (ramfs), no
# permission (a root-only file read as nobody), the same loop device through
# two paths, IOs below a device's or a file system's block size. One line on
# stderr, nothing on stdout, exit 2 or 1, as in t_badinput.sh. Skips only
# without root or loop devices; a refused setup after that is a failure.
. "$(dirname "$0")/lib.sh"
need_iostorm
need_root "ramfs, loop devices and setpriv"

make_data_file f 8
q=(-q --time 200ms --ramp 0)
bad() { expect_error "$@"; }

# O_DIRECT refused: ramfs; the message suggests --buffered
if mkdir -p "$T_DIR/ram" && mount -t ramfs iostorm-test "$T_DIR/ram" 2>/dev/null; then
	T_MOUNTS+=("$T_DIR/ram")
	head -c 1048576 /dev/urandom >"$T_DIR/ram/data"
	bad "O_DIRECT refused" 1 "$T_DIR/ram/data.*--buffered" run "${q[@]}" "$T_DIR/ram/data"
	expect_ok "ramfs buffered" run "${q[@]}" --buffered "$T_DIR/ram/data"
else
	check_fail "O_DIRECT refusal: cannot mount ramfs as root"
fi

# no permission: a root-only file read as nobody (a copy of iostorm that
# nobody can run: the binary may sit under /root)
if nobody_iostorm; then
	secret=$T_DIR/secret
	cp "$f" "$secret"
	chmod 600 "$secret"
	as_nobody "$T_NOBODY_IOSTORM" run "${q[@]}" "$secret" >"$T_OUT" 2>"$T_ERR" </dev/null
	T_RC=$?
	if [ "$T_RC" -ne 1 ] || [ -s "$T_OUT" ] || [ "$(wc -l <"$T_ERR")" -ne 1 ] ||
	   ! grep -Eqi "$secret.*permission" "$T_ERR"; then
		check_fail "no permission: exit $T_RC, want 1 and one line naming $secret"
		show_output
	fi
fi

# devices: the same loop device through two paths; bs below its sector size
make_loop dev 4 4096
ln -s "$dev" "$T_DIR/loopsym"
bad "same device via symlink" 2 "same" run "${q[@]}" "$dev" "$T_DIR/loopsym"
bad "bs below sector size" 2 "${dev#/dev/}|$dev" run "${q[@]}" --bs 512 "$dev"
bad "range not aligned" '[12]' "range|$dev" run "${q[@]}" --range 512:1m "$dev"

# a file on a file system over 4K sectors: O_DIRECT needs 4K there too
need_cmd mkfs.ext4
make_loop dev4k 32 4096
mkdir -p "$T_DIR/m4k"
if mkfs.ext4 -q -F -b 4096 "$dev4k" >/dev/null 2>&1 && mount "$dev4k" "$T_DIR/m4k" 2>/dev/null; then
	T_MOUNTS+=("$T_DIR/m4k")
	head -c 4194304 /dev/urandom >"$T_DIR/m4k/data"
	bad "bs below the file system's alignment" 2 "m4k/data.*4096" \
		run "${q[@]}" --bs 512 "$T_DIR/m4k/data"
	expect_ok "bs 4k on that file system" run "${q[@]}" --bs 4k "$T_DIR/m4k/data"
else
	check_fail "a file on a 4K-sector file system: mkfs.ext4 or mount of $dev4k failed"
fi
t_done
