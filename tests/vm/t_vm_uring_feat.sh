# The newer io_uring waits on the 6.12 guest (bookworm-security's kernel),
# on the real nvme driver: it has the minimum wait (IORING_FEAT_MIN_TIMEOUT,
# 6.12) but not waits outside iowait (IORING_FEAT_NO_IOWAIT, 6.15) nor
# registered wait regions (6.13), and the setup record says so. --reap-wait
# runs there (fewer IOs per waiting call than --reap alone); --no-iowait
# runs as without it, the record saying the kernel lacks it.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib.sh"
vm_need

vm_boot 6.12 drive <<'GUEST' || t_done
q="-q --time 2 --ramp 0.5 --qd 16 --batch 16 --reap 16 --json -"
keep uname uname -r
step plain iostorm run $q $(dev nvb)
step bound iostorm run $q --reap-wait 1us --no-iowait $(dev nvb)
GUEST

grep -q '^6\.12\.' "$VM_OUT/uname" || check_fail "the guest runs $(cat "$VM_OUT/uname"), not 6.12"
feat='.setup.machine.io_uring == {"no_iowait": false, "min_wait": true, "reg_wait": false}'
vm_expect_ok plain "--reap 16 on 6.12" &&
	vm_jq plain "6.12's io_uring waits in the setup record" "$feat and .config.reap_wait_us == null
		and .config.no_iowait == false and .total.ios > 0 and .total.errors == 0"
vm_expect_ok bound "--reap-wait 1us --no-iowait on 6.12" &&
	vm_jq bound "--reap-wait on 6.12" "$feat and .config.reap_wait_us == 1
		and .config.no_iowait == true and .total.ios > 0 and .total.errors == 0"
# the bound is used: some waits end before 16 completions have come.
# Only some: QEMU's emulated controller posts a doorbell's commands'
# completions together, mostly within the bound (5us gave 15.2 IOs per
# call against 16), unlike a loop device's one at a time (t_uring_waits)
if [ "$(vm_rc plain)" = 0 ] && [ "$(vm_rc bound)" = 0 ]; then
	a=$(jq '.total.ios_per_call' "$VM_OUT/plain.out")
	b=$(jq '.total.ios_per_call' "$VM_OUT/bound.out")
	awk -v a="$a" -v b="$b" 'BEGIN { exit !(b < a) }' ||
		check_fail "--reap-wait 1us: $b IOs per call, --reap 16 alone $a: the bound was not used"
fi
t_done
