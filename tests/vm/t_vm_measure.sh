# check --measure on the real nvme driver (7.2 guest, no-poll.layout: two
# drives, one CPU): the measurement of nva is killed with -9 while its
# better scheduler is in place, with nr_requests and a tunable of
# mq-deadline's off their defaults in the journal; then both drives are
# pulled out of their slots (device_del: PCIe hot removal) and nvb alone
# is plugged back (device_add): it takes the lowest free instance, so the
# name nva was measured under is now nvb's. The next `check` must not put
# the journal's values onto nvb: it names the disk as not the one
# journaled (its /sys/devices path differs), writes nothing, and removes
# the journal, since the disk it names took its settings with it. No wall
# clock: every wait in the guest is for a fact, with a number of tries.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib.sh"
vm_need

# plug-b once more when the first came before QEMU had let the old
# controller go (its id is still taken then: device_add fails)
plug="device_add nvme,id=c_nvb,serial=nvb,drive=d_nvb,bus=rp_nvb,ioeventfd=on"
vm_boot 7.2 no-poll --on-mark pull-a "device_del c_nva" --on-mark pull-b "device_del c_nvb" \
	--on-mark plug-b "$plug" --on-mark plug-b-again "$plug" <<'GUEST' || t_done
mkdir -p /run
a=$(basename $(dev nva)) b=$(basename $(dev nvb))
echo "$a $b" >/results/names0
q=/sys/block/$a/queue
echo mq-deadline >$q/scheduler
echo 8 >$q/nr_requests
echo 200 >$q/iosched/read_expire
iostorm check --measure --rounds 1 --time 1 --ramp 0 --qd 1 /dev/$a \
	>/results/measure.out 2>/results/measure.err </dev/null &
pid=$!
i=0
while ! grep -q "$a scheduler none (better)" /results/measure.err && [ $i -lt 600 ]; do
	sleep 0.1
	i=$((i + 1))
done
kill -9 $pid
wait $pid
keep killed_sched cat $q/scheduler
cp /run/iostorm/settings.journal /results/journal
# off: no namespace is left and both slots are powered off (pciehp powers
# a slot off after removing its function, and QEMU lets the controller go
# when the slot's power indicator goes off too, a second later)
off() {
	[ "$(vm_ndrives)" -eq 0 ] || return 1
	for p in /sys/bus/pci/slots/*/power; do
		[ "$(cat $p)" = 0 ] || return 1
	done
}
# drive TRIES: waits until a namespace is there
drive() {
	i=0
	while [ "$(vm_ndrives)" -lt 1 ] && [ $i -lt $1 ]; do sleep 0.1; i=$((i + 1)); done
	[ "$(vm_ndrives)" -ge 1 ]
}
mark pull-a
sleep 0.5
mark pull-b
i=0
while ! off && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
sleep 1.5
mark plug-b
drive 150 || { mark plug-b-again; drive 150; }
rm -rf /dev/vm
vm_map_drives
basename $(dev nvb) >/results/names1
# what a wrongful recovery would change: the journaled disk's name, now nvb's
settings() { echo "$(cat $q/scheduler) nr_requests=$(cat $q/nr_requests) read_expire=$(cat $q/iosched/read_expire 2>/dev/null)"; }
settings >/results/before
step check iostorm check
settings >/results/after
keep journal_after sh -c '[ -e /run/iostorm/settings.journal ] && echo present || echo gone'
GUEST

read -r a b <"$VM_OUT/names0"
read -r b1 <"$VM_OUT/names1"
j=$VM_OUT/journal
grep -q "^iostorm check: 1/[0-9]* $a scheduler mq-deadline (now) at QD1$" "$VM_OUT/measure.err" ||
	{ check_fail "the measurement of $a did not run"; vm_show measure; }
grep -q "^\[none\]" "$VM_OUT/killed_sched" || check_fail "after kill -9, $a's scheduler is $(cat "$VM_OUT/killed_sched"), want none"
grep -Eq "^disk $a devices/pci[^ ]+/$a [0-9]+:[0-9]+ diskseq [0-9]+$" "$j" &&
	grep -qx "set $a scheduler mq-deadline" "$j" && grep -qx "also $a nr_requests 8" "$j" &&
	grep -qx "also $a iosched/read_expire 200" "$j" ||
	{ check_fail "the journal does not name $a with its old settings"; sed 's/^/    journal: /' "$j" >&2; }
# the re-plug renamed: nvb now has the name nva was measured under
[ "$b1" = "$a" ] || check_fail "the re-plug did not give nvb the name $a (before: nva $a, nvb $b; after: nvb $b1)"
rc=$(vm_rc check)
case $rc in 0 | 3) ;; *) check_fail "check after the re-plug: exit $rc, want 0 or 3"; vm_show check ;; esac
grep -q "^iostorm check: $a is not the disk the journal /run/iostorm/settings.journal names (its /sys/devices path: devices/[^ ]* then, devices/[^ ]* now): its 1 setting was not put back$" "$VM_OUT/check.err" ||
	{ check_fail "check did not name $a as another disk than the journal's"; vm_show check; }
! grep -q "put back [1-9]" "$VM_OUT/check.err" || { check_fail "check put settings back"; vm_show check; }
[ "$(cat "$VM_OUT/before")" = "$(cat "$VM_OUT/after")" ] ||
	check_fail "check wrote the journal's values onto nvb (now $a): $(cat "$VM_OUT/before") -> $(cat "$VM_OUT/after")"
! grep -Eq "nr_requests=8 |read_expire=200" "$VM_OUT/after" || check_fail "nvb holds nva's journaled values: $(cat "$VM_OUT/after")"
[ "$(cat "$VM_OUT/journal_after")" = gone ] || check_fail "the journal of a disk that is gone was kept"
t_done
