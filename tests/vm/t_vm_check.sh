# The settings check reads, on the real nvme driver behind an emulated
# IOMMU (7.2 guests). iommu-strict: both drives' PCI functions are in DMA
# (strict) domains; nvq's controller has one IO queue, so its one vector
# takes every completion on one CPU, while nva has a vector per CPU and 2
# poll queues on its 4 CPUs, which two polling workers can share (named by
# check, spared by placement). iommu-pt: identity domains, two nodes, and
# nvd's one vector on one of them (a multipath head's path on mq-deadline
# is t_vm_topo's, on multipath.layout). What the guest's sysfs,
# /proc/irq and debugfs say is read back beside what iostorm reports.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib.sh"
vm_need
# IOSTORM_VM_CHECK_KERNEL=6.12 boots the same guests on 6.12 (passes too,
# the multipath head found without the multipath/ folder 6.14 added)
K=${IOSTORM_VM_CHECK_KERNEL:-7.2}

# The guest's own account, one line per drive and per IO queue vector:
#   drive NAME DISK CONTROLLER PCI IOMMU_TYPE
#   irq NAME QUEUE IRQ EFFECTIVE_AFFINITY   (QUEUE: 1 for CTRLq1, mq/0's)
cat >"$T_DIR/facts.sh" <<'GUEST'
facts() {
	local l n b c p t
	for l in /dev/vm/*; do
		n=${l##*/}
		b=$(basename "$(readlink "$l")")
		# a multipath head (its device is the subsystem): no controller
		# of its own, its paths have
		if [ -e "/sys/block/$b/device/subsysnqn" ] && [ ! -e "/sys/block/$b/device/address" ]; then
			echo "head $n $b"
			continue
		fi
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
# hctx NAME: drive NAME's hardware queues as the kernel types them (debugfs,
# which sysfs does not say): "N TYPE CPUS" a line, CPUS as "0,1"
hctx() {
	local b h n
	b=$(basename "$(dev "$1")")
	mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
	for h in /sys/kernel/debug/block/"$b"/hctx*; do
		n=${h##*hctx}
		echo "$n $(cat "$h/type") $(tr -d ' ' <"/sys/block/$b/mq/$n/cpu_list")"
	done | sort -n
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

# The guest's account as JSON, one object per drive: its disk, PCI
# function, IOMMU domain and IO queue vectors in queue order, in the shape
# of check's setup record ({name, pci, iommu_type, queues: [{irq, irq_cpus}]}).
facts_json() {
	jq -Rn '[inputs | split(" ")] as $l
		| [$l[] | select(.[0] == "drive") | . as $d
			| {serial: $d[1], name: $d[2], pci: $d[4], iommu_type: $d[5],
			   queues: [$l[] | select(.[0] == "irq" and .[1] == $d[1])
				| {irq: (.[3] | tonumber), irq_cpus: .[4]}]}]' "$VM_OUT/facts"
}

# check_json STEP WHAT FILTER [jq args]: STEP is a check report whose
# setup record says what the guest says of each device it lists (its PCI
# function, IOMMU domain, and each vector in queue order with where it
# lands, poll queues having none; a multipath head has none of its own),
# and which holds FILTER,
# where $f.SERIAL is the guest's account of drive SERIAL.
check_json() {
	local name=$1 what=$2 filter=$3 facts heads
	shift 3
	facts=$(facts_json)
	heads=$(awk '$1 == "head" { print $3 }' "$VM_OUT/facts" | jq -Rn '[inputs]')
	vm_jq "$name" "$what: the setup record is the guest's sysfs and /proc/irq" '
		.schema == "iostorm/1" and .command == "check" and (.setup.devices | length > 0)
		and all(.setup.devices[] | select(.name as $n | $heads | index($n) | not);
			. as $s | [$facts[] | select(.name == $s.name)]
			| length == 1 and (.[0] | $s.pci == .pci and $s.iommu_type == .iommu_type
				and $s.irq_queues == (.queues | length)
				and [$s.hw_queues[] | select(.irq != null) | {irq, irq_cpus}] == .queues))' \
		--argjson facts "$facts" --argjson heads "$heads" &&
		vm_jq "$name" "$what" "(reduce \$facts[] as \$d ({}; .[\$d.serial] = \$d)) as \$f | $filter" \
			--argjson facts "$facts" "$@"
}

# ---- a strict IOMMU, one drive with a single IO queue
VM_LAYOUT=iommu-strict
guest strict <<'GUEST'
keep cmdline cat /proc/cmdline
keep facts facts
step check iostorm check --json -
step text iostorm check
step jobs iostorm check --jobs-per-device 2 --json - $(dev nva) $(dev nvq)
step run iostorm run -q --time 1 --ramp 0.3 --qd 8 --json - $(dev nva) $(dev nvq)
# nva's poll queues: two workers on the first one's CPUs share it, one on
# the first CPU of each does not; a polled run without --cpus is placed
keep hctx hctx nva
p1=$(awk '$2 == "poll" { print $3; exit }' /results/hctx)
p2=$(awk '$2 == "poll" { if (++n == 2) { print $3; exit } }' /results/hctx)
share=$(echo "$p1" | cut -d, -f1-2)
keep share echo "$share"
keep apart echo "${p1%%,*},${p2%%,*}"
step pollq iostorm check --completion poll --jobs-per-device 2 --cpus "$share" --json - $(dev nva)
step pollq_apart iostorm check --completion poll --jobs-per-device 2 --cpus "${p1%%,*},${p2%%,*}" --json - $(dev nva)
step prun iostorm run --completion poll --jobs-per-device 2 --time 1 --ramp 0.3 --qd 8 --json - $(dev nva)
GUEST
vm_boot "$K" iommu-strict <"$T_DIR/strict.sh" || t_done
grep -qw 'iommu.strict=1' "$VM_OUT/cmdline" ||
	check_fail "iommu-strict: the guest's command line lacks iommu.strict=1: $(cat "$VM_OUT/cmdline")"
for d in nva nvq; do
	expect_fact iommu $d DMA
done
# four CPUs: a vector per CPU for nva, nvq's controller offers one IO queue
expect_fact irqs nva 4
expect_fact irqs nvq 1
[ "$(fact cpu nva 1)" != "$(fact cpu nva 2)" ] ||
	check_fail "iommu-strict: nva's first two vectors land on one CPU ($(fact cpu nva 1))"
case $(fact cpu nvq 1) in
0|1|2|3) ;;
*) check_fail "iommu-strict: nvq's vector lands on '$(fact cpu nvq 1)', want one CPU" ;;
esac
vm_expect_ok run "iostorm run through a strict IOMMU" &&
	vm_jq run "iostorm run through a strict IOMMU" \
		'.devices | length == 2 and all(.[]; .ios > 0 and .errors == 0)'

# Every NVMe namespace when no target is given. Both drives are strict;
# nvq's one vector takes every completion on one CPU, which nva's vectors
# share: one_cpu_irqs names that CPU. One worker a drive has a queue of
# its own on each, so no few_queues.
[ "$(vm_rc check)" = 3 ] || { check_fail "check on iommu-strict: exit $(vm_rc check), want 3"; vm_show check; }
check_json check "check on iommu-strict" '
	def on(k): [.findings[] | select(.kind == k)];
	(.setup.devices | length == 2)
	and (on("iommu_strict") | map(.device) | sort) == ([$f.nva.name, $f.nvq.name] | sort)
	and all(on("iommu_strict")[]; .scope == "device" and .now == "DMA (strict)"
		and (.fix | test("iommu=pt")) and (.cost | type == "string")
		and (.cost_source | type == "string"))
	and on("iommu_lazy") == []
	and (on("one_cpu_irqs") | length == 1 and .[0].device == $f.nvq.name
		and (.[0].now | test("\\bCPU \($f.nvq.queues[0].irq_cpus)$")))
	and on("few_queues") == []'
# the text: a paragraph per finding, the strict domain and the CPU named
if [ "$(vm_rc text)" != 3 ]; then
	check_fail "check text on iommu-strict: exit $(vm_rc text), want 3"
	vm_show text
else
	for d in "$(fact disk nva)" "$(fact disk nvq)"; do
		grep -qw "$d" "$VM_OUT/text.out" || { check_fail "check text: $d is not named"; vm_show text; }
	done
	[ "$(grep -c 'DMA (strict)' "$VM_OUT/text.out")" -eq 2 ] ||
		{ check_fail "check text: want the strict domain twice, one per drive"; vm_show text; }
	grep -E "^$(fact disk nvq) .*one_cpu_irqs: .* lands on CPU $(fact cpu nvq 1)([^0-9]|\$)" "$VM_OUT/text.out" >/dev/null ||
		{ check_fail "check text: nvq's interrupt CPU ($(fact cpu nvq 1)) is not named"; vm_show text; }
	n=$(jq '.findings | length' "$VM_OUT/check.out" 2>/dev/null)
	tail -n 1 "$VM_OUT/text.out" | grep -q "^$n settings cost IOPS" ||
		{ check_fail "check text: its last line does not count the JSON's $n findings"; vm_show text; }
fi
# two workers a drive: nvq's one queue is too few, nva's two are not
[ "$(vm_rc jobs)" = 3 ] || { check_fail "check --jobs-per-device 2: exit $(vm_rc jobs), want 3"; vm_show jobs; }
check_json jobs "check --jobs-per-device 2 on iommu-strict" '
	[.findings[] | select(.kind == "few_queues")]
	| length == 1 and .[0].device == $f.nvq.name and (.[0].now | test("^1 interrupt queues? for 2 workers$"))'

# nva's poll queues as debugfs types them: two, after its four queues with
# a vector (the order of nvme's maps: default, read, poll), each serving
# two of the four CPUs. So check's rule, a queue without a vector is a poll
# queue, holds here.
if [ "$(awk '$2 == "poll"' "$VM_OUT/hctx" | wc -l)" != 2 ] ||
	[ "$(awk '$2 == "poll" { printf "%s ", $1 }' "$VM_OUT/hctx")" != "4 5 " ] ||
	[ "$(awk '$2 == "poll" && $3 ~ /^[0-9]+,[0-9]+$/' "$VM_OUT/hctx" | wc -l)" != 2 ]; then
	check_fail "iommu-strict: want nva's hctx 4 and 5 typed poll, 2 CPUs each"
	sed 's/^/    hctx: /' "$VM_OUT/hctx" >&2
fi
share=$(cat "$VM_OUT/share") apart=$(cat "$VM_OUT/apart")
# two polling workers on one poll queue's CPUs: named, with a CPU of each
# poll queue as the way out; few_queues (2 poll queues, 2 workers) is quiet
[ "$(vm_rc pollq)" = 3 ] || { check_fail "check --cpus $share (one poll queue): exit $(vm_rc pollq), want 3"; vm_show pollq; }
check_json pollq "check --completion poll --cpus $share" '
	def on(k): [.findings[] | select(.kind == k)];
	(on("shared_poll_queue") | length == 1 and .[0].device == $f.nva.name
		and .[0].now == "CPUs \($s): 2 polling workers on 1 poll queue"
		and .[0].better == "a poll queue each: CPUs \($a)" and .[0].fix == "--cpus \($a)")
	and on("few_queues") == [] and on("no_poll_queues") == []' --arg s "$share" --arg a "$apart"
vm_rc pollq_apart | grep -qxE '0|3' || { check_fail "check --cpus $apart: exit $(vm_rc pollq_apart), want 0 or 3"; vm_show pollq_apart; }
vm_jq pollq_apart "check --completion poll --cpus $apart (a poll queue each)" \
	'.setup.devices | length == 1' &&
	vm_jq pollq_apart "check --completion poll --cpus $apart (a poll queue each)" \
		'all(.findings[]; .kind != "shared_poll_queue")'
# placement of a polled run: its two workers on CPUs of different poll
# queues, and where plain placement (cores 0 and 1) would share one, one
# line that says so
if vm_expect_ok prun "a polled run placed on nva's poll queues"; then
	cpus=$(jq -r '.devices[0].cpus | map(tostring) | join(",")' "$VM_OUT/prun.out")
	q0=$(awk -v c="${cpus%%,*}" '$2 == "poll" && ("," $3 ",") ~ ("," c ",") { print $1 }' "$VM_OUT/hctx")
	q1=$(awk -v c="${cpus##*,}" '$2 == "poll" && ("," $3 ",") ~ ("," c ",") { print $1 }' "$VM_OUT/hctx")
	[ -n "$q0" ] && [ -n "$q1" ] && [ "$q0" != "$q1" ] ||
		{ check_fail "polled run: workers on CPUs $cpus, poll queues '$q0' and '$q1': want one each"; vm_show prun; }
	if [ "$share" = 0,1 ]; then
		grep -qx "iostorm run: a poll queue of its own for each polling worker: $(fact disk nva) on CPUs $cpus (not 0,1)" \
			"$VM_OUT/prun.err" || { check_fail "polled run: no line saying its workers were moved off one poll queue"; vm_show prun; }
	fi
fi

# ---- passthrough, two nodes, nvd's single vector on one of them
VM_LAYOUT=iommu-pt
guest pt <<'GUEST'
keep cmdline cat /proc/cmdline
keep facts facts
step check iostorm check --json -
# a worker on the CPU nvd's interrupt lands on, and one on the other node's
c=$(irq_cpu nvd)
step local iostorm check --cpus "$c" --json - $(dev nvd)
step remote iostorm check --cpus $((1 - c)) --json - $(dev nvd)
GUEST
vm_boot "$K" iommu-pt <"$T_DIR/pt.sh" || t_done
grep -qw 'iommu.passthrough=1' "$VM_OUT/cmdline" ||
	check_fail "iommu-pt: the guest's command line lacks iommu.passthrough=1: $(cat "$VM_OUT/cmdline")"
for d in nva nvd; do
	expect_fact iommu $d identity
done
expect_fact irqs nva 2
expect_fact irqs nvd 1

# Passthrough: no IOMMU finding, the record says identity. Without --cpus
# nvd's worker runs on its own node, node 1 (CPU 1): remote exactly when
# its vector landed on CPU 0.
c=$(fact cpu nvd 1)
case $c in
0|1) ;;
*) check_fail "iommu-pt: nvd's vector lands on '$c', want CPU 0 or 1"; c=0 ;;
esac
vm_rc check | grep -qxE '0|3' || { check_fail "check on iommu-pt: exit $(vm_rc check), want 0 or 3"; vm_show check; }
check_json check "check on iommu-pt" '
	def on(k): [.findings[] | select(.kind == k)];
	(.setup.devices | length == 2) and all(.setup.devices[]; .iommu_type == "identity")
	and on("iommu_strict") == [] and on("iommu_lazy") == []
	and (on("irq_remote") | map(.device)) == (if $c == "0" then [$f.nvd.name] else [] end)' --arg c "$c"
# a worker on the CPU the vector lands on takes it locally; one on the
# other node is remote, and the finding names both nodes; where the vector
# is on nvd's own node, the way back is a worker there (--cpus 1)
vm_rc local | grep -qxE '0|3' || { check_fail "check --cpus $c: exit $(vm_rc local), want 0 or 3"; vm_show local; }
check_json local "check --cpus $c (nvd's interrupt CPU)" \
	'.setup.devices | length == 1' &&
	vm_jq local "check --cpus $c (nvd's interrupt CPU)" 'all(.findings[]; .kind != "irq_remote")'
[ "$(vm_rc remote)" = 3 ] || { check_fail "check --cpus $((1 - c)): exit $(vm_rc remote), want 3"; vm_show remote; }
check_json remote "check --cpus $((1 - c)) (the other node)" '
	[.findings[] | select(.kind == "irq_remote")]
	| length == 1 and .[0].device == $f.nvd.name and .[0].scope == "device"
		and .[0].now == "CPUs \($o) (node \($o)) take their interrupts on node \($c)"
		and (if $c == "1" then .[0].fix == "--cpus 1" else true end)' --arg c "$c" --arg o "$((1 - c))"

# ---- lazy (iommu.strict=0): DMA-FQ, the cheaper of the two translated
# domains, named iommu_lazy and not iommu_strict
VM_LAYOUT=iommu-lazy
guest lazy <<'GUEST'
keep cmdline cat /proc/cmdline
keep facts facts
step check iostorm check --json -
GUEST
vm_boot "$K" iommu-lazy <"$T_DIR/lazy.sh" || t_done
grep -qw 'iommu.strict=0' "$VM_OUT/cmdline" ||
	check_fail "iommu-lazy: the guest's command line lacks iommu.strict=0: $(cat "$VM_OUT/cmdline")"
expect_fact iommu nva DMA-FQ
[ "$(vm_rc check)" = 3 ] || { check_fail "check on iommu-lazy: exit $(vm_rc check), want 3"; vm_show check; }
check_json check "check on iommu-lazy" '
	def on(k): [.findings[] | select(.kind == k)];
	.setup.devices[0].iommu_type == "DMA-FQ" and on("iommu_strict") == []
	and (on("iommu_lazy") | length == 1 and .[0].device == $f.nva.name
		and (.[0].fix | test("iommu=pt")))'
t_done
