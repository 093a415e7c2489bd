# iostorm check on recorded trees of older and stranger servers (issue 42,
# items 1-5): a cgroup v1 host's blkio.throttle, kmemleak built in but off,
# a multipath head on 6.1, one NUMA node with balancing on, a loop device
# (--quiet-advice: t_check_advice.sh). Each tree gives its finding (or none), and a change
# to it that must make one makes one, so no tree passes by saying nothing.
. "$(dirname "$0")/lib.sh"
need_iostorm
need_cmd jq

fx=$(cd "$(dirname "$0")" && pwd)/fixtures

# check_fx ROOT ARGS...: iostorm check on a recorded machine, JSON in
# $T_DIR/fx.json
check_fx() {
	local r=$1
	shift
	IOSTORM_SYSFS_ROOT=$r/sys IOSTORM_PROCFS_ROOT=$r/proc run_iostorm check --json "$T_DIR/fx.json" "$@"
}
# kinds_of WHO: the kinds of the findings about WHO ("machine"), sorted
kinds_of() {
	jq -r --arg d "$1" '[.findings[] | select((.device // "machine") == $d) | .kind]
		| sort | join(" ")' "$T_DIR/fx.json"
}
# finding KIND FILTER: the JQ FILTER holds for the one finding of KIND
finding() {
	jq -e --arg k "$1" "[.findings[] | select(.kind == \$k)] | length == 1 and (.[0] | $2)" \
		"$T_DIR/fx.json" >/dev/null
}
# copy NAME: a copy of fixture setup-NAME in $T_DIR/NAME, printed
copy() {
	cp -a "$fx/setup-$1" "$T_DIR/$1" || fail "cannot copy setup-$1"
	echo "$T_DIR/$1"
}

# ---- 1. cgroup v1 (a hybrid host: blkio on v1 beside a 0:: line). The
# own cgroup's read_iops_device binds; the parent's lower one does not
# (v1's blk-throttle is flat: throtl_pd_init)
check_fx "$fx/setup-cgv1"
[ "$T_RC" -eq 3 ] || { check_fail "cgv1: exit $T_RC, want 3"; show_output; }
[ "$(kinds_of nvme0n1) / $(kinds_of machine)" = "blk_cgroup / " ] ||
	check_fail "cgv1: findings '$(kinds_of nvme0n1) / $(kinds_of machine)'"
finding blk_cgroup '.form == "blkio.throttle"
	and (.values | from_entries | .riops == 20000 and .rbps == -1
	     and .cgroup == "/system.slice/iostorm.service" and .devt == "259:0")
	and .set.key == "fs/cgroup/blkio/system.slice/iostorm.service/blkio.throttle.read_iops_device"
	and .set.value == "259:0 0"' ||
	check_fail "cgv1: blk_cgroup $(jq -c '.findings' "$T_DIR/fx.json")"
grep -q "^nvme0n1 *blk_cgroup: blkio.throttle read_iops_device=20000 in cgroup v1 /system.slice/iostorm.service" "$T_OUT" ||
	{ check_fail "cgv1: the text does not name the v1 limit"; show_output; }
# a v1-only host (no 0:: line), a bps limit alone, in the root cgroup
v1=$(copy cgv1)
grep -v '^0::' "$v1/proc/self/cgroup" | sed 's|:/system.slice/iostorm.service$|:/|' >"$T_DIR/cg" &&
	cp "$T_DIR/cg" "$v1/proc/self/cgroup"
printf '259:0 104857600\n' >"$v1/sys/fs/cgroup/blkio/blkio.throttle.read_bps_device"
check_fx "$v1"
finding blk_cgroup '.form == "blkio.throttle" and (.values | from_entries | .rbps == 104857600
	and .riops == -1 and .cgroup == "/")
	and .set.key == "fs/cgroup/blkio/blkio.throttle.read_bps_device"' ||
	check_fail "cgv1, v1 only, bps in the root: $(jq -c '.findings' "$T_DIR/fx.json")"
# the limit removed (a 0 shows no line): nothing
: >"$v1/sys/fs/cgroup/blkio/blkio.throttle.read_bps_device"
check_fx "$v1"
[ "$T_RC" -eq 0 ] || check_fail "cgv1, no limit left: exit $T_RC ($(kinds_of nvme0n1))"
# blkio on v2 (no blkio line): v1's files are not read
v2=$(copy cgv1)
echo "0::/system.slice/iostorm.service" >"$v2/proc/self/cgroup"
check_fx "$v2"
[ "$T_RC" -eq 0 ] || check_fail "cgv1 tree read as v2: exit $T_RC ($(kinds_of nvme0n1))"

# ---- 2. kmemleak built in, off by default (DEFAULT_OFF, no kmemleak=on)
check_fx "$fx/setup-kmemleak-off"
[ "$T_RC" -eq 0 ] || check_fail "kmemleak-off: exit $T_RC ($(kinds_of machine))"
jq -e '.setup.machine.kernel_config.kmemleak == true' "$T_DIR/fx.json" >/dev/null ||
	check_fail "kmemleak-off: the setup record does not say kmemleak is built in"
km=$(copy kmemleak-off)
cmdline=$(cat "$km/proc/cmdline")
echo "$cmdline kmemleak=on" >"$km/proc/cmdline"
check_fx "$km"
finding debug_kernel '.now == "kmemleak (6.14.0-3-arm64, HZ=250)"' ||
	check_fail "kmemleak=on: $(jq -c '.findings' "$T_DIR/fx.json")"
# on at boot, but debugfs is mounted and has no kmemleak file: off
mkdir -p "$km/sys/kernel/debug/block" || fail "mkdir"
check_fx "$km"
[ "$T_RC" -eq 0 ] || check_fail "kmemleak=on, no debugfs file: exit $T_RC ($(kinds_of machine))"
: >"$km/sys/kernel/debug/kmemleak"
check_fx "$km"
finding debug_kernel '.now | test("kmemleak")' || check_fail "kmemleak=on, debugfs file: not named"
# kmemleak=off wins over kmemleak=on (kmemleak_disable is for good);
# lockdep alone is named without kmemleak
echo "$cmdline kmemleak=on kmemleak=off" >"$km/proc/cmdline"
echo "CONFIG_PROVE_LOCKING=y" >>"$km/boot/config-6.14.0-3-arm64"
check_fx "$km"
finding debug_kernel '.now == "lockdep (6.14.0-3-arm64, HZ=250)"
	and (.values | from_entries | .kmemleak == 0 and .lockdep == 1)' ||
	check_fail "lockdep on, kmemleak off: $(jq -c '.findings' "$T_DIR/fx.json")"

# ---- 3. a multipath head on 6.1: the head shows nr_requests 128, its
# paths 1023; at QD 512 nothing, and never a write to the head's queue
check_fx "$fx/setup-mpath-61" --qd 512
[ "$T_RC" -eq 0 ] || check_fail "mpath-61 at QD 512: exit $T_RC ($(kinds_of nvme0n1))"
jq -e '.setup.devices[0].queue.nr_requests == 128' "$T_DIR/fx.json" >/dev/null ||
	check_fail "mpath-61: the setup record does not give the head's nr_requests"
mp=$(copy mpath-61)
echo 64 >"$mp/sys/devices/pci0000:40/0000:40:00.0/0000:41:00.0/nvme/nvme1/nvme0c1n1/queue/nr_requests"
check_fx "$mp" --qd 512
[ "$(kinds_of nvme0n1)" = "path_nr_requests" ] || check_fail "mpath-61, a path at 64: '$(kinds_of nvme0n1)'"
finding path_nr_requests '.set.key == "block/nvme0c1n1/queue/nr_requests" and .set.value == "512"' ||
	check_fail "mpath-61, a path at 64: $(jq -c '.findings' "$T_DIR/fx.json")"
! grep -q 'nvme0n1/queue/nr_requests' "$T_OUT" || check_fail "mpath-61: a fix writes the head's nr_requests"

# ---- 4. one NUMA node, numa_balancing 1: no finding (docs/check.md
# #numa_balancing measures it); the same with two nodes is named
check_fx "$fx/setup-numa1"
[ "$T_RC" -eq 0 ] || check_fail "numa1: exit $T_RC ($(kinds_of machine))"
n2=$(copy numa1)
mkdir -p "$n2/sys/devices/system/node/node1" && echo 2-3 >"$n2/sys/devices/system/node/node1/cpulist" &&
	echo 0-1 >"$n2/sys/devices/system/node/node0/cpulist"
check_fx "$n2"
[ "$(kinds_of machine)" = "numa_balancing" ] || check_fail "numa1 with a second node: '$(kinds_of machine)'"

# ---- 5. a loop device: iostats is named without the NVMe figure, and
# wbt (2000 us) is not named for a read-only run
: >"$T_DIR/loop0"
check_fx "$fx/setup-loop" "$T_DIR/loop0"
[ "$(kinds_of loop0)" = "iostats" ] || check_fail "loop: findings '$(kinds_of loop0)'"
finding iostats '.cost == null and .cost_source == null' ||
	check_fail "loop: iostats quotes a cost: $(jq -c '.findings' "$T_DIR/fx.json")"
! grep -q 'costs:' "$T_OUT" || { check_fail "loop: the text quotes a cost"; show_output; }
# the same iostats on an NVMe namespace keeps its figure
nv=$(copy cgv1)
echo 1 >"$nv/sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/nvme/nvme0/nvme0n1/queue/iostats"
check_fx "$nv"
finding iostats '.cost | test("122M")' || check_fail "nvme: iostats lost its cost"

t_done
