# iostorm check on live loop devices: each queue setting that costs IOPS
# is a finding naming the device, its fix command really changes it (the
# test runs every fix the JSON gives and checks the finding is gone), the
# setup record of check and run says what the queue is now, run prints the
# one line naming them, and a bad target is one line before anything.
. "$(dirname "$0")/lib.sh"
need_iostorm
need_cmd jq

fx=$(cd "$(dirname "$0")" && pwd)/fixtures

# check_fx ROOT ARGS...: iostorm check on a recorded machine (its sys and
# proc below ROOT), JSON in $T_DIR/fx.json
check_fx() {
	local r=$1
	shift
	IOSTORM_SYSFS_ROOT=$r/sys IOSTORM_PROCFS_ROOT=$r/proc run_iostorm check --json "$T_DIR/fx.json" "$@"
}
# kinds_of WHO: the kinds of $T_DIR/fx.json's findings about device WHO
# ("machine": the machine's), sorted
kinds_of() {
	jq -r --arg d "$1" '[.findings[] | select((.device // "machine") == $d) | .kind]
		| sort | join(" ")' "$T_DIR/fx.json"
}

# has_kind WHO KIND: a finding of KIND about WHO in $T_DIR/fx.json
has_kind() {
	case " $(kinds_of "$1") " in *" $2 "*) return 0 ;; esac
	return 1
}

# ---- a strict IOMMU, costly queue settings, APST, a slow link, powersave
check_fx "$fx/setup-strict"
[ "$T_RC" -eq 3 ] || { check_fail "strict fixture: exit $T_RC, want 3"; show_output; }
got=$(kinds_of nvme0n1)
# wbt (2000 us here) throttles only writes: a read-only run is not told
[ "$got" = "apst iommu_strict iostats link nomerges scheduler" ] ||
	check_fail "strict fixture: nvme0n1's findings '$got'"
got=$(kinds_of machine)
[ "$got" = "boost cstate governor mitigations" ] || check_fail "strict fixture: the machine's findings '$got'"
grep -q '^nvme0n1  *iommu_strict: DMA (strict); better: identity (passthrough)' "$T_OUT" ||
	{ check_fail "strict fixture: the text names no strict IOMMU"; show_output; }
grep -q 'fix: .*iommu=pt' "$T_OUT" || check_fail "strict fixture: no iommu=pt fix"
jq -e '.setup.devices[0] | .iommu_type == "DMA" and .link.speed_gts == 8 and .link.width == 2
	and .link.max_speed_gts == 16 and .link.max_width == 4 and .queue.scheduler == "mq-deadline"
	and .pci == "0000:01:00.0" and (has("serial") | not)' "$T_DIR/fx.json" >/dev/null ||
	check_fail "strict fixture: the setup record does not say the drive's settings"
jq -e '.setup.machine | .cpufreq.governor == "powersave" and .boost == false
	and .deepest_cstate.name == "C6" and .deepest_cstate.exit_latency_us == 133' \
	"$T_DIR/fx.json" >/dev/null || check_fail "strict fixture: the setup record does not say the machine's settings"
# a polled run on a drive without poll queues, on the same machine
check_fx "$fx/setup-strict" --completion poll
has_kind nvme0n1 no_poll_queues || check_fail "strict fixture, --completion poll: no no_poll_queues finding"

# ---- one IO queue, its interrupt on the other node, two workers
check_fx "$fx/setup-onequeue" --jobs-per-device 2
for k in few_queues irq_remote one_cpu_irqs apst; do
	has_kind nvme1n1 $k || check_fail "one-queue fixture: no $k finding in '$(kinds_of nvme1n1)'"
done
jq -e '.findings[] | select(.kind == "few_queues") | .now == "1 interrupt queue for 2 workers"' \
	"$T_DIR/fx.json" >/dev/null || check_fail "one-queue fixture: few_queues does not count its one queue"
jq -e '[.findings[] | select(.kind == "one_cpu_irqs" or .kind == "irq_remote") | .fix
	| test("smp_affinity") | not] | all' "$T_DIR/fx.json" >/dev/null ||
	check_fail "one-queue fixture: a fix moves an nvme vector, which the kernel refuses"
jq -e '.findings[] | select(.kind == "irq_remote") | .now | test("node 1")' "$T_DIR/fx.json" \
	>/dev/null || check_fail "one-queue fixture: irq_remote does not name node 1"
jq -e '.setup.devices[0] | .irq_queues == 1 and .hw_queues[0].irq_cpus == "2"
	and .iommu_type == "identity"' "$T_DIR/fx.json" >/dev/null ||
	check_fail "one-queue fixture: the setup record does not say where the interrupt lands"
# one worker: no queue is shared, the interrupt still lands off node
check_fx "$fx/setup-onequeue" --jobs-per-device 1
! has_kind nvme1n1 few_queues || check_fail "one-queue fixture, one worker: few_queues"
has_kind nvme1n1 irq_remote || check_fail "one-queue fixture, one worker: no irq_remote"

# ---- a link is judged against the lower of the drive's and its port's
# maxima (model/pcie.c): the strict fixture's drive (16 GT/s x4) trains at
# 8 GT/s x2 below a port of 32 GT/s x16, a slow link; below a port that
# can do no more than 8 GT/s x2 it is all the slot gives, and not named
lk=$T_DIR/lk
cp -a "$fx/setup-strict" "$lk" || fail "cannot copy the strict fixture"
p=$lk/sys/devices/pci0000:00/0000:00:01.0
check_fx "$lk"
jq -e '[.findings[] | select(.kind == "link")] | length == 1' "$T_DIR/fx.json" >/dev/null ||
	check_fail "link below both ends' maxima: not named"
echo "8.0 GT/s PCIe" >"$p/max_link_speed"
echo 2 >"$p/max_link_width"
check_fx "$lk"
! has_kind nvme0n1 link || check_fail "link at its port's maximum: named as slow"
echo "16.0 GT/s PCIe" >"$p/max_link_speed"
check_fx "$lk"
jq -e '[.findings[] | select(.kind == "link")][0].better | test("16 GT/s x2")' "$T_DIR/fx.json" >/dev/null ||
	check_fail "link under a x2 port of 16 GT/s: better is not 16 GT/s x2: $(jq -c '[.findings[] | select(.kind == "link")]' "$T_DIR/fx.json")"

# ---- the strict machine with every setting put right: nothing, exit 0
clean=$T_DIR/clean
cp -a "$fx/setup-strict" "$clean" || fail "cannot copy the strict fixture"
c=$clean/sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0
echo identity >"$clean/sys/kernel/iommu_groups/3/type"
echo "[none] mq-deadline" >"$c/nvme/nvme0/nvme0n1/queue/scheduler"
echo 0 >"$c/nvme/nvme0/nvme0n1/queue/iostats"
echo 2 >"$c/nvme/nvme0/nvme0n1/queue/nomerges"
echo 0 >"$c/nvme/nvme0/nvme0n1/queue/wbt_lat_usec"
cat "$c/max_link_speed" >"$c/current_link_speed"
cat "$c/max_link_width" >"$c/current_link_width"
find "$clean/sys" -name pm_qos_latency_tolerance_us -exec sh -c 'echo 0 >"$1"' _ {} \;
echo 0 >"$clean/sys/module/nvme_core/parameters/default_ps_max_latency_us"
for g in "$clean"/sys/devices/system/cpu/cpu*/cpufreq/scaling_governor; do echo performance >"$g"; done
echo 1 >"$clean/sys/devices/system/cpu/cpufreq/boost"
for st in "$clean"/sys/devices/system/cpu/cpu0/cpuidle/state*; do
	[ "$(cat "$st/latency")" -le 10 ] || echo 1 >"$st/disable"
done
for v in "$clean"/sys/devices/system/cpu/vulnerabilities/*; do echo "Not affected" >"$v"; done
check_fx "$clean"
[ "$T_RC" -eq 0 ] || { check_fail "clean fixture: exit $T_RC, want 0"; show_output; }
jq -e '.findings == []' "$T_DIR/fx.json" >/dev/null || check_fail "clean fixture: findings: $(kinds_of nvme0n1) $(kinds_of machine)"
grep -q '^no setting found that costs IOPS' "$T_OUT" || check_fail "clean fixture: the text does not say nothing was found"

# ---- a datacenter arm64 server (tests/fixtures/check-dc): a controller
# without APST, nvme built in, iostats_passthrough on, io_uring_disabled=1,
# only the mitigation mitigations=off leaves
dc=$fx/check-dc
# set_of KIND: the fix's values of $T_DIR/fx.json's finding of KIND, "act key value builtin"
set_of() {
	jq -r --arg k "$1" '.findings[] | select(.kind == $k) | .set
		| "\(.act) \(.key) \(.value) \(.builtin)"' "$T_DIR/fx.json"
}
check_fx "$dc"
[ "$T_RC" -eq 3 ] || { check_fail "dc fixture: exit $T_RC, want 3"; show_output; }
! has_kind nvme0n1 apst ||
	check_fail "dc fixture: apst on a controller without APST (no pm_qos_latency_tolerance_us)"
has_kind nvme0n1 iostats || check_fail "dc fixture: no iostats finding for block IO"
! has_kind nvme0n1 iostats_passthrough || check_fail "dc fixture: iostats_passthrough for block IO"
[ "$(set_of iommu_strict)" = "cmdline iommu.passthrough 1 false" ] ||
	check_fail "dc fixture (arm64): iommu fix '$(set_of iommu_strict)', want iommu.passthrough=1"
! grep -q 'iommu=pt' "$T_OUT" || check_fail "dc fixture (arm64): iommu=pt, which is x86's alone"
! has_kind machine mitigations ||
	check_fail "dc fixture: a mitigations finding mitigations=off cannot clear (spectre_v1 on arm64)"
# io_uring_disabled=1 lets root create rings
! has_kind machine io_uring_disabled || check_fail "dc fixture: io_uring_disabled=1 named for root"
# a passthrough run: iostats_passthrough, not iostats; polled, the module
# built in takes poll_queues from the kernel command line
check_fx "$dc" --engine io_uring_cmd --completion poll
has_kind nvme0n1 iostats_passthrough || check_fail "dc fixture, passthrough: no iostats_passthrough"
! has_kind nvme0n1 iostats || check_fail "dc fixture, passthrough: iostats, which passthrough IO skips"
[ "$(set_of iostats_passthrough)" = "sysfs block/nvme0n1/queue/iostats_passthrough 0 false" ] ||
	check_fail "dc fixture, passthrough: iostats_passthrough's fix '$(set_of iostats_passthrough)'"
[ "$(set_of no_poll_queues)" = "module poll_queues 1 true" ] ||
	check_fail "dc fixture, built-in nvme: no_poll_queues fix '$(set_of no_poll_queues)'"
jq -e '.findings[] | select(.kind == "no_poll_queues") | .fix | test("nvme.poll_queues=1")
	and (test("modprobe") | not)' "$T_DIR/fx.json" >/dev/null ||
	check_fail "dc fixture, built-in nvme: the fix does not put nvme.poll_queues on the command line"
! has_kind machine kernel || check_fail "dc fixture: 6.14 has polled passthrough"
# the settings a record-setter checks: ASPM on the drive's link, an io.max
# on the disk in an ancestor of our cgroup, NUMA balancing; SELinux only
# for passthrough; no debug option in its /boot/config
[ "$(set_of aspm)" = "sysfs bus/pci/devices/0000:01:00.0/link/l1_aspm 0 false" ] ||
	check_fail "dc fixture: aspm fix '$(set_of aspm)'"
[ "$(set_of blk_cgroup)" = "sysfs fs/cgroup/system.slice/io.max 259:0 riops=max rbps=max false" ] ||
	check_fail "dc fixture: blk_cgroup fix '$(set_of blk_cgroup)'"
jq -e '.findings[] | select(.kind == "blk_cgroup") | .now | test("riops=20000")' "$T_DIR/fx.json" \
	>/dev/null || check_fail "dc fixture: blk_cgroup does not name the ancestor's riops=20000"
[ "$(set_of numa_balancing)" = "sysctl kernel.numa_balancing 0 false" ] ||
	check_fail "dc fixture: numa_balancing fix '$(set_of numa_balancing)'"
has_kind machine selinux || check_fail "dc fixture, passthrough: no selinux finding"
# rq_affinity 2 with a queue per CPU: the interrupt is the submitter's
! has_kind nvme0n1 rq_affinity || check_fail "dc fixture: rq_affinity with a queue per CPU"
! has_kind machine debug_kernel || check_fail "dc fixture: a debug_kernel finding for DEBUG_PAGEALLOC off"
jq -e '.setup.machine.kernel_config | .hz == 250 and .kasan == false and .debug_pagealloc == false
	and .blk_cgroup == true and .blk_throttling == true' "$T_DIR/fx.json" >/dev/null ||
	check_fail "dc fixture: the setup record does not say the kernel's build options"
check_fx "$dc"
! has_kind machine selinux || check_fail "dc fixture, block IO: selinux named"
! has_kind nvme0n1 read_ahead || check_fail "dc fixture, direct IO: read_ahead named"
check_fx "$dc" --buffered
[ "$(set_of read_ahead)" = "sysfs block/nvme0n1/queue/read_ahead_kb 0 false" ] ||
	check_fail "dc fixture, --buffered: read_ahead fix '$(set_of read_ahead)'"
dcv=$T_DIR/dc
cp -a "$dc" "$dcv" || fail "cannot copy the dc fixture"
# a debug kernel: KASAN in its config
sed -i 's/^# CONFIG_KASAN is not set/CONFIG_KASAN=y/' "$dcv/boot/config-6.14.0-3-arm64"
check_fx "$dcv"
jq -e '.findings[] | select(.kind == "debug_kernel") | .now == "KASAN (6.14.0-3-arm64, HZ=250)"' \
	"$T_DIR/fx.json" >/dev/null || check_fail "dc fixture, KASAN: no debug_kernel finding"
# a kernel whose config is only in /proc/config.gz (CONFIG_IKCONFIG_PROC),
# compressed, with no /boot/config-RELEASE
gzip -c "$dcv/boot/config-6.14.0-3-arm64" >"$dcv/proc/config.gz" || fail "cannot gzip the config"
mv "$dcv/boot/config-6.14.0-3-arm64" "$T_DIR/config.boot"
check_fx "$dcv"
jq -e '.findings[] | select(.kind == "debug_kernel") | .now == "KASAN (6.14.0-3-arm64, HZ=250)"' \
	"$T_DIR/fx.json" >/dev/null || check_fail "dc fixture, KASAN in /proc/config.gz: no debug_kernel finding"
mv "$T_DIR/config.boot" "$dcv/boot/config-6.14.0-3-arm64"
rm "$dcv/proc/config.gz"
# io.latency, no io.max: a target on iostorm's own cgroup is named with
# the write that removes it (target=max, blk-iolatency's "no target")
cgd=$dcv/sys/fs/cgroup/system.slice
mv "$cgd/io.max" "$T_DIR/io.max.slice"
echo '259:0 target=500' >"$cgd/iostorm.service/io.latency"
check_fx "$dcv"
[ "$(set_of blk_cgroup)" = "sysfs fs/cgroup/system.slice/iostorm.service/io.latency 259:0 target=max false" ] ||
	check_fail "dc fixture, io.latency: blk_cgroup fix '$(set_of blk_cgroup)'"
jq -e '.findings[] | select(.kind == "blk_cgroup") | .now == "io.latency target=500 us in cgroup /system.slice/iostorm.service"' \
	"$T_DIR/fx.json" >/dev/null || check_fail "dc fixture, io.latency: $(jq -c '[.findings[] | select(.kind == "blk_cgroup") | .now]' "$T_DIR/fx.json")"
rm "$cgd/iostorm.service/io.latency"
mv "$T_DIR/io.max.slice" "$cgd/io.max"
dq=$dcv/sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/nvme/nvme0
# iostats_passthrough 0, or a kernel without it: passthrough IO is not counted
echo 0 >"$dq/nvme0n1/queue/iostats_passthrough"
check_fx "$dcv" --engine io_uring_cmd
! has_kind nvme0n1 iostats_passthrough && ! has_kind nvme0n1 iostats ||
	check_fail "dc fixture, iostats_passthrough 0: '$(kinds_of nvme0n1)'"
rm "$dq/nvme0n1/queue/iostats_passthrough"
echo 5.15.0-dc >"$dcv/proc/sys/kernel/osrelease"
# the kernel rule's passthrough branch: polled passthrough needs 6.1
check_fx "$dcv" --engine io_uring_cmd --completion poll
! has_kind nvme0n1 iostats || check_fail "dc fixture, 5.15 passthrough: iostats named"
has_kind machine kernel || check_fail "dc fixture, 5.15: no kernel finding for polled passthrough"
check_fx "$dcv" --completion poll
! has_kind machine kernel || check_fail "dc fixture, 5.15: kernel finding for a polled block run"
# a controller with APST, no limit: named by check
echo auto >"$dq/power/pm_qos_latency_tolerance_us"
check_fx "$dcv"
has_kind nvme0n1 apst || check_fail "dc fixture, APST with no limit: no apst finding"
# the mitigations off removes count, x86's spectre_v1 among them
echo "Mitigation: usercopy/swapgs barriers and __user pointer sanitization" \
	>"$dcv/sys/devices/system/cpu/vulnerabilities/spectre_v1"
check_fx "$dcv"
has_kind machine mitigations || check_fail "dc fixture, x86 spectre_v1: no mitigations finding"
# a user outside kernel.io_uring_group cannot create rings at 1 (as
# nobody, which only root can become, from a copy of iostorm nobody can
# run: the clone may be under /root)
if [ "$(id -u)" = 0 ] && nobody_iostorm; then
chmod -R a+rX "$dcv" || fail "cannot open the dc copy to nobody"
as_nobody env IOSTORM_SYSFS_ROOT="$dcv/sys" IOSTORM_PROCFS_ROOT="$dcv/proc" \
	"$T_NOBODY_IOSTORM" check --json - >"$T_DIR/user.json" 2>"$T_ERR"
T_RC=$?
[ "$T_RC" -eq 0 ] || [ "$T_RC" -eq 3 ] ||
	{ check_fail "dc fixture as nobody: exit $T_RC"; show_output; }
jq -e '[.findings[].kind] | index("io_uring_disabled")' "$T_DIR/user.json" >/dev/null ||
	check_fail "dc fixture as nobody: io_uring_disabled=1 not named for a user"
# ... unless kernel.io_uring_group is one of theirs
echo 65534 >"$dcv/proc/sys/kernel/io_uring_group"
as_nobody env IOSTORM_SYSFS_ROOT="$dcv/sys" IOSTORM_PROCFS_ROOT="$dcv/proc" \
	"$T_NOBODY_IOSTORM" check --json - >"$T_DIR/user.json" 2>"$T_ERR"
! jq -e '[.findings[].kind] | index("io_uring_disabled")' "$T_DIR/user.json" >/dev/null ||
	check_fail "dc fixture as a member of io_uring_group: io_uring_disabled named"
fi

# ---- live, on a loop device (root)
make_loop loop 16
name=${loop#/dev/}
q=/sys/block/$name/queue
for s in scheduler iostats nomerges wbt_lat_usec; do
	[ -w "$q/$s" ] || skip "no writable $q/$s on this kernel"
done
grep -qw mq-deadline "$q/scheduler" || skip "no mq-deadline scheduler for $loop"
# every setting is put back by the EXIT trap, as found
sched=$(sched_of "$q")
T_SYSFS+=("$q/scheduler $sched" "$q/iostats $(cat "$q/iostats")"
	"$q/nomerges $(cat "$q/nomerges")" "$q/wbt_lat_usec $(cat "$q/wbt_lat_usec")")

# the costly settings, all at once
echo mq-deadline >"$q/scheduler" && echo 1 >"$q/iostats" && echo 0 >"$q/nomerges" &&
	echo 2000 >"$q/wbt_lat_usec" || fail "cannot set $loop's queue settings"

# kinds KIND...: the check report $1 has a finding of each kind for the loop device
dev_kinds() {
	jq -r --arg d "$name" '[.findings[] | select(.device == $d) | .kind] | sort | join(" ")' "$1"
}

run_iostorm check --json "$T_DIR/bad.json" "$loop"
[ "$T_RC" -eq 3 ] || { check_fail "check on costly settings: exit $T_RC, want 3"; show_output; }
got=$(dev_kinds "$T_DIR/bad.json")
[ "$got" = "iostats nomerges scheduler" ] ||
	check_fail "check on costly settings: device findings '$got', want 'iostats nomerges scheduler'"
# iostats' figure was measured on NVMe: no cost quoted for a loop device
jq -e '.findings[] | select(.kind == "iostats") | .cost == null' "$T_DIR/bad.json" >/dev/null ||
	check_fail "the loop device's iostats quotes an NVMe cost"
grep -q "^$name  *iostats: 1; better: 0" "$T_OUT" ||
	{ check_fail "the text names no iostats finding for $name"; show_output; }
jq -e --arg d "$name" '
	.setup.devices[0] | .name == $d and .queue.scheduler == "mq-deadline"
	and .queue.iostats == true and .queue.nomerges == 0 and .queue.wbt_lat_usec == 2000
	and .nvme == false and (.hw_queues | length) >= 1' "$T_DIR/bad.json" >/dev/null ||
	check_fail "check's setup record does not say the queue's settings as set"
jq -e --arg k "$(uname -r)" '.setup.machine.kernel == $k' "$T_DIR/bad.json" >/dev/null ||
	check_fail "the setup record names another kernel than $(uname -r)"
# every finding says where its cost comes from, or that none is published
jq -e '[.findings[] | (.cost == null) == (.cost_source == null)] | all' "$T_DIR/bad.json" \
	>/dev/null || check_fail "a finding with a cost and no source, or a source and no cost"

# run prints one line naming them before its table, and its report's
# setup record says the same
run_iostorm run -q --time 200ms --ramp 0 --json "$T_DIR/run.json" "$loop"
[ "$T_RC" -eq 0 ] || { check_fail "run: exit $T_RC"; show_output; }
line=$(grep -c 'cost IOPS on this target' "$T_ERR")
[ "$line" = 0 ] || check_fail "run -q printed the settings line"
run_iostorm run --time 200ms --ramp 0 --json "$T_DIR/run.json" "$loop"
line=$(grep 'settings cost IOPS on this target' "$T_ERR")
for k in iostats scheduler merges; do
	case $line in
	*"$k"*": iostorm check") ;;
	*) check_fail "run's settings line does not name $k: '$line'"; show_output ;;
	esac
done
[ "$(grep -c 'cost IOPS' "$T_ERR")" = 1 ] || check_fail "run printed the settings line more than once"
jq -e --arg d "$name" '.setup.devices[0].name == $d and .setup.devices[0].queue.iostats == true' \
	"$T_DIR/run.json" >/dev/null || check_fail "run's report has no setup record of $loop"

# saturate says it once too, before its first step, and not with -q
run_iostorm saturate --time 200ms --ramp 0 --qd 2 --json "$T_DIR/sat.json" "$loop"
[ "$(grep -c 'settings cost IOPS on this target' "$T_ERR")" = 1 ] ||
	{ check_fail "saturate did not say the settings line once"; show_output; }
# its ceiling section knows them, as check names them
want=$(jq -c '[.findings[].kind] | unique' "$T_DIR/bad.json")
got=$(jq -c '.ceiling.settings // [] | sort' "$T_DIR/sat.json")
[ "$got" = "$want" ] || check_fail "saturate's ceiling.settings $got, check found $want"
run_iostorm saturate -q --time 200ms --ramp 0 --qd 2 "$loop"
[ "$(grep -c 'cost IOPS' "$T_ERR")" = 0 ] || check_fail "saturate -q printed the settings line"

# the fixes, as given, make the findings go
jq -r --arg d "$name" '.findings[] | select(.device == $d) | .fix' "$T_DIR/bad.json" >"$T_DIR/fixes"
while read -r fix; do
	case $fix in
	"echo "*" > /sys/block/$name/queue/"*) sh -c "$fix" || check_fail "the fix failed: $fix" ;;
	*) check_fail "a fix that is not one echo into $name's queue: $fix" ;;
	esac
done <"$T_DIR/fixes"
run_iostorm check --json "$T_DIR/good.json" "$loop"
got=$(dev_kinds "$T_DIR/good.json")
[ -z "$got" ] || check_fail "after the fixes, still device findings: $got"
if jq -e '.findings | length == 0' "$T_DIR/good.json" >/dev/null; then
	[ "$T_RC" -eq 0 ] || check_fail "no finding, exit $T_RC, want 0"
else
	[ "$T_RC" -eq 3 ] || check_fail "machine findings left, exit $T_RC, want 3"
fi

# with nothing left to try, --measure says so and changes nothing
IOSTORM_JOURNAL=$T_DIR/settings.journal run_iostorm check --measure --time 100ms "$loop"
grep -q 'nothing to measure' "$T_ERR" || { check_fail "--measure on put-right settings did not say it has nothing to measure"; show_output; }
[ ! -e "$T_DIR/settings.journal" ] || check_fail "--measure with nothing to measure left a journal"

# bad input: one line, before anything
expect_error "a missing target" 1 "no-such-file" check "$T_DIR/no-such-file"
expect_error "a directory" 1 "not a block device" check "$T_DIR"
expect_error "--rounds 0" 2 "rounds" check --rounds 0 "$loop"
t_done
