#!/bin/bash
# tests/vm/run.sh: boots a QEMU guest on a Debian kernel with the emulated
# NVMe drives of a layout, the real nvme driver and ./iostorm inside.
#
#   tests/vm/run.sh [--kernel 6.12|7.2] --shell LAYOUT
#       a shell on the guest's console, to explore by hand (Ctrl-A X quits)
#   tests/vm/run.sh [--kernel 6.12|7.2] --script FILE --out DIR LAYOUT
#       runs FILE (sh, with tests/vm/guest/lib.sh sourced) in the guest and
#       unpacks what it kept under /results into DIR (NAME.rc, NAME.out,
#       NAME.err per step, test.log, test.rc, dmesg.log); exits 0 when the
#       guest sent its results, 1 when not (the console's tail says why),
#       3 when the guest died before the script began (it never booted)
#
# LAYOUT is a file (tests/vm/layouts/*.layout) or the name of one. Options:
#   --initrd FILE   a base initramfs made by tests/vm/initramfs.sh (else one
#                   is made here for $IOSTORM and the guest helpers)
#   --timeout S     kill the guest after S seconds (default 300)
#   --hmp-dir DIR   where the human monitor FIFOs go (DIR/hmp.in, .out), so
#                   a caller can send it commands (device_del ...) mid-run
#   --console FILE  keep the guest's console there
#   --on-mark TEXT CMD
#                   when the guest script says "mark TEXT", send CMD to the
#                   QEMU monitor (e.g. "device_del c_NAME" pulls drive
#                   NAME's controller out of its slot); may be repeated
#   --trace EVENTS  QEMU's trace events matching EVENTS (a comma-separated
#                   list of patterns, e.g. 'pci_nvme_mmio_doorbell_sq,
#                   pci_nvme_io_cmd') into DIR/qemu-trace.log (--out)
# KVM is used where /dev/kvm can be opened, TCG software emulation elsewhere.
# Every guest started here is killed and every file made here removed when
# this script ends, also on failure or SIGINT/SIGTERM.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
IOSTORM=${IOSTORM:-$root/iostorm}

kernel=7.2 mode= script= outdir= initrd= timeout_s=300 hmp_dir= console_keep= trace=
mark_text=() mark_cmd=()
usage() {
	sed -n '2,25s/^# \{0,1\}//p' "${BASH_SOURCE[0]}" >&2
	exit 2
}
die() {
	echo "vm/run.sh: $*" >&2
	exit 1
}
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kernel=${2:?}; shift 2 ;;
	--shell) mode=shell; shift ;;
	--script) mode=script; script=${2:?}; shift 2 ;;
	--out) outdir=${2:?}; shift 2 ;;
	--initrd) initrd=${2:?}; shift 2 ;;
	--timeout) timeout_s=${2:?}; shift 2 ;;
	--hmp-dir) hmp_dir=${2:?}; shift 2 ;;
	--console) console_keep=${2:?}; shift 2 ;;
	--on-mark) mark_text+=("${2:?}"); mark_cmd+=("${3:?}"); shift 3 ;;
	--trace) trace=${2:?}; shift 2 ;;
	-h|--help) usage ;;
	-*) echo "vm/run.sh: unknown option $1" >&2; usage ;;
	*) break ;;
	esac
done
[ $# -eq 1 ] && [ -n "$mode" ] || usage
[ "$mode" = shell ] || [ -n "$outdir" ] || usage
layout=$1
[ -f "$layout" ] || layout=$here/layouts/${1%.layout}.layout
[ -f "$layout" ] || die "no layout $1 (see tests/vm/layouts/)"
# QEMU 10 from bookworm-backports, fetched once (qemu.sh says why not the
# host's 7.2); IOSTORM_VM_QEMU=PROGRAM runs another emulator instead, e.g.
# /usr/bin/qemu-system-x86_64 to see 7.2's lost doorbells again
qemu=${IOSTORM_VM_QEMU:-}
if [ -z "$qemu" ]; then
	qemu=$("$here/qemu.sh")/bin/qemu-system-x86_64 || die "cannot fetch the rig's QEMU (tests/vm/qemu.sh)"
fi

work=$(mktemp -d "${TMPDIR:-/var/tmp}/iostorm-vm.XXXXXX")
qpid=
cleanup() {
	if [ -n "$qpid" ] && kill -0 "$qpid" 2>/dev/null; then
		kill -TERM "$qpid" 2>/dev/null
		sleep 0.2
		kill -KILL "$qpid" 2>/dev/null || true
		wait "$qpid" 2>/dev/null || true
	fi
	[ -n "$console_keep" ] && [ -f "$work/console.log" ] && cp "$work/console.log" "$console_keep"
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# ---- the layout: machine and drives as QEMU arguments
nodes=1 cpus=1 poll=0 ndrives=0 chassis=0 nbridges=0 iommu= mpath=0
declare -A bridge_bus
qargs=()
drive_disk() { # ID IMAGE ERRORS [DATA]: a block node for an image, with faults
	local id=$1 img=$2 errors=$3 data=${4:-}
	# written, as a drive in use is: a never-written drive reads as zeros,
	# which iostorm names before every run (data=blank keeps it so)
	case $data in
	# (yes ends on SIGPIPE: not a failure under pipefail)
	"") { yes iostorm-vm-drive || :; } | head -c 64M >"$img" ;;
	blank) truncate -s 64M "$img" ;;
	*) die "$layout: data=$data: only blank is known" ;;
	esac
	case $errors in
	"") qargs+=(-blockdev "driver=file,node-name=$id,filename=$img") ;;
	eio)
		printf '[inject-error]\nevent = "read_aio"\nerrno = "5"\n' >"$img.blkdebug"
		# blkdebug fires on events that a format driver above it raises
		# (raw's read_aio), so raw sits on top
		qargs+=(-blockdev "driver=raw,node-name=$id,file.driver=blkdebug,file.config=$img.blkdebug,file.image.driver=file,file.image.filename=$img") ;;
	*) die "$layout: errors=$errors: only eio is known" ;;
	esac
}
# Every NVMe controller takes its doorbells through an ioeventfd. Without
# one, QEMU 7.2's controller (the shadow doorbells Linux uses on it) now and
# then never sees a batch of commands: they sit in flight until the nvme
# driver's 30 s timeout aborts them ("I/O tag 448 ... QID 1 timeout,
# aborting", the commands never fetched) and the queue serves nothing more.
# 40-run loops of passthrough and block reads at QD1-8 on 7.2 hung that way
# in 4 of 6 guests without it, in none of 6 with it (CI saw it once on a
# plain polled run).
nvme_opts=,ioeventfd=on
root_port() { # NAME BRIDGE SPEED WIDTH: a root port under a host bridge
	local name=$1 br=$2 speed=$3 width=$4 extra=
	[ -n "${bridge_bus[$br]:-}" ] || die "$layout: drive $name: no bridge $br"
	chassis=$((chassis + 1))
	[ -n "$speed" ] && extra+=",x-speed=${speed/2.5/2_5}"
	[ -n "$width" ] && extra+=",x-width=$width"
	qargs+=(-device "pcie-root-port,id=rp_$name,bus=$br,chassis=$chassis,slot=0$extra")
}
while read -r kw name rest; do
	case $kw in ''|'#'*) continue ;; esac
	bridge= speed= width= queues= errors= bridges= node= data= warn= meta=
	for kv in $rest; do
		case $kv in
		'#'*) break ;;
		bridge=*|speed=*|width=*|queues=*|errors=*|bridges=*|node=*|data=*|warn=*|meta=*) eval "${kv%%=*}=\${kv#*=}" ;;
		*) die "$layout: unknown setting $kv" ;;
		esac
	done
	case $kw in
	nodes) nodes=$name ;;
	cpus) cpus=$name ;;
	poll_queues) poll=$name ;;
	iommu)
		case $name in
		strict|lazy|pt) iommu=$name ;;
		*) die "$layout: iommu $name: strict, lazy or pt" ;;
		esac ;;
	bridge)
		nbridges=$((nbridges + 1))
		bus=$((32 * nbridges))
		bridge_bus[$name]=$bus
		qargs+=(-device "pxb-pcie,id=$name,bus_nr=$bus,numa_node=${node:-0},bus=pcie.0") ;;
	slot) # an empty slot: a root port with nothing behind it
		root_port "$name" "$bridge" "$speed" "$width" ;;
	drive)
		root_port "$name" "$bridge" "$speed" "$width"
		drive_disk "d_$name" "$work/$name.img" "$errors" "$data"
		if [ -z "$meta" ]; then
			qargs+=(-device "nvme,id=c_$name,serial=$name,drive=d_$name,bus=rp_$name${queues:+,max_ioqpairs=$queues}${warn:+,smart_critical_warning=$warn}$nvme_opts")
		else
			# a namespace of its own, 4 KiB blocks with the metadata
			# the layout names (nvme-ns's ms, mset, pi, pil)
			qargs+=(-device "nvme,id=c_$name,serial=$name,bus=rp_$name${queues:+,max_ioqpairs=$queues}${warn:+,smart_critical_warning=$warn}$nvme_opts"
				-device "nvme-ns,drive=d_$name,nsid=1,bus=c_$name,logical_block_size=4096,physical_block_size=4096,$meta")
		fi
		ndrives=$((ndrives + 1)) ;;
	multipath)
		mpath=1
		qargs+=(-device "nvme-subsys,id=s_$name,nqn=$name")
		i=0
		for br in ${bridges//,/ }; do
			root_port "${name}_$i" "$br" "" ""
			qargs+=(-device "nvme,id=c_${name}_$i,serial=$name,subsys=s_$name,bus=rp_${name}_$i$nvme_opts")
			i=$((i + 1))
		done
		drive_disk "d_$name" "$work/$name.img" ""
		qargs+=(-device "nvme-ns,drive=d_$name,nsid=1,bus=c_${name}_0")
		ndrives=$((ndrives + 1)) ;;
	*) die "$layout: unknown line '$kw'" ;;
	esac
done <"$layout"

mem_mb=384
machine=(-m $((mem_mb * nodes))M -smp $((nodes * cpus)))
for ((n = 0; n < nodes; n++)); do
	ncpus=$((n * cpus))
	[ "$cpus" -gt 1 ] && ncpus+=-$((n * cpus + cpus - 1))
	machine+=(-object "memory-backend-ram,id=mem$n,size=${mem_mb}M"
		-numa "node,nodeid=$n,cpus=$ncpus,memdev=mem$n")
done
# KVM only where the CPU offers virtualisation too: a /dev/kvm without vmx or
# svm (a guest inside a microVM) opens fine, then fails the first guest
# instruction it has to emulate. IOSTORM_VM_ACCEL=kvm|tcg overrides.
accel=${IOSTORM_VM_ACCEL:-}
if [ -z "$accel" ]; then
	accel=tcg
	if [ -r /dev/kvm ] && [ -w /dev/kvm ] && grep -qwE 'vmx|svm' /proc/cpuinfo; then
		accel=kvm
	fi
fi
# An IOMMU (VT-d) that translates every PCI function's DMA, the drives'
# included: iommu_group/type is DMA (strict), DMA-FQ (lazy) or identity
# (pt) as the guest's command line asks. Interrupt remapping on, as on a
# server; under KVM it needs the IOAPIC in QEMU (kernel-irqchip=split),
# TCG has no in-kernel irqchip to split. The IOMMU goes before every PCI
# device it is to translate: QEMU binds a device's DMA when it is created.
iommu_args=() iommu_append=
case $iommu in
"") ;;
strict) iommu_append="intel_iommu=on iommu.strict=1" ;;
lazy) iommu_append="intel_iommu=on iommu.strict=0" ;;
pt) iommu_append="intel_iommu=on iommu.passthrough=1" ;;
esac
if [ -n "$iommu" ]; then
	iommu_args=(-device intel-iommu,intremap=on)
fi
q35=q35
[ -n "$iommu" ] && [ "$accel" = kvm ] && q35+=,kernel-irqchip=split
machine=(-machine "$q35" "${machine[@]}")
case $accel in
kvm) machine+=(-accel kvm -cpu host) ;;
# TCG in one thread: with a thread per vCPU (thread=multi) a guest of two
# or more CPUs now and then oopses on an int3 while its kernel patches its
# own text (jump labels, static calls) during boot: CI saw one 7.2 guest do
# it on two boots in a row. One thread makes that patching coherent; it
# costs a two-CPU guest about 4 s a boot here.
tcg) machine+=(-accel tcg,thread=single -cpu max) ;;
*) die "IOSTORM_VM_ACCEL=$accel: kvm or tcg" ;;
esac

# ---- kernel and initramfs
kdir=$("$here/kernel.sh" "$kernel")
if [ -z "$initrd" ]; then
	[ -x "$IOSTORM" ] || die "no iostorm binary at $IOSTORM (make, or set IOSTORM)"
	progs=("$IOSTORM")
	PLACECHECK=${PLACECHECK:-$root/build/vm/placecheck}
	[ -x "$PLACECHECK" ] && progs+=("$PLACECHECK")
	initrd=$work/base.cpio.gz
	"$here/initramfs.sh" "$kdir" "$initrd" "${progs[@]}"
fi
cp "$initrd" "$work/initrd"
if [ "$mode" = script ]; then
	# a second archive after the first: the kernel unpacks both, but
	# looks for the next one on a 4-byte boundary only
	pad=$(( (4 - $(stat -c %s "$work/initrd") % 4) % 4 ))
	head -c "$pad" /dev/zero >>"$work/initrd"
	mkdir -p "$work/extra/guest"
	cp "$script" "$work/extra/guest/test.sh"
	(cd "$work/extra" && find . | cpio -o -H newc --quiet --owner 0:0) >>"$work/initrd"
fi

# QEMU 10 puts every controller in an NVMe subsystem of its own and says
# so (CMIC multi-controller, OACS namespace management), so Linux makes
# every namespace a multipath head over one hidden path nvmeXcYnZ. A layout
# that describes no multipath namespace gets drives that are their
# controller's own namespace, as a single-ported drive is: its guest loads
# nvme_core with multipath=N (vm_mpath=0). A layout with a multipath line
# keeps native multipath, every drive of it a head.
append="console=ttyS0 panic=-1 mitigations=off${iommu_append:+ $iommu_append} vm_poll=$poll vm_drives=$ndrives vm_mpath=$mpath vm_mode=$mode"
[ "$mode" = shell ] || append+=" quiet"
hmp=${hmp_dir:-$work}/hmp
rm -f "$hmp.in" "$hmp.out"
mkfifo "$hmp.in" "$hmp.out"
common=("${machine[@]}" -nodefaults -display none -no-reboot
	-kernel "$kdir/vmlinuz" -initrd "$work/initrd" -append "$append"
	-chardev "pipe,id=hmp,path=$hmp" -mon chardev=hmp,mode=readline
	"${iommu_args[@]}" "${qargs[@]}")
if [ -n "$trace" ]; then
	[ -n "$outdir" ] || usage
	mkdir -p "$outdir"
	for ev in ${trace//,/ }; do
		common+=(-trace "enable=$ev")
	done
	common+=(-D "$outdir/qemu-trace.log")
fi

if [ "$mode" = shell ]; then
	# the console on this terminal; results port unused
	"$qemu" "${common[@]}" -serial mon:stdio -serial null
	exit 0
fi

: >"$work/data.log"
# QEMU's own messages (one per failed IO under blkdebug) to a file
"$qemu" "${common[@]}" -serial "file:$work/console.log" -serial "file:$work/data.log" \
	>"$work/qemu.log" 2>&1 &
qpid=$!
# drain the monitor's output so it never fills the FIFO
cat "$hmp.out" >/dev/null 2>&1 &
end=$((SECONDS + timeout_s))
while kill -0 "$qpid" 2>/dev/null; do
	if [ $SECONDS -ge $end ]; then
		echo "vm/run.sh: the guest ran past ${timeout_s}s: killed" >&2
		break
	fi
	for i in "${!mark_text[@]}"; do
		[ -n "${mark_text[i]}" ] || continue
		if tr -d '\r' <"$work/data.log" | grep -qxF "@@MARK ${mark_text[i]}"; then
			echo "${mark_cmd[i]}" >"$hmp.in"
			mark_text[i]=
		fi
	done
	sleep 0.2
done
if kill -0 "$qpid" 2>/dev/null; then kill -KILL "$qpid"; fi
wait "$qpid" 2>/dev/null || true
qpid=

mkdir -p "$outdir"
if ! grep -q '^@@RESULTS-END' <(tr -d '\r' <"$work/data.log"); then
	echo "vm/run.sh: the guest sent no results; QEMU and the console ended with:" >&2
	tail -n 5 "$work/qemu.log" 2>/dev/null | sed 's/^/    qemu: /' >&2
	# an oops from its first line, else the console's end
	if grep -qE 'BUG:|Oops|general protection|Kernel panic' "$work/console.log"; then
		sed -n '/BUG:\|Oops\|general protection\|Kernel panic/,$p' "$work/console.log" | head -n 40
	else
		tail -n 30 "$work/console.log"
	fi 2>/dev/null | sed 's/^/    /' >&2
	tr -d '\r' <"$work/data.log" | grep -q '^@@BOOTED' || exit 3
	exit 1
fi
tr -d '\r' <"$work/data.log" | sed -n '/^@@RESULTS-BEGIN/,/^@@RESULTS-END/p' | sed '1d;$d' |
	base64 -d | gzip -dc | tar -C "$outdir" -xf - || die "the guest's results do not unpack"
cp "$work/console.log" "$outdir/console.log"
