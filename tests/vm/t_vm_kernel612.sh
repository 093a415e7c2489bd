# The 6.12 guest (bookworm-security's kernel, the one before hybrid
# polling): poll completes IOs; hybrid is refused with the kernel-version
# line and exit 1, on the real nvme driver with poll queues; tune lists
# hybrid as not tried with that reason and searches poll.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib.sh"
vm_need

vm_boot 6.12 two-node --timeout 420 <<'GUEST' || t_done
q="-q --time 2 --ramp 0.5 --qd 8 --json -"
keep uname uname -r
step poll iostorm run $q --completion poll $(dev nva) $(dev nvc)
step hybrid iostorm run $q --completion hybrid $(dev nva)
keep ndrives vm_ndrives
step check iostorm check --completion hybrid --json -
step tune iostorm tune -q --stages engine --budget 90s --ramp 0 --allow-never-written --json - $(dev nva)
GUEST

grep -q '^6\.12\.' "$VM_OUT/uname" || check_fail "the guest runs $(cat "$VM_OUT/uname"), not 6.12"
vm_expect_ok poll "--completion poll on 6.12" &&
	vm_jq poll "--completion poll on 6.12" '.config.completion_used == "poll"
		and (.devices | length == 2) and all(.devices[]; .ios > 0 and .errors == 0)'
vm_expect_error hybrid "--completion hybrid on 6.12" 1 'hybrid polling needs Linux 6\.13 or newer'
vm_check check "check --completion hybrid on 6.12: the kernel finding" '
	[.findings[] | select(.kind == "kernel") | .scope] == ["machine"]
	and (.setup.machine.kernel | startswith("6.12."))'
vm_expect_ok tune "tune --stages engine on 6.12" &&
	vm_jq tune "tune on 6.12: hybrid not tried for the kernel, poll searched" '
	[.tune.candidates[] | select(.stage == "engine") | .config | "\(.engine) \(.completion)"] as $c
	| ($c | index("io_uring poll")) != null and ($c | index("io_uring hybrid")) == null
	and ([.tune.not_tried[] | select(.value == "hybrid" and (.why | test("Linux 6\\.13")))] | length == 1)'
t_done
