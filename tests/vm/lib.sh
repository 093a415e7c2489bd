# Host-side helpers for the emulated-NVMe tests (tests/vm/t_*.sh), sourced
# after tests/lib.sh:
#   . "$(dirname "$0")/../lib.sh"; . "$(dirname "$0")/lib.sh"
# vm_boot runs a guest script on a layout; its results land in $VM_OUT.

VM_HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
VM_OUT=
VM_N=0

# vm_need: skip where the rig cannot run (no static busybox, no cpio); the
# emulator (qemu.sh) and the kernels are fetched on first use, and a failure
# to fetch them fails the test: the suite must not pass without running.
vm_need() {
	need_iostorm
	need_cmd cpio gzip base64 jq
	command -v busybox >/dev/null 2>&1 || skip "busybox-static is not installed"
	! ldd "$(command -v busybox)" >/dev/null 2>&1 || skip "busybox is not the static build (busybox-static)"
	[ -n "${IOSTORM_VM_QEMU:-}" ] || "$VM_HERE/qemu.sh" >/dev/null || fail "cannot fetch the rig's QEMU (tests/vm/qemu.sh)"
}

# vm_initrd KERNEL: the guest's base initramfs for KERNEL, made once per test.
vm_initrd() {
	local k=$1 kdir out=$T_DIR/base-$1.cpio.gz progs=("$IOSTORM")
	if [ ! -s "$out" ]; then
		kdir=$("$VM_HERE/kernel.sh" "$k") || fail "cannot fetch the $k guest kernel"
		[ -n "${PLACECHECK:-}" ] && [ -x "$PLACECHECK" ] && progs+=("$PLACECHECK")
		"$VM_HERE/initramfs.sh" "$kdir" "$out" "${progs[@]}" || fail "cannot make the guest's initramfs"
	fi
	echo "$out"
}

# vm_boot KERNEL LAYOUT [run.sh options] <GUEST_SCRIPT: boots, runs the
# script read from stdin in the guest, unpacks its results into $VM_OUT.
# Returns 1 (after check_fail) when the guest sent nothing back.
vm_boot() {
	local k=$1 layout=$2 initrd rc
	shift 2
	initrd=$(vm_initrd "$k")
	VM_N=$((VM_N + 1))
	VM_OUT=$T_DIR/vm$VM_N
	cat >"$T_DIR/guest$VM_N.sh"
	"$VM_HERE/run.sh" --kernel "$k" --initrd "$initrd" --script "$T_DIR/guest$VM_N.sh" \
		--out "$VM_OUT" "$@" "$layout"
	rc=$?
	# A guest kernel that dies while booting, before iostorm or the test
	# ran (seen once in about 40 boots under TCG: an oops in the timekeeping
	# interrupt), is the emulator's flake, not a finding: boot once more.
	if [ $rc -eq 3 ]; then
		echo "note: the $k guest died while booting (above); booting it once more" >&2
		retried "the $k guest on $layout died while booting; booted once more"
		rm -rf "$VM_OUT"
		"$VM_HERE/run.sh" --kernel "$k" --initrd "$initrd" --script "$T_DIR/guest$VM_N.sh" \
			--out "$VM_OUT" "$@" "$layout"
		rc=$?
	fi
	if [ $rc -ne 0 ]; then
		check_fail "guest $k on $layout sent no results"
		return 1
	fi
	# IOSTORM_VM_KEEP=DIR keeps every guest's results there, to read later
	if [ -n "${IOSTORM_VM_KEEP:-}" ]; then
		mkdir -p "$IOSTORM_VM_KEEP/$T_NAME"
		cp -r "$VM_OUT" "$IOSTORM_VM_KEEP/$T_NAME/"
	fi
	if [ "$(cat "$VM_OUT/test.rc" 2>/dev/null)" != 0 ]; then
		check_fail "the guest script failed on $k/$layout"
		sed 's/^/    guest: /' "$VM_OUT/test.log" >&2
	fi
	return 0
}

# vm_rc NAME: exit status of step NAME ("none" when it did not run).
vm_rc() {
	cat "$VM_OUT/$1.rc" 2>/dev/null || echo none
}

# vm_show NAME: a step's output, for a failure message.
vm_show() {
	sed "s/^/    $1 out: /" "$VM_OUT/$1.out" >&2 2>/dev/null
	sed "s/^/    $1 err: /" "$VM_OUT/$1.err" >&2 2>/dev/null
}

# vm_expect_ok NAME WHAT: step NAME exited 0.
vm_expect_ok() {
	local rc
	rc=$(vm_rc "$1")
	[ "$rc" = 0 ] && return 0
	check_fail "$2: exit $rc, want 0"
	vm_show "$1"
	return 1
}

# vm_expect_error NAME WHAT CODE PATTERN: step NAME exited CODE with nothing
# on stdout and one stderr line matching PATTERN (the CLI's promise).
vm_expect_error() {
	local name=$1 what=$2 code=$3 pat=$4 rc
	rc=$(vm_rc "$name")
	if [ "$rc" != "$code" ]; then
		check_fail "$what: exit $rc, want $code"
	elif [ -s "$VM_OUT/$name.out" ]; then
		check_fail "$what: something on stdout"
	elif [ "$(wc -l <"$VM_OUT/$name.err")" -ne 1 ]; then
		check_fail "$what: want exactly one line on stderr"
	elif ! grep -Eq -- "$pat" "$VM_OUT/$name.err"; then
		check_fail "$what: stderr does not match /$pat/"
	else
		return 0
	fi
	vm_show "$name"
	return 1
}

# vm_jq NAME WHAT FILTER [jq args]: step NAME's stdout (JSON) satisfies FILTER.
vm_jq() {
	local name=$1 what=$2 filter=$3
	shift 3
	jq -e "$@" "$filter" "$VM_OUT/$name.out" >/dev/null 2>&1 && return 0
	check_fail "$what: the JSON does not hold $filter"
	vm_show "$name"
	return 1
}

# vm_check NAME WHAT [FILTER [jq args]]: step NAME ran `iostorm check ...
# --json -` in a guest that kept its namespace count (keep ndrives
# vm_ndrives): exit 0 without findings or 3 with some, a check report whose
# setup record holds every namespace, each NVMe with a PCI function, and
# findings about those devices or the machine only; then FILTER holds.
vm_check() {
	local name=$1 what=$2 rc n
	shift 2
	rc=$(vm_rc "$name")
	n=$(cat "$VM_OUT/ndrives" 2>/dev/null || echo -1)
	case $rc in
	0 | 3) ;;
	*) check_fail "$what: exit $rc, want 0 or 3"; vm_show "$name"; return 1 ;;
	esac
	vm_jq "$name" "$what: the report and its setup record" '
		.command == "check" and (.setup.devices | length == $n)
		and all(.setup.devices[]; .nvme == true and (.pci | type == "string"))
		and ([.setup.devices[].name] as $names
		     | all(.findings[]; .device == null or (.device as $d | $names | index($d))))
		and ((.findings | length > 0) == ($rc == 3))' --argjson n "$n" --argjson rc "$rc" ||
		return 1
	[ $# -eq 0 ] || vm_jq "$name" "$what" "$@"
}
