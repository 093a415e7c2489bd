# Faults on the real nvme driver (7.2 guest, faults.layout): one drive
# fails every read with a media error (QEMU's blkdebug), another is pulled
# out of its slot mid-run (device_del of its controller: PCIe hot removal).
# The run must end on time, keep the healthy drives' figures, count the
# failures where they happened, name the media error and exit 1 after the
# full report. No check is on a wall clock: the drive is pulled once it has
# done reads (the run is going; pciehp's own 5 s delay puts the removal
# well past the 0.5 s ramp), and "on time" is the report's window against
# --time; a hang is caught by the rig's own timeout. The nvme driver turns
# QEMU's unrecovered read error into a
# "critical medium error", which reaches user space as ENODATA (the block
# layer's BLK_STS_MEDIUM), not EIO; a removed drive's reads then return 0
# bytes (its capacity is 0), counted as short reads.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib.sh"
vm_need

vm_boot 7.2 faults --on-mark pull "device_del c_nvh" <<'GUEST' || t_done
for d in nva nvb nvx nvh; do basename $(dev $d); done >/results/names
# reads completed on drive NAME so far
reads() { read -r r _ <"/sys/block/$(basename $(dev $1))/stat"; echo "$r"; }
r0=$(reads nvh)
iostorm run -q --time 12 --ramp 0.5 --qd 8 --json /results/run.json \
	$(dev nva) $(dev nvb) $(dev nvx) $(dev nvh) >/results/run.out 2>/results/run.err &
pid=$!
i=0
while [ "$(reads nvh)" -lt $((r0 + 1000)) ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
mark pull
# pciehp waits 5 s after the attention button before it removes a device
i=0
while [ -e /sys/block/$(basename $(dev nvh)) ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
keep gone sh -c "[ -e /sys/block/$(basename $(dev nvh)) ] && echo present || echo gone"
wait $pid
echo $? >/results/run.rc
# saturate with the failing drive: named in its first step, left out of
# the later ones and of the sums, first in the verdict
iostorm saturate -q --time 1 --ramp 0 --qd 8 --json /results/sat.json \
	$(dev nva) $(dev nvb) $(dev nvx) >/results/sat.out 2>/results/sat.err
echo $? >/results/sat.rc
GUEST

set -- $(cat "$VM_OUT/names")
[ "$(cat "$VM_OUT/gone")" = gone ] || check_fail "the pulled drive is still there: the hot removal did not happen"
rc=$(vm_rc run)
[ "$rc" = 1 ] || { check_fail "run with a failing and a pulled drive: exit $rc, want 1"; vm_show run; }
j=$VM_OUT/run.json
# on time: the measured window is the run's --time 12, not cut short or
# stretched by a failing or a vanished drive (a worker may see the start a
# little after the runner does)
jq -e '.interrupted == false and .elapsed_s > 11.9 and .elapsed_s < 13' "$j" >/dev/null 2>&1 ||
	{ check_fail "the 12 s run's window is not its --time"; jq -c '{interrupted, elapsed_s}' "$j" >&2; }
jq -e --arg a "$1" --arg b "$2" --arg x "$3" --arg h "$4" '
	def dev(n): first(.devices[] | select(.name == n));
	(.devices | length == 4)
	and (dev($a) | .ios > 0 and .errors == 0)
	and (dev($b) | .ios > 0 and .errors == 0)
	and (dev($x) | .ios == 0 and .errors > 0 and .lat_ns == null
		and .first_error.name == "ENODATA" and .most_common_error.name == "ENODATA")
	and (dev($h) | .ios > 0 and .errors > 0 and .first_error.at_s > 0)
	and (dev($a) | .first_error == null)
	and .total.ios == ([.devices[].ios] | add)
' "$j" >/dev/null 2>&1 || { check_fail "the report lost or mixed up the drives' figures"; cat "$j" >&2; }
rc=$(vm_rc sat)
[ "$rc" = 1 ] || { check_fail "saturate with a failing drive: exit $rc, want 1"; vm_show sat; }
jq -e --arg a "$1" --arg b "$2" --arg x "$3" '
	def dev(n): first(.devices[] | select(.name == n));
	(dev($x) | .failed == "\(.qd1.solo.errors) ENODATA errors in step alone QD1"
		and .qdn.solo == null and .qdn.all == null)
	and (dev($a) | .failed == null and .qdn.all.ios > 0)
	and .system.devices == [$a, $b]
	and .findings[0].kind == "failed_device" and .findings[0].device == $x
	and .verdict.kind == "failed_device"
' "$VM_OUT/sat.json" >/dev/null 2>&1 ||
	{ check_fail "saturate did not leave the failing drive out and name it first"; vm_show sat; }
t_done
