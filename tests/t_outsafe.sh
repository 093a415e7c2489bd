#!/bin/bash
# Outputs write only what they were asked to (cli/report/outpath.h). Run as
# root, where a slip or another user's link would destroy data:
# - a block device (a file system on it), a character device other than
#   /dev/null or a terminal, and a file of proc are refused as --json,
#   --stream, plot -o and a job file's json key: exit 2, one line, before
#   any IO, and the device's bytes are unchanged (by hash);
# - an output that is a target, or both outputs naming one file (also by
#   a hard link), is refused: exit 2, the target unchanged;
# - --stream FILE is not emptied by a command that fails before its first
#   run (no TARGET, a bad target, a port in use), a FILE it would have
#   created is not left, and a run empties FILE in place (same inode);
# - in a sticky, world-writable directory another user's symlink is not
#   followed (the kernel's protected_symlinks rule, applied with the sysctl
#   off): not as the last component, not dangling, not as a folder on the
#   way; the caller's own link there, and another user's link in a folder
#   that is not sticky, are followed as usual;
# - /dev/null and a terminal take a report.
. "$(dirname "$0")/lib.sh"
need_iostorm
need_root "writing as root over other users' links"
need_cmd jq sha256sum setpriv mkfs.ext4 ss script

# sums FILE...: one hash line per file, to compare before and after
sums() { sha256sum "$@" | awk '{ print $1 }'; }
back_of() { losetup -nO BACK-FILE "$1"; }

s=(-q --time 200ms --ramp 0)
make_loop fsdev 16
mkfs.ext4 -qF "$fsdev" >/dev/null 2>&1 || fail "mkfs.ext4 on $fsdev"
fsback=$(back_of "$fsdev")
make_data_file tgt 4
before=$(sums "$fsback" "$tgt")
# unchanged WHAT: the file system's device and the target hold what they did
unchanged() {
	[ -b "$fsdev" ] || fail "$1: $fsdev is no longer a block device node"
	[ "$(sums "$fsback" "$tgt")" = "$before" ] || fail "$1: a device or the target changed"
}

# ---- devices and kernel files ----
expect_error "--json on a block device holding ext4" 2 \
	"^iostorm run: $fsdev: a block device: reports go to a regular file, a FIFO, /dev/null or a terminal$" \
	run "${s[@]}" --json "$fsdev" "$tgt"
unchanged "--json BLOCKDEV"
printf '[job]\ncommand = run\njson = %s\ntime = 200ms\nramp = 0\n' "$fsdev" >"$T_DIR/job.ini"
expect_error "json = BLOCKDEV in a job file" 2 "^iostorm run: $fsdev: a block device" \
	-c "$T_DIR/job.ini" -q "$tgt"
unchanged "a job file's json = BLOCKDEV"
expect_error "--stream on a block device" 2 "^iostorm run: --stream $fsdev: a block device" \
	run "${s[@]}" --stream "$fsdev" "$tgt"
unchanged "--stream BLOCKDEV"
# plot takes only a name ending .svg or .png: a link by that name
ln -s "$fsdev" "$T_DIR/pic.svg"
expect_error "plot -o on a block device" 2 "^iostorm plot: $T_DIR/pic\.svg: a block device" \
	plot -o "$T_DIR/pic.svg" "$(dirname "$0")/fixtures/report-run.json"
unchanged "plot -o BLOCKDEV"
expect_error "--json on a character device" 2 \
	"^iostorm nop: /dev/zero: a character device \(1:5\): reports go to" \
	nop "${s[@]}" --json /dev/zero
expect_error "--json on a file of proc" 2 \
	"^iostorm nop: /proc/version: a file of proc, a kernel interface" \
	nop "${s[@]}" --json /proc/version
expect_error "--stream in sysfs" 2 "^iostorm nop: --stream /sys/iostorm-no\.json: in sysfs" \
	nop "${s[@]}" --stream /sys/iostorm-no.json

# ---- outputs that are targets, or each other ----
expect_error "--json on the target" 2 "^iostorm run: $tgt: is the target $tgt, which is only read" \
	run "${s[@]}" --json "$tgt" "$tgt"
expect_error "--stream on the target" 2 "^iostorm run: --stream $tgt: is the target $tgt" \
	run "${s[@]}" --stream "$tgt" "$tgt"
# beside the target: a hard link cannot leave its file system (/tmp may be tmpfs)
T_FILES+=("$tgt.hard")
ln "$tgt" "$tgt.hard" || fail "cannot hard-link $tgt"
expect_error "--json on a hard link to the target" 2 "is the target $tgt, which is only read" \
	run "${s[@]}" --json "$tgt.hard" "$tgt"
unchanged "outputs on the target"
expect_error "--stream and --json on one new file" 2 \
	"^iostorm nop: --stream $T_DIR/one\.json: is --json's file $T_DIR/\./one\.json too" \
	nop "${s[@]}" --json "$T_DIR/./one.json" --stream "$T_DIR/one.json"
[ -e "$T_DIR/one.json" ] && check_fail "--stream X --json X: X was created"
echo keep >"$T_DIR/two.json"
ln "$T_DIR/two.json" "$T_DIR/two-link.json"
expect_error "--stream and --json on one file by two names" 2 "is --json's file" \
	nop "${s[@]}" --json "$T_DIR/two.json" --stream "$T_DIR/two-link.json"
[ "$(cat "$T_DIR/two.json")" = keep ] || check_fail "--stream X --json X: X changed"

# ---- --stream: nothing emptied before the command commits ----
printf 'old stream\n' >"$T_DIR/s.jsonl"
sold=$(sums "$T_DIR/s.jsonl")
# a port in use: a run that holds one, found with ss (iproute2)
"$IOSTORM" nop -q --time 10m --ramp 0 --listen 127.0.0.1:0 >/dev/null 2>&1 </dev/null &
holder=$!
trap 'kill -KILL $holder 2>/dev/null; wait $holder 2>/dev/null; t_cleanup' EXIT
port=
for ((i = 0; i < T_TRIES && !port; i++)); do
	port=$(ss -Htlnp 2>/dev/null | awk -v pid="pid=$holder," 'index($0, pid) { sub(/.*:/, "", $4); print $4; exit }')
	[ -n "$port" ] || sleep 0.1
done
[ -n "$port" ] || fail "the run holding a port never listened"
for c in "no TARGET|run" "a bad target|run $T_DIR/no-such-target" \
	 "a port in use|run --listen 127.0.0.1:$port $tgt"; do
	what=${c%%|*}
	read -ra args <<<"${c#*|}"
	run_iostorm "${args[0]}" "${s[@]}" --stream "$T_DIR/s.jsonl" "${args[@]:1}"
	[ "$T_RC" -ne 0 ] || check_fail "--stream, $what: exit 0"
	[ "$(sums "$T_DIR/s.jsonl")" = "$sold" ] || check_fail "--stream, $what: the file changed"
	run_iostorm "${args[0]}" "${s[@]}" --stream "$T_DIR/new.jsonl" "${args[@]:1}"
	[ -e "$T_DIR/new.jsonl" ] && check_fail "--stream, $what: a new file was left"
	rm -f "$T_DIR/new.jsonl"
done
{ kill -KILL "$holder"; wait "$holder"; } 2>/dev/null
# a run empties it in place: a reader following it keeps its file
ino=$(stat -c %i "$T_DIR/s.jsonl")
expect_ok "--stream on an old file" run "${s[@]}" --stream "$T_DIR/s.jsonl" "$tgt"
[ "$(stat -c %i "$T_DIR/s.jsonl")" = "$ino" ] || check_fail "--stream: the file was replaced"
[ "$(head -n 1 "$T_DIR/s.jsonl" | jq -r .type)" = header ] ||
	check_fail "--stream: the file does not begin with the header (old lines kept?)"
[ "$(tail -n 1 "$T_DIR/s.jsonl" | jq -r .how)" = completed ] || check_fail "--stream: no end line"

# ---- symlinks in a sticky, world-writable folder ----
ps=/proc/sys/fs/protected_symlinks
if [ -w "$ps" ]; then
	# iostorm's own rule, not the kernel's, must refuse: the sysctl off
	T_SYSFS+=("$ps $(cat "$ps")")
	echo 0 >"$ps"
fi
chmod 755 "$T_DIR"
sticky=$T_DIR/sticky open=$T_DIR/open
mkdir "$sticky" "$open" "$T_DIR/victims"
chmod 1777 "$sticky"
chmod 0777 "$open"
echo precious >"$T_DIR/victims/v"
# lib.sh's as_nobody runs from a folder of nobody's (nobody_iostorm)
nobody_iostorm || fail "no way to run a command as nobody"
as_nobody ln -s "$T_DIR/victims/v" "$sticky/r.json" || fail "nobody cannot make a link in $sticky"
as_nobody ln -s "$T_DIR/victims/made" "$sticky/dangling.json"
as_nobody ln -s "$T_DIR/victims" "$sticky/dir"
for out in "$sticky/r.json" "$sticky/dangling.json" "$sticky/dir/r.json"; do
	link=$out
	[[ $out == */dir/* ]] && link=$sticky/dir
	expect_error "--json $out (nobody's link)" 1 \
		"^iostorm nop: $out: a symlink \($link\) owned by uid 65534 in the sticky, world-writable $sticky of uid 0: not followed" \
		nop "${s[@]}" --json "$out"
	expect_error "--stream $out (nobody's link)" 1 "^iostorm nop: --stream $out: a symlink" \
		nop "${s[@]}" --stream "$out"
done
[ "$(cat "$T_DIR/victims/v")" = precious ] || check_fail "nobody's link: the victim changed"
[ "$(ls "$T_DIR/victims")" = v ] || check_fail "nobody's link: a file was made: $(ls "$T_DIR/victims")"
# the caller's own link there, and nobody's in a folder without the sticky bit
ln -s "$T_DIR/victims/mine.json" "$sticky/mine.json"
expect_ok "--json through root's own link in a sticky folder" nop "${s[@]}" --json "$sticky/mine.json"
[ -L "$sticky/mine.json" ] && jq -e .schema "$T_DIR/victims/mine.json" >/dev/null ||
	check_fail "root's own link: no report behind the link"
as_nobody ln -s "$T_DIR/victims/open.json" "$open/r.json"
expect_ok "--json through nobody's link in a folder that is not sticky" nop "${s[@]}" --json "$open/r.json"
jq -e .schema "$T_DIR/victims/open.json" >/dev/null || check_fail "a link in a plain folder: not followed"

# ---- /dev/null and a terminal take a report ----
expect_ok "--json /dev/null" nop "${s[@]}" --json /dev/null --stream /dev/null
script -qec "$IOSTORM nop -q --time 100ms --ramp 0 --json /dev/tty" "$T_DIR/tty.log" >/dev/null </dev/null ||
	check_fail "--json /dev/tty: exit $?"
grep -q '"schema": "iostorm/1"' "$T_DIR/tty.log" || check_fail "--json /dev/tty: no report on the terminal"
t_done
