# iostorm fill, the one command that writes: it refuses, in one line with
# exit 2 and before any write, a run without --yes-destroy-data, a device
# holding a file system (ext4, and the same mounted), another signature
# (swap), a partition table
# (an MBR written by hand), a device held open exclusively by another
# process, and a character device; refusing one target of two writes
# neither. On a never-written loop device it writes every 4K block (none
# reads as zeros after), with --range only the range, and no two blocks
# alike.
. "$(dirname "$0")/lib.sh"
need_iostorm
need_root "loop devices"
need_cmd losetup mkfs.ext4 mkswap od perl sha256sum

# zero_loop VAR MIB: a loop device over a sparse /dev/shm file, never
# written: every block reads as zeros
zero_loop() {
	local _f _dev
	_f=$(mktemp /dev/shm/iostorm-fill.XXXXXX) || fail "mktemp in /dev/shm"
	T_FILES+=("$_f")
	truncate -s "$2M" "$_f" || fail "truncate $_f"
	_dev=$(losetup -f --show --direct-io=on "$_f" 2>/dev/null) ||
		_dev=$(losetup -f --show "$_f") || skip "losetup is not allowed here"
	T_LOOPS+=("$_dev")
	printf -v "$1" '%s' "$_dev"
}

# zero_blocks DEV [SKIP_4K COUNT_4K]: how many 4K blocks read as all zeros
zero_blocks() {
	local range=()
	[ $# -eq 3 ] && range=(-j "$(($2 * 4096))" -N "$(($3 * 4096))")
	od -An -v -tx8 -w4096 "${range[@]}" "$1" | grep -cE '^( 0{16})+$'
}

sum_of() { sha256sum "$1" | awk '{ print $1 }'; }

zero_loop z 16
zero_loop y 16
make_loop r 16
want_r=$(sum_of "$r")

# ---- refusals: one line, exit 2, nothing written ----
expect_error "no --yes-destroy-data" 2 "^iostorm fill: writes over every block of its targets: add --yes-destroy-data to mean it$" \
	fill "$z"
[ "$(zero_blocks "$z")" = 4096 ] || check_fail "fill without --yes-destroy-data wrote"

expect_error "a character device" 2 "^iostorm fill: /dev/null is a character device: fill writes through the block device" \
	fill --yes-destroy-data /dev/null
expect_error "no target" 2 "^iostorm fill: names no TARGET" fill --yes-destroy-data
expect_error "--bs below 4k" 2 "^iostorm fill: --bs 512: fill writes at least 4k at a time$" \
	fill --yes-destroy-data --bs 512 "$z"
expect_error "--range off the block" 2 "^iostorm fill: $r: --range must start and end on its 512-byte logical block$" \
	fill --yes-destroy-data --range 100:1m "$r"
expect_error "--range past the end" 2 "^iostorm fill: $r: --range 0:33554432 is outside its 16777216 bytes$" \
	fill --yes-destroy-data --range 32m "$r"

mkfs.ext4 -q -F "$r" || fail "mkfs.ext4 $r"
want_r=$(sum_of "$r")
expect_error "a file system" 2 "^iostorm fill: $r holds a file system's ext4 signature: fill writes only a device with no data on it" \
	fill --yes-destroy-data "$r"
# refusing one target of two writes neither, and names the bad one only
expect_error "one bad target of two" 2 "^iostorm fill: $r holds a file system's ext4 signature" \
	fill --yes-destroy-data "$z" "$r"
[ "$(zero_blocks "$z")" = 4096 ] || check_fail "refusing $r, fill wrote $z"
[ "$(sum_of "$r")" = "$want_r" ] || check_fail "a refused target changed"

# the same file system mounted: refused (its signature is found first;
# the kernel would refuse the exclusive open too), and the mount's file
# still there after
mkdir "$T_DIR/mnt"
if mount -t ext4 "$r" "$T_DIR/mnt" 2>/dev/null; then
	T_MOUNTS+=("$T_DIR/mnt")
	echo kept >"$T_DIR/mnt/f" && sync
	expect_error "a mounted file system" 2 "^iostorm fill: $r holds a file system's ext4 signature" \
		fill --yes-destroy-data "$r"
	[ "$(cat "$T_DIR/mnt/f")" = kept ] || check_fail "fill refused the mounted $r but its file changed"
	umount "$T_DIR/mnt" || check_fail "umount $r after fill refused it"
	want_r=$(sum_of "$r")
else
	check_fail "cannot mount the ext4 on $r"
fi

mkswap -q "$y" >/dev/null || fail "mkswap $y"
expect_error "a swap signature" 2 "^iostorm fill: $y holds a swap signature" fill --yes-destroy-data "$y"
dd if=/dev/zero of="$y" bs=1M count=1 conv=notrunc,fsync status=none || fail "zeroing $y"

# an MBR with one Linux partition, written by hand (no sfdisk needed):
# the entry at 446 (type 83h, LBA 2048, 4096 sectors), the magic at 510
printf '\x00\x20\x21\x00\x83\x00\x00\x00\x00\x08\x00\x00\x00\x10\x00\x00' |
	dd of="$y" bs=1 seek=446 conv=notrunc status=none
printf '\x55\xaa' | dd of="$y" bs=1 seek=510 conv=notrunc,fsync status=none
expect_error "a partition table" 2 "^iostorm fill: $y holds a partition table \(dos\)" fill --yes-destroy-data "$y"
dd if=/dev/zero of="$y" bs=4k count=1 conv=notrunc,fsync status=none || fail "zeroing $y"

# held open exclusively (O_EXCL, as a mount or md would hold it) by
# another process until its stdin closes
coproc HOLD { exec perl -MFcntl -e 'sysopen(my $f, $ARGV[0], O_RDONLY | O_EXCL) or die "$!\n"; $| = 1; print "held\n"; <STDIN>' "$y"; }
hold_pid=$HOLD_PID
read -r held <&"${HOLD[0]}"
if [ "$held" = held ]; then
	expect_error "held exclusively" 2 "^iostorm fill: $y is mounted or in use \(its exclusive open was refused\)" \
		fill --yes-destroy-data "$y"
else
	check_fail "perl could not hold $y open exclusively"
fi
exec {HOLD[1]}>&-
wait "$hold_pid" 2>/dev/null
[ "$(zero_blocks "$y")" = 4096 ] || check_fail "a refused $y was written"

# ---- writing ----
expect_ok "fill" fill --yes-destroy-data --bs 256k --qd 4 "$z"
grep -Eq "^$z: wrote 16\.0 MiB \(bytes 0 to 16777216\) in [0-9.]+ s: [0-9]+ MB/s$" "$T_OUT" ||
	{ check_fail "fill's line"; show_output; }
[ "$(zero_blocks "$z")" = 0 ] || check_fail "after fill $(zero_blocks "$z") blocks of $z read as zeros"
# no two 4K blocks alike: nothing for a deduplicating drive to skip
[ "$(od -An -v -tx8 -w4096 "$z" | sort | uniq -d | wc -l)" = 0 ] || check_fail "fill wrote two 4K blocks alike"

# --range: 1 MiB from 4 MiB, and nothing else (a 1 MiB IO cut by the range)
expect_ok "fill --range" fill --yes-destroy-data --range 4m:1m "$y"
[ "$(zero_blocks "$y" 1024 256)" = 0 ] || check_fail "fill --range left blocks of its range as zeros"
[ "$(zero_blocks "$y")" = $((4096 - 256)) ] || check_fail "fill --range wrote outside its range"
t_done
