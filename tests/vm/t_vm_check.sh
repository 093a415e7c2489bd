# The settings check reads, on the real nvme driver behind an emulated
# IOMMU (7.2 guests). iommu-strict: both drives' PCI functions are in DMA
# (strict) domains; nvq's controller has one IO queue, so its one vector
# takes every completion on one CPU, while nva has a vector per CPU.
# iommu-pt: identity domains, two nodes, and nvd's one vector on one of
# them. What the guest's sysfs and /proc/irq say is read back beside what
# iostorm reports, queue by queue.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib.sh"
vm_need

# The guest's own account, one line per drive and per IO queue vector:
#   drive NAME DISK CONTROLLER PCI IOMMU_TYPE
#   irq NAME QUEUE IRQ EFFECTIVE_AFFINITY   (QUEUE: 1 for CTRLq1, mq/0's)
cat >"$T_DIR/facts.sh" <<'GUEST'
facts() {
	local l n b c p t
	for l in /dev/vm/*; do
		n=${l##*/}
		b=$(basename "$(readlink "$l")")
		c=$(basename "$(readlink -f "/sys/block/$b/device")")
		p=$(basename "$(readlink -f "/sys/block/$b/device/device")")
		t=$(cat "/sys/bus/pci/devices/$p/iommu_group/type" 2>/dev/null || echo none)
		echo "drive $n $b $c $p $t"
		awk -v c="$c" '$NF ~ "^" c "q[1-9][0-9]*$" {
			q = $NF; sub(/.*q/, "", q); sub(/:$/, "", $1); print q, $1 }' /proc/interrupts |
			sort -n | while read -r q irq; do
				echo "irq $n $q $irq $(cat "/proc/irq/$irq/effective_affinity_list")"
			done
	done
}
# irq_cpu NAME: where drive NAME's first IO queue's interrupt lands
irq_cpu() {
	facts | awk -v n="$1" '$1 == "irq" && $2 == n && $3 == 1 { print $5 }'
}
GUEST
# guest NAME <SCRIPT: the facts above and SCRIPT, as $T_DIR/NAME.sh
guest() { cat "$T_DIR/facts.sh" - >"$T_DIR/$1.sh"; }

# fact WHAT NAME [QUEUE]: a field of the guest's account of drive NAME:
# disk, pci, iommu (its group's type), irqs (how many IO queue vectors),
# irq or cpu of its QUEUE-th
fact() {
	local f=$VM_OUT/facts
	case $1 in
	disk) awk -v n="$2" '$1 == "drive" && $2 == n { print $3 }' "$f" ;;
	pci) awk -v n="$2" '$1 == "drive" && $2 == n { print $5 }' "$f" ;;
	iommu) awk -v n="$2" '$1 == "drive" && $2 == n { print $6 }' "$f" ;;
	irqs) awk -v n="$2" '$1 == "irq" && $2 == n' "$f" | wc -l ;;
	irq) awk -v n="$2" -v q="$3" '$1 == "irq" && $2 == n && $3 == q { print $4 }' "$f" ;;
	cpu) awk -v n="$2" -v q="$3" '$1 == "irq" && $2 == n && $3 == q { print $5 }' "$f" ;;
	esac
}

# expect_fact WHAT NAME [QUEUE] WANT
expect_fact() {
	local want=${*: -1} got
	got=$(fact "${@:1:$#-1}")
	[ "$got" = "$want" ] && return 0
	check_fail "$VM_LAYOUT: the guest's ${*:1:$#-1}: '$got', want '$want'"
	sed 's/^/    facts: /' "$VM_OUT/facts" >&2
	return 1
}

# ---- a strict IOMMU, one drive with a single IO queue
VM_LAYOUT=iommu-strict
guest strict <<'GUEST'
keep cmdline cat /proc/cmdline
keep facts facts
GUEST
vm_boot 7.2 iommu-strict <"$T_DIR/strict.sh" || t_done
grep -qw 'iommu.strict=1' "$VM_OUT/cmdline" ||
	check_fail "iommu-strict: the guest's command line lacks iommu.strict=1: $(cat "$VM_OUT/cmdline")"
for d in nva nvq; do
	expect_fact iommu $d DMA
done
# two CPUs: a vector per CPU for nva, nvq's controller offers one IO queue
expect_fact irqs nva 2
expect_fact irqs nvq 1
[ "$(fact cpu nva 1)" != "$(fact cpu nva 2)" ] ||
	check_fail "iommu-strict: nva's two vectors land on one CPU ($(fact cpu nva 1))"
case $(fact cpu nvq 1) in
0|1) ;;
*) check_fail "iommu-strict: nvq's vector lands on '$(fact cpu nvq 1)', want one CPU" ;;
esac

# ---- passthrough, two nodes, nvd's single vector on one of them
VM_LAYOUT=iommu-pt
guest pt <<'GUEST'
keep cmdline cat /proc/cmdline
keep facts facts
GUEST
vm_boot 7.2 iommu-pt <"$T_DIR/pt.sh" || t_done
grep -qw 'iommu.passthrough=1' "$VM_OUT/cmdline" ||
	check_fail "iommu-pt: the guest's command line lacks iommu.passthrough=1: $(cat "$VM_OUT/cmdline")"
for d in nva nvd; do
	expect_fact iommu $d identity
done
expect_fact irqs nva 2
expect_fact irqs nvd 1
t_done
