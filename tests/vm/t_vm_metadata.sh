# Namespaces with metadata (issue 42 item 6), on 7.2 and on 6.12: 4 KiB
# blocks with 8 bytes of metadata each, in three LBA formats (layouts/
# metadata.layout), read by the block path and by NVMe passthrough
# (--engine io_uring_cmd).
#  - PI type 1 (nvpi) and plain metadata apart (nvms): both engines read
#    them without an error. Passthrough gives each read a metadata buffer
#    of its own: QEMU's trace of the addresses it writes to
#    (pci_nvme_map_addr) never holds bus address 0 once Linux runs, where a read without
#    one would have the controller put the metadata (the kernel sets MPTR
#    only from the command's metadata fields: drivers/nvme/host/ioctl.c).
#  - --pi-act on nvpi: PRACT set, no metadata buffer, reads complete; on
#    nvpw, whose PI tuples are the written text, the controller's guard
#    check fails every read (End-to-end Guard Check Error, nvme:2/82),
#    while passthrough without it reads nvpw whole. Refused in one line,
#    exit 2: --pi-act on nvms (no PI), --pi-act without the engine.
#  - Metadata inline (nvex, extended LBA, no PI): the kernel gives the
#    block device capacity 0; the block path names the LBA format, why,
#    and the passthrough engine (exit 1), which reads it whole: 4104 bytes
#    a block, into registered buffers of its own, none of it at
#    bus address 0 (a transfer one block short would put its last 8 bytes
#    there: the kernel's PRP2 is 0).
#  - The setup record's lba_format for each: index, 4096 data bytes, 8
#    metadata bytes, separate or inline, the PI type, the kernel's
#    integrity profile.
# Prints each run's IOPS (the rig's metadata table) as notes.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib.sh"
vm_need

guest() {
	cat <<'GUEST'
keep uname uname -r
for d in nvpi nvms nvex nvpw; do basename $(dev $d); done >/results/names
for d in nvpi nvms nvex; do
	b=$(basename $(dev $d))
	for f in size queue/logical_block_size metadata_bytes integrity/format integrity/tuple_size; do
		echo "$d $f $(cat /sys/block/$b/$f 2>/dev/null || echo -)"
	done
done >/results/sysfs
q="-q --time 1 --ramp 0.2 --qd 8 --json -"
p="$q --engine io_uring_cmd"
step blk_pi iostorm run $q $(dev nvpi)
step blk_ms iostorm run $q $(dev nvms)
step blk_ex iostorm run $q $(dev nvex)
step pt_pi iostorm run $p $(dev nvpi)
step pt_pi_act iostorm run $p --pi-act $(dev nvpi)
step pt_ms iostorm run $p $(dev nvms)
step pt_ex iostorm run $p $(dev nvex)
step pt_pw iostorm run $p $(dev nvpw)
step pt_pw_act iostorm run $p --pi-act $(dev nvpw)
step pt_ms_act iostorm run $p --pi-act $(dev nvms)
step blk_act iostorm run $q --pi-act $(dev nvpi)
GUEST
}

# note the IOPS of step NAME (the metadata table)
iops() {
	echo "note: $k $1: $(jq -r '.devices[0] | "\(.iops | floor) IOPS, \(.ios) reads, \(.errors) errors"' \
		"$VM_OUT/$1.out" 2>/dev/null || echo "exit $(vm_rc "$1")")"
}

lbaf='.setup.devices[0].lba_format | .data_bytes == 4096 and .metadata_bytes == 8
	and (.index | type == "number") and .metadata == $where and .pi_type == $pi
	and .integrity == $integrity'
ok='.devices[0] | .ios > 0 and .errors == 0 and .engine == $engine'

for k in 7.2 6.12; do
	vm_boot "$k" metadata --trace pci_nvme_map_addr,pci_nvme_get_log <<<"$(guest)" || continue
	grep -q "^${k//./\\.}\." "$VM_OUT/uname" || check_fail "the guest runs $(cat "$VM_OUT/uname"), not $k"
	sed "s/^/note: $k sysfs: /" "$VM_OUT/sysfs"
	set -- $(cat "$VM_OUT/names")
	for s in blk_pi blk_ms pt_pi pt_pi_act pt_ms pt_ex pt_pw pt_pw_act; do
		iops $s
	done
	vm_expect_ok blk_pi "$k: block path, PI type 1" &&
		vm_jq blk_pi "$k: block path, PI type 1" "($ok) and ($lbaf)" \
			--arg engine io_uring --arg where separate --argjson pi 1 --arg integrity T10-DIF-TYPE1-CRC
	vm_expect_ok blk_ms "$k: block path, metadata apart" &&
		vm_jq blk_ms "$k: block path, metadata apart" "($ok) and ($lbaf)" \
			--arg engine io_uring --arg where separate --argjson pi 0 --arg integrity nop
	vm_expect_error blk_ex "$k: block path, metadata inline" 1 \
		"^iostorm run: /dev/$3: its LBA format [0-9]+ \\(4096-byte blocks, 8 bytes of metadata inline, no PI\\) carries each block's metadata inline, which the block layer cannot read \\(the kernel gives it no capacity\\); NVMe passthrough reads it, 4104 bytes a block: --engine io_uring_cmd$"
	vm_expect_ok pt_pi "$k: passthrough, PI type 1, a metadata buffer" &&
		vm_jq pt_pi "$k: passthrough, PI type 1, a metadata buffer" "($ok) and ($lbaf)" \
			--arg engine io_uring_cmd --arg where separate --argjson pi 1 --arg integrity T10-DIF-TYPE1-CRC
	vm_expect_ok pt_pi_act "$k: passthrough, PI type 1, --pi-act" &&
		vm_jq pt_pi_act "$k: passthrough, PI type 1, --pi-act" "$ok" --arg engine io_uring_cmd
	vm_expect_ok pt_ms "$k: passthrough, metadata apart, a metadata buffer" &&
		vm_jq pt_ms "$k: passthrough, metadata apart, a metadata buffer" "($ok) and ($lbaf)" \
			--arg engine io_uring_cmd --arg where separate --argjson pi 0 --arg integrity nop
	vm_expect_ok pt_ex "$k: passthrough, metadata inline" &&
		vm_jq pt_ex "$k: passthrough, metadata inline" "($ok) and ($lbaf)
			and .config.fixed_buffers == true and .setup.devices[0].capacity_bytes == 0" \
			--arg engine io_uring_cmd --arg where inline --argjson pi 0 --arg integrity none
	vm_expect_ok pt_pw "$k: passthrough, written PI, no checks" &&
		vm_jq pt_pw "$k: passthrough, written PI, no checks" "$ok" --arg engine io_uring_cmd
	rc=$(vm_rc pt_pw_act)
	[ "$rc" = 1 ] || { check_fail "$k: --pi-act on written PI: exit $rc, want 1"; vm_show pt_pw_act; }
	# (a block whose text happens to hold a matching guard may pass)
	vm_jq pt_pw_act "$k: --pi-act on written PI: the guard check fails" '
		.devices[0] | .errors > 100 * .ios and .first_error.name == "nvme:2/82"
		and .most_common_error.name == "nvme:2/82"'
	vm_expect_error pt_ms_act "$k: --pi-act without PI" 2 \
		"^iostorm run: --pi-act: /dev/$2 has no protection information \\(its LBA format [0-9]+ \\(4096-byte blocks, 8 bytes of metadata apart, no PI\\)\\)$"
	vm_expect_error blk_act "$k: --pi-act on the block path" 2 \
		'^iostorm run: --pi-act is for --engine io_uring_cmd \(the block layer sets PRACT itself\)$'
	# every metadata buffer was one the kernel mapped: none at bus address
	# 0 once Linux runs (from its first Get Log Page: the firmware's boot
	# probe before it, SeaBIOS's, reads each namespace's LBA 0 with MPTR 0)
	n=$(awk '/pci_nvme_get_log/ { on = 1 } on && /pci_nvme_map_addr addr 0x0 / { n++ }
		END { print n + 0 }' "$VM_OUT/qemu-trace.log" 2>/dev/null)
	grep -q pci_nvme_get_log "$VM_OUT/qemu-trace.log" 2>/dev/null || check_fail "$k: no QEMU trace"
	[ "${n:-0}" = 0 ] || check_fail "$k: $n transfers to bus address 0 (a read without its metadata buffer)"
done
t_done
