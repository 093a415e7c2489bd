# --engine auto where io_uring is disabled (7.2 guest, sysctl
# kernel.io_uring_disabled=2): iostorm falls back to libaio, says so, and
# completes IOs on the real nvme driver; --engine io_uring there is refused.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib.sh"
vm_need

vm_boot 7.2 two-node <<'GUEST' || t_done
q="-q --time 2 --ramp 0.5 --qd 8 --json -"
keep sysctl sysctl -w kernel.io_uring_disabled=2
step auto iostorm run $q --engine auto $(dev nva) $(dev nvc)
step uring iostorm run $q --engine io_uring $(dev nva)
GUEST

grep -q 'io_uring_disabled = 2' "$VM_OUT/sysctl" || check_fail "could not disable io_uring: $(cat "$VM_OUT/sysctl")"
vm_expect_ok auto "--engine auto, io_uring disabled" &&
	vm_jq auto "--engine auto, io_uring disabled" '.config.engine_used == "libaio"
		and (.devices | length == 2) and all(.devices[]; .engine == "libaio" and .ios > 0 and .errors == 0)'
grep -q 'io_uring unavailable (.*): using libaio' "$VM_OUT/auto.err" ||
	{ check_fail "--engine auto does not say it fell back to libaio"; vm_show auto; }
vm_expect_error uring "--engine io_uring, io_uring disabled" 1 'io_uring'
t_done
