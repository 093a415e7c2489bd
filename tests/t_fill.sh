# iostorm fill, the one command that writes. It refuses, in one line with
# exit 2 and before any write, leaving the device's backing file as it was
# (by its hash): a run without --yes-destroy-data (--overwrite-data alone
# is not enough); a device holding a file system (ext4), swap, an LVM PV
# label (also with a bad CRC, which wipefs lists), a dos or a GPT table
# made by sfdisk, and a GPT whose first 34
# sectors are zeroed with its backup header kept (wipefs lists it); a
# device that is mounted, held open exclusively by another process, or
# whose partition is mounted (and that partition); the same device given
# twice, by one name or two; a character device; a device full of data
# with no signature (the count of sampled blocks that hold data), and one
# half full (a count between). Refusing one target of two writes neither.
# It opens the device O_RDWR|O_EXCL, probes that descriptor, and only then
# turns on O_DIRECT (strace). On a never-written loop device it writes
# every 4K block with its offset and tag (none reads as zeros after), with
# --range only the range, and no two blocks alike; a device filled before,
# wholly or in a range, is filled again without a further word; the data
# device is written with --overwrite-data beside --yes-destroy-data.
. "$(dirname "$0")/lib.sh"
need_iostorm
need_root "loop devices"
need_cmd losetup mkfs.ext4 mkswap mount od perl sha256sum sfdisk wipefs strace

# shm_file VAR MIB: a sparse /dev/shm file, never written: it reads as zeros
# (locals are prefixed per helper: printf -v must not land on a caller's)
shm_file() {
	local _sf
	_sf=$(mktemp /dev/shm/iostorm-fill.XXXXXX) || fail "mktemp in /dev/shm"
	T_FILES+=("$_sf")
	truncate -s "$2M" "$_sf" || fail "truncate $_sf"
	printf -v "$1" '%s' "$_sf"
}

# loop_of VAR FILE [-P]: a loop device over FILE (-P: its partitions too)
loop_of() {
	local _ld
	_ld=$(losetup -f --show --direct-io=on ${3:-} "$2" 2>/dev/null) ||
		_ld=$(losetup -f --show ${3:-} "$2") || skip "losetup is not allowed here"
	T_LOOPS+=("$_ld")
	printf -v "$1" '%s' "$_ld"
}

# zero_loop VAR MIB: a loop device over a never-written sparse file
zero_loop() {
	local _zf
	shm_file _zf "$2"
	loop_of "$1" "$_zf"
}

# zero_blocks DEV [SKIP_4K COUNT_4K]: how many 4K blocks read as all zeros
zero_blocks() {
	local range=()
	[ $# -eq 3 ] && range=(-j "$(($2 * 4096))" -N "$(($3 * 4096))")
	od -An -v -tx8 -w4096 "${range[@]}" "$1" | grep -cE '^( 0{16})+$'
}

# stamped_blocks DEV: how many 4K blocks begin with their own byte offset
# and the tag "iostormf" (engine/fill.h), as fill writes them
stamped_blocks() {
	od -An -v -tx8 -w4096 "$1" |
		awk '$1 == sprintf("%016x", (NR - 1) * 4096) && $2 == "666d726f74736f69" { n++ }
			END { print n + 0 }'
}

sum_of() { sha256sum "$1" | awk '{ print $1 }'; }
back_of() { losetup -n -O BACK-FILE "$1" | sed 's/ *$//'; }

# refused WHAT PATTERN DEV ARGS...: fill ARGS exits 2 with one line,
# "iostorm fill: " then PATTERN, and DEV's backing file is as it was
refused() {
	local what=$1 pat=$2 dev=$3 f want
	shift 3
	f=$(back_of "$dev")
	want=$(sum_of "$f")
	expect_error "$what" 2 "^iostorm fill: $pat" "$@"
	[ "$(sum_of "$f")" = "$want" ] || check_fail "$what: refused, but $dev's backing file changed"
}

# made_loop VAR MIB CMD...: a loop device over a new sparse file on which
# CMD (its last word the file) wrote before the device was made
made_loop() {
	local _mv=$1 _mf
	shm_file _mf "$2"
	shift 2
	"$@" "$_mf" >/dev/null 2>&1 || fail "$* on a new file"
	loop_of "$_mv" "$_mf"
}

sfdisk_table() { printf 'label: %s\n,4MiB,L\n' "$1" | sfdisk -q "$2"; }
dos_table() { sfdisk_table dos "$1"; }
gpt_table() { sfdisk_table gpt "$1"; }
# the GPT without its protective MBR and primary header and entries
# (sectors 0-33): the backup header in the last sector is all that is left
gpt_backup_only() {
	gpt_table "$1" && dd if=/dev/zero of="$1" bs=512 count=34 conv=notrunc status=none
}
# an LVM2 PV label in sector 1, as pvcreate writes it (lvm2's label and
# pv_header, libblkid/src/superblocks/lvm.c): "LABELONE", its sector, the
# CRC of the rest of the sector (lvm2_calc_crc: CRC-32, seed 0xf597a6cf,
# no final xor), the offset of the pv_header (32), "LVM2 001", a PV UUID
pv_label() {
	perl -e '
		my $l = pack("A8 Q< V V A8 A32", "LABELONE", 1, 0, 32, "LVM2 001", "iostormPV" x 3 . "abcde");
		$l .= "\0" x (512 - length $l);
		my $crc = 0xf597a6cf;
		for my $b (unpack("C*", substr($l, 20))) {
			$crc ^= $b;
			$crc = ($crc >> 1) ^ ($crc & 1 ? 0xedb88320 : 0) for 1 .. 8;
		}
		substr($l, 16, 4) = pack("V", $crc);
		open(my $f, "+<", $ARGV[0]) or die; binmode $f;
		seek($f, 512, 0); print $f $l; close $f or die;' "$1"
}
# the same with its CRC wrong: blkid -p no longer sees it, wipefs does
pv_label_badcsum() {
	pv_label "$1" && printf '\001' | dd of="$1" bs=1 seek=528 conv=notrunc status=none
}

zero_loop z 16
zero_loop y 16
make_loop r 16

# ---- refusals: one line, exit 2, nothing written ----
refused "no --yes-destroy-data" "writes over every block of its targets: add --yes-destroy-data to mean it$" \
	"$z" fill "$z"
refused "--overwrite-data alone" "writes over every block of its targets: add --yes-destroy-data to mean it$" \
	"$z" fill --overwrite-data "$z"
expect_error "a character device" 2 "^iostorm fill: /dev/null is a character device: fill writes through the block device" \
	fill --yes-destroy-data /dev/null
expect_error "no target" 2 "^iostorm fill: names no TARGET" fill --yes-destroy-data
expect_error "--bs below 4k" 2 "^iostorm fill: --bs 512: fill writes at least 4k at a time$" \
	fill --yes-destroy-data --bs 512 "$z"
refused "--range off the block" "$r: --range must start and end on its 512-byte logical block$" \
	"$r" fill --yes-destroy-data --range 100:1m "$r"
refused "--range past the end" "$r: --range 0:33554432 is outside its 16777216 bytes$" \
	"$r" fill --yes-destroy-data --range 32m "$r"

# signatures, each as libblkid finds it, with where
made_loop e 16 mkfs.ext4 -q -F
refused "a file system" "$e holds a file system's ext4 signature at byte 1080: fill writes only a device with no data on it" \
	"$e" fill --yes-destroy-data "$e"
# refusing one target of two writes neither, and names the bad one only
refused "one bad target of two" "$e holds a file system's ext4 signature" "$e" fill --yes-destroy-data "$z" "$e"
[ "$(zero_blocks "$z")" = 4096 ] || check_fail "refusing $e, fill wrote $z"
made_loop s 16 mkswap -q
refused "a swap signature" "$s holds a swap signature" "$s" fill --yes-destroy-data "$s"
made_loop l 16 pv_label
refused "an LVM PV label" "$l holds a RAID or LVM member's LVM2_member signature" "$l" fill --yes-destroy-data "$l"
made_loop l 16 pv_label_badcsum
[ "$(wipefs -n --noheadings --output TYPE "$l" | tr -d ' ')" = LVM2_member ] ||
	check_fail "wipefs does not list $l's PV label with a bad CRC: $(wipefs "$l")"
refused "an LVM PV label with a bad CRC" "$l holds a RAID or LVM member's LVM2_member signature" \
	"$l" fill --yes-destroy-data "$l"
made_loop d 16 dos_table
refused "a dos table" "$d holds a partition table \(dos\) at byte 510:" "$d" fill --yes-destroy-data "$d"
made_loop g 16 gpt_table
refused "a GPT" "$g holds a partition table \(gpt\) at byte 512:" "$g" fill --yes-destroy-data "$g"
# the backup GPT alone: wipefs sees it in the last sector, and so must fill
made_loop b 16 gpt_backup_only
[ "$(wipefs -n --noheadings --output TYPE,OFFSET "$b" | tr -s ' ')" = "gpt 0xfffe00" ] ||
	check_fail "wipefs does not list $b's backup GPT: $(wipefs "$b")"
refused "a GPT with sectors 0-33 zeroed" "$b holds a partition table \(gpt\) at byte 16776704:" \
	"$b" fill --yes-destroy-data "$b"

# held: the exclusive open is the first thing fill does, so a mounted
# device is named as such, before any signature; its file is there after
mkdir "$T_DIR/mnt"
mount -t ext4 "$e" "$T_DIR/mnt" || fail "cannot mount the ext4 on $e"
T_MOUNTS+=("$T_DIR/mnt")
echo kept >"$T_DIR/mnt/f" && sync
expect_error "a mounted file system" 2 "^iostorm fill: $e is mounted or in use \(its exclusive open was refused\)" \
	fill --yes-destroy-data "$e"
[ "$(cat "$T_DIR/mnt/f")" = kept ] || check_fail "fill refused the mounted $e but its file changed"
umount "$T_DIR/mnt" || check_fail "umount $e after fill refused it"

# a partition mounted: the disk is claimed through it, and it is itself
shm_file pf 16
dos_table "$pf" || fail "sfdisk on $pf"
loop_of p "$pf" -P
# a kernel without the dos parser (CONFIG_MSDOS_PARTITION) scans nothing:
# partx adds the partition that libblkid reads (BLKPG), and the detach
# drops it with the rest (loop's __loop_clr_fd: bdev_disk_changed)
[ -b "${p}p1" ] || partx -a "$p" || fail "partx -a $p"
[ -b "${p}p1" ] || fail "no ${p}p1 after losetup -P and partx -a"
mkfs.ext4 -q -F "${p}p1" >/dev/null 2>&1 || fail "mkfs.ext4 ${p}p1"
mkdir "$T_DIR/part"
mount -t ext4 "${p}p1" "$T_DIR/part" || fail "cannot mount ${p}p1"
T_MOUNTS+=("$T_DIR/part")
echo kept >"$T_DIR/part/f" && sync
expect_error "a disk whose partition is mounted" 2 "^iostorm fill: $p is mounted or in use" \
	fill --yes-destroy-data "$p"
expect_error "a mounted partition" 2 "^iostorm fill: ${p}p1 is mounted or in use" \
	fill --yes-destroy-data "${p}p1"
[ "$(cat "$T_DIR/part/f")" = kept ] || check_fail "fill refused ${p}p1 but its file changed"

# held open exclusively (O_EXCL, as a mount or md would hold it) by
# another process until its stdin closes
coproc HOLD { exec perl -MFcntl -e 'sysopen(my $f, $ARGV[0], O_RDONLY | O_EXCL) or die "$!\n"; $| = 1; print "held\n"; <STDIN>' "$y"; }
hold_pid=$HOLD_PID
read -r held <&"${HOLD[0]}"
if [ "$held" = held ]; then
	refused "held exclusively" "$y is mounted or in use \(its exclusive open was refused\)" \
		"$y" fill --yes-destroy-data "$y"
else
	check_fail "perl could not hold $y open exclusively"
fi
exec {HOLD[1]}>&-
wait "$hold_pid" 2>/dev/null

# the same device twice, by its name and by a second one: named as such
refused "the same device twice" "$z is given twice: fill writes each target once$" \
	"$z" fill --yes-destroy-data "$z" "$z"
ln -s "$z" "$T_DIR/alias"
refused "one device by two names" "$z and $T_DIR/alias are the same device, given twice: fill writes each target once$" \
	"$z" fill --yes-destroy-data "$z" "$T_DIR/alias"

# data with no signature: every sampled block holds it; half of the
# device: a count between (binomial around half: 13 sd from either bound)
refused "data, no signature" "$r: ([0-9]+) of \1 sampled blocks hold data \(they read neither as never-written blocks, all zeros, nor as an earlier fill's\): fill writes over data only with --overwrite-data beside --yes-destroy-data$" \
	"$r" fill --yes-destroy-data "$r"
shm_file h 16
head -c 8M /dev/urandom | dd of="$h" conv=notrunc status=none || fail "writing $h"
loop_of h "$h"
refused "data in half of it" "$h: [0-9]+ of [0-9]+ sampled blocks hold data" "$h" fill --yes-destroy-data "$h"
n=$(sed -nE 's/.*: ([0-9]+) of ([0-9]+) sampled blocks.*/\1 \2/p' "$T_ERR")
read -r held sampled <<<"$n"
((held > sampled * 3 / 10 && held < sampled * 7 / 10)) || check_fail "half of $h holds data, fill counted $n"

# ---- writing ----
# the order: the exclusive open, libblkid's reads through it, then O_DIRECT
# (under ASan, LeakSanitizer stops the threads with ptrace at exit, which
# strace holds already: it would only say so, so it is off for this run)
run_strace() {
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		strace -f -qq -e trace=openat,fcntl,read,pread64 -o "$T_DIR/strace" "$IOSTORM" "$@" >"$T_OUT" 2>"$T_ERR"
	T_RC=$?
}
run_strace fill --yes-destroy-data --bs 256k --qd 4 "$z"
[ "$T_RC" = 0 ] || { check_fail "fill under strace: exit $T_RC"; show_output; }
awk -v dev="$z" '
	$0 ~ "openat\\(.*\"" dev "\"" { opens++; if (/O_RDWR/ && /O_EXCL/ && !/O_DIRECT/) { fd = $NF; excl = NR } }
	excl && / (pread64|read)\(/ { split($0, a, /[(,]/); if (a[2] == fd && !direct) probed++ }
	excl && /fcntl\(.*F_SETFL.*O_DIRECT/ { split($0, a, /[(,]/); if (a[2] == fd) direct = NR }
	END { if (opens != 1 || !excl || !probed || !direct) { print opens, excl, probed, direct; exit 1 } }' "$T_DIR/strace" ||
	{ check_fail "fill did not open $z O_RDWR|O_EXCL once, read it, then set O_DIRECT"; sed 's/^/    strace: /' "$T_DIR/strace" | grep -E "$z|F_SETFL" >&2; }
grep -Eq "^$z: wrote 16\.0 MiB \(bytes 0 to 16777216\) in [0-9.]+ s: [0-9]+ MB/s$" "$T_OUT" ||
	{ check_fail "fill's line"; show_output; }
[ -s "$T_ERR" ] && { check_fail "fill of a blank device said something"; show_output; }
[ "$(zero_blocks "$z")" = 0 ] || check_fail "after fill $(zero_blocks "$z") blocks of $z read as zeros"
[ "$(stamped_blocks "$z")" = 4096 ] || check_fail "after fill $(stamped_blocks "$z") of 4096 blocks of $z carry fill's stamp"
# no two 4K blocks alike: nothing for a deduplicating drive to skip
[ "$(od -An -v -tx8 -w4096 "$z" | sort | uniq -d | wc -l)" = 0 ] || check_fail "fill wrote two 4K blocks alike"
# a second fill: its data is fill's own, so no further word is needed
expect_ok "a second fill" fill --yes-destroy-data --quiet "$z"
[ -s "$T_ERR" ] && { check_fail "a second fill said something"; show_output; }

# --range: 1 MiB from 4 MiB, and nothing else (a 1 MiB IO cut by the range);
# then the whole device, fill's blocks and never-written ones, again
expect_ok "fill --range" fill --yes-destroy-data --range 4m:1m "$y"
[ "$(zero_blocks "$y" 1024 256)" = 0 ] || check_fail "fill --range left blocks of its range as zeros"
[ "$(zero_blocks "$y")" = $((4096 - 256)) ] || check_fail "fill --range wrote outside its range"
expect_ok "fill after fill --range" fill --yes-destroy-data --quiet "$y"
[ "$(stamped_blocks "$y")" = 4096 ] || check_fail "fill after fill --range left $y unstamped"

# data: written over with --overwrite-data beside --yes-destroy-data,
# said in one line
expect_ok "--overwrite-data" fill --yes-destroy-data --overwrite-data --quiet "$r"
grep -Eq "^iostorm fill: $r: ([0-9]+) of \1 sampled blocks hold data: writing over them, as --overwrite-data says$" "$T_ERR" ||
	{ check_fail "--overwrite-data's line"; show_output; }
[ "$(stamped_blocks "$r")" = 4096 ] || check_fail "--overwrite-data left blocks of $r unwritten"
t_done
