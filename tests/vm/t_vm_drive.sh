# What the drive itself says, on the real nvme driver (7.2): a drive never
# written (a fresh sparse image) is named before the run with its share of
# all-zero blocks and the namespace's own word (DLFEAT: deallocated blocks
# read as zeros), a written one is not; as root each drive's SMART / Health
# log is read before and after (QEMU's composite temperature), and the
# controller found from the namespace; a drive whose log holds a critical
# warning (QEMU's smart_critical_warning) is named before the run, which
# goes on; as a user who may read the namespace but not its controller,
# the log is null, said once. On 6.12 the same share, words and log.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib.sh"
vm_need

vm_boot 7.2 drive <<'GUEST' || t_done
q="-q --time 0.5 --ramp 0 --qd 4 --json -"
for d in nva nvb nvw; do basename $(dev $d); done >/results/names
step run iostorm run $q $(dev nva) $(dev nvb)
step warn iostorm run $q $(dev nvw)
echo 'nobody:x:65534:65534::/:/bin/sh' >>/etc/passwd
echo 'nogroup:x:65534:' >>/etc/group
chmod o+r $(dev nva) $(dev nvb)
step notroot su nobody -s /bin/sh -c "iostorm run $q $(dev nva) $(dev nvb)"
# the composite temperature over the run, through the nvme driver's hwmon
step temp iostorm run -q --time 3 --ramp 0 --qd 4 --temperature-every 1s --json - $(dev nvb)
# fill: the blank drive written whole, then it reads as data; refused on
# a drive holding a file system (busybox's mke2fs), which keeps it
step fill iostorm fill --yes-destroy-data --quiet $(dev nva)
step filled iostorm run $q $(dev nva)
mke2fs -q $(dev nvb) >/dev/null 2>&1
keep fs_before dd if=$(dev nvb) bs=4096 count=1 skip=0 2>/dev/null | md5sum
step fill_fs iostorm fill --yes-destroy-data --quiet $(dev nvb)
keep fs_after dd if=$(dev nvb) bs=4096 count=1 skip=0 2>/dev/null | md5sum
GUEST

set -- $(cat "$VM_OUT/names")
a=$1 b=$2 w=$3
vm_expect_ok run "a blank and a written drive" &&
	vm_jq run "a blank and a written drive: the share, and the log before and after" '
		def dev(n): first(.devices[] | select(.name == n));
		(dev($a).drive | .zero_read_pct == 100 and .zero_sampled > 0)
		and (dev($b).drive | .zero_read_pct == 0)
		and all(.devices[].drive; (.smart_before.temperature_c | type) == "number"
			and .smart_before.critical_warning == 0 and .smart_before.warnings == []
			and .smart_after != null and .smart_change.moved == false)
		and ([.setup.devices[] | .zero_read_pct] == [100, 0])
		and ([.setup.devices[] | .critical_warnings] == [[], []])
		and ([.setup.devices[] | .dealloc_read] == ["zeros", "zeros"])' --arg a "$a" --arg b "$b"
grep -q "^iostorm run: $a: 100% of [0-9]* sampled blocks read as zeros (never written or trimmed; the namespace says such blocks read as zeros): the drive may answer them without reading flash" "$VM_OUT/run.err" ||
	{ check_fail "the blank drive $a is not named with its share"; vm_show run; }
grep -q "^iostorm run: $b: .*read as zeros" "$VM_OUT/run.err" &&
	{ check_fail "the written drive $b is named as reading zeros"; vm_show run; }
grep -Eiq "SMART|critical warning|log moved" "$VM_OUT/run.err" &&
	{ check_fail "a healthy drive's log said something"; vm_show run; }

vm_expect_ok warn "a drive with a critical warning: the run goes on" &&
	vm_jq warn "a drive with a critical warning" '.devices[0].ios > 0
		and .devices[0].drive.smart_before.critical_warning == 1
		and .devices[0].drive.smart_before.warnings == ["spare"]
		and .setup.devices[0].critical_warnings == ["spare"]'
[ "$(grep -c "^iostorm run: $w: the drive reports a critical warning before the run (available spare below its threshold, 0x01): measuring anyway$" "$VM_OUT/warn.err")" = 1 ] ||
	{ check_fail "the warning of $w is not named in one line before the run"; vm_show warn; }

vm_expect_ok notroot "not root: the log unread" &&
	vm_jq notroot "not root: the log null, the share still there" '
		all(.devices[].drive; .smart_before == null and .smart_after == null and .smart_change == null)
		and (.devices[0].drive.zero_read_pct == 100)'
[ "$(grep -c "SMART / Health log is not read: asking /dev/nvme[0-9]* needs root" "$VM_OUT/notroot.err")" = 1 ] ||
	{ check_fail "not root: not said once that the log needs root"; vm_show notroot; }

# --temperature-every 1s: every second of the timeline but the last (its
# sample is taken once the run has ended: the log's smart_after has the
# temperature then) holds the temperature QEMU's controller reports, each
# read timed, and the line saying what the reads cost
vm_expect_ok temp "--temperature-every on an NVMe drive" &&
	vm_jq temp "--temperature-every: a temperature each second, its reads timed" '
		(.devices[0].timeline | length >= 3)
		and all(.devices[0].timeline[:-1][]; (.temp_c | type) == "number")
		and .temperature.reads == (.devices[0].timeline | length - 1)
		and .temperature.read_us > 0
		and (.devices[0].drive.smart_after.temperature_c | type) == "number"'
grep -q "^iostorm run: --temperature-every" "$VM_OUT/temp.err" &&
	{ check_fail "--temperature-every on an NVMe drive said it has no temperature"; vm_show temp; }
grep -Eq "^temperature: [0-9]+ reads of the drives' hwmon, [0-9]+ us each" "$VM_OUT/temp.err" ||
	{ check_fail "--temperature-every: no line saying what the reads cost"; vm_show temp; }

# fill on the never-written drive: it says what it wrote, and the next
# run's sample finds data where it found 100% zeros
vm_expect_ok fill "fill on the blank drive" &&
	{ grep -Eq "^/dev/$a: wrote .* in [0-9.]+ s: [0-9]+ MB/s$" "$VM_OUT/fill.out" ||
		{ check_fail "fill on $a: not said what it wrote"; vm_show fill; }; }
vm_expect_ok filled "a run after fill" &&
	vm_jq filled "after fill: the share near 0, no line" '.devices[0].drive.zero_read_pct < 1
		and .devices[0].drive.zero_sampled > 0'
grep -q "read as zeros" "$VM_OUT/filled.err" &&
	{ check_fail "after fill, $a is still named as reading zeros"; vm_show filled; }
# a drive holding a file system: one line, exit 2, its first block kept
vm_expect_error fill_fs "fill on a drive holding ext2" 2 "^iostorm fill: /dev/$b holds .*ext2.* signature at byte [0-9]+: fill writes only a device with no data on it"
[ -s "$VM_OUT/fs_before" ] && cmp -s "$VM_OUT/fs_before" "$VM_OUT/fs_after" ||
	check_fail "fill refused $b but its first block changed"

# 6.12: the blank and the written drive, and the warning, as on 7.2
vm_boot 6.12 drive <<'GUEST' || t_done
q="-q --time 0.5 --ramp 0 --qd 4 --json -"
for d in nva nvb nvw; do basename $(dev $d); done >/results/names
step run iostorm run $q $(dev nva) $(dev nvb) $(dev nvw)
GUEST
set -- $(cat "$VM_OUT/names")
a=$1 b=$2 w=$3
vm_expect_ok run "6.12: a blank, a written and a warning drive" &&
	vm_jq run "6.12: the share, the namespace's word, the log before and after" '
		def dev(n): first(.devices[] | select(.name == n));
		(dev($a).drive.zero_read_pct == 100) and (dev($b).drive.zero_read_pct == 0)
		and (dev($w).drive.smart_before.warnings == ["spare"])
		and all(.devices[].drive; (.smart_before.temperature_c | type) == "number"
			and .smart_after != null)
		and ([.setup.devices[] | .dealloc_read] == ["zeros", "zeros", "zeros"])' \
		--arg a "$a" --arg b "$b" --arg w "$w"
grep -q "^iostorm run: $a: 100% of [0-9]* sampled blocks read as zeros (never written or trimmed; the namespace says such blocks read as zeros)" "$VM_OUT/run.err" ||
	{ check_fail "6.12: the blank drive $a is not named with its share"; vm_show run; }
[ "$(grep -c "^iostorm run: $w: the drive reports a critical warning before the run (available spare below its threshold, 0x01): measuring anyway$" "$VM_OUT/run.err")" = 1 ] ||
	{ check_fail "6.12: the warning of $w is not named in one line before the run"; vm_show run; }
t_done
