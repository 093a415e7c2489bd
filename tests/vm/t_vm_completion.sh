# Completion modes on the real nvme driver (7.2 guest, two-node layout),
# and tune's engine stage there:
# poll and hybrid complete IOs with no errors where the driver has poll
# queues; auto picks poll there and irq on a controller with no room for a
# poll queue, saying so; poll and hybrid on that controller are refused with
# the poll_queues line and exit 1. The same on a guest whose nvme driver
# was loaded without poll queues at all (no-poll layout).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib.sh"
vm_need

vm_boot 7.2 two-node --timeout 480 <<'GUEST' || t_done
q="-q --time 2 --ramp 0.5 --qd 8 --json -"
keep io_poll cat /sys/block/$(basename $(dev nva))/queue/io_poll /sys/block/$(basename $(dev nvd))/queue/io_poll
step poll iostorm run $q --completion poll $(dev nva) $(dev nvc)
step hybrid iostorm run $q --completion hybrid $(dev nva)
step auto_poll iostorm run $q --completion auto $(dev nva) $(dev nvb)
step auto_irq iostorm run $q --completion auto $(dev nvd)
step auto_mixed iostorm run $q --completion auto $(dev nva) $(dev nvd)
step nopq_poll iostorm run $q --completion poll $(dev nvd)
# the open loop polled (it spins: a polled wait ignores timeouts) on two
# nodes' drives, a worker on each node's CPU, and by interrupt with
# Poisson arrivals. Not node 0's two drives: the open loop has no group
# copy, so they were two spinning workers on one CPU, each off it for
# tens of ms while the other spun; one taken off just before the
# window's end left its 8 IOs' time in flight in the window and their
# latencies out of it (vmcheck run 2 of 5: IOPS x service time 0.70 of
# the mean depth; 8 runs more on the one CPU gave 0.98 to 1.03)
step rate_poll iostorm run $q --completion poll --rate 500 $(dev nva) $(dev nvc)
step rate_irq iostorm run $q --rate 500 --arrival poisson $(dev nvd)
step nopq_hybrid iostorm run $q --completion hybrid $(dev nvd)
keep ndrives vm_ndrives
keep nvd basename $(dev nvd)
step check iostorm check --completion poll --json -
step check_hybrid iostorm check --completion hybrid --json -
# tune's engine stage as root on a drive with poll queues: poll, hybrid and
# the passthrough engine among its candidates (the images are never
# written: --allow-never-written)
step tune iostorm tune -q --stages engine --budget 90s --ramp 0 --allow-never-written --json - $(dev nva)
GUEST

[ "$(cat "$VM_OUT/io_poll" 2>/dev/null | tr '\n' ' ')" = "1 0 " ] ||
	check_fail "queue/io_poll of nva, nvd: $(cat "$VM_OUT/io_poll" | tr '\n' ' '), want 1 0"

ok_run='.config.completion_used == $m and (.devices | length == $n)
	and all(.devices[]; .ios > 0 and .errors == 0)'
vm_expect_ok poll "--completion poll" &&
	vm_jq poll "--completion poll" "$ok_run" --arg m poll --argjson n 2
vm_expect_ok hybrid "--completion hybrid on 7.2" &&
	vm_jq hybrid "--completion hybrid on 7.2" "$ok_run" --arg m hybrid --argjson n 1
vm_expect_ok auto_poll "auto, poll queues everywhere" &&
	vm_jq auto_poll "auto, poll queues everywhere" "$ok_run" --arg m poll --argjson n 2
grep -q 'completion auto: poll' "$VM_OUT/auto_poll.err" ||
	check_fail "auto with poll queues does not say it chose poll"
# nva and nvb are node 0's, whose one CPU then polls both in one ring;
# poll's nva and nvc are on two nodes: a worker each
vm_jq auto_poll "auto: node 0's two polled drives share its worker" \
	'.config.group == "auto" and all(.devices[]; .devices_per_worker == 2)'
grep -q 'share one worker and ring on CPU [0-9]* (--group auto: polled)$' "$VM_OUT/auto_poll.err" ||
	{ check_fail "auto: the polled drives' shared worker is not said"; vm_show auto_poll; }
vm_jq poll "poll: drives on two nodes keep a worker each" 'all(.devices[]; .devices_per_worker == 1)'
vm_expect_ok auto_irq "auto, no poll queue" &&
	vm_jq auto_irq "auto, no poll queue" "$ok_run" --arg m irq --argjson n 1
grep -Eq 'completion auto: irq \(nvme[0-9]+n1 has no poll queues\)' "$VM_OUT/auto_irq.err" ||
	{ check_fail "auto without poll queues does not say why it chose irq"; vm_show auto_irq; }
vm_expect_ok auto_mixed "auto, one drive without poll queue" &&
	vm_jq auto_mixed "auto, one drive without poll queue" "$ok_run" --arg m irq --argjson n 2
# the open loop: the rate met (uniform within 2%, Poisson's 1000 arrivals
# within 15%), Little's law on the measured depth, a worker per drive
open_ok='all(.devices[]; .open_loop.asked_iops == 500 and (.iops / 500 - 1 | fabs) < $tol
	and .devices_per_worker == 1 and .open_loop.service_lat_ns.mean > 0
	and (.open_loop.achieved_iops * .open_loop.service_lat_ns.mean / 1e9 / .open_loop.mean_inflight - 1 | fabs) < 0.1)'
vm_expect_ok rate_poll "--rate, polled" &&
	vm_jq rate_poll "--rate, polled" "$ok_run and $open_ok" --arg m poll --argjson n 2 --argjson tol 0.02
vm_expect_ok rate_irq "--rate, poisson, irq" &&
	vm_jq rate_irq "--rate, poisson, irq" "$ok_run and $open_ok" --arg m irq --argjson n 1 --argjson tol 0.15
vm_expect_error nopq_poll "poll without poll queues" 1 'has no poll queues: load the nvme driver with poll_queues=N'
vm_expect_error nopq_hybrid "hybrid without poll queues" 1 'has no poll queues: load the nvme driver with poll_queues=N'

# check, for a polled run: no poll queue on nvd alone; hybrid is no
# kernel finding on 7.2
vm_check check "check --completion poll on two-node" \
	'[.findings[] | select(.kind == "no_poll_queues") | .device] == [$d]' --arg d "$(cat "$VM_OUT/nvd")"
vm_check check_hybrid "check --completion hybrid on 7.2" 'all(.findings[]; .kind != "kernel")'

vm_expect_ok tune "tune --stages engine on 7.2" &&
	vm_jq tune "tune's engine candidates on 7.2 with poll queues, as root" '
	[.tune.candidates[] | select(.stage == "engine") | .config | "\(.engine) \(.completion)"] as $c
	| ($c | index("io_uring poll")) != null and ($c | index("io_uring hybrid")) != null
	and ($c | index("io_uring_cmd irq")) != null
	and ([.tune.not_tried[] | select(.value | test("hybrid|poll"))] | length == 0)
	and .tune.elapsed_s <= 1.1 * .tune.budget_s'

vm_boot 7.2 no-poll <<'GUEST' || t_done
q="-q --time 1 --ramp 0.3 --qd 8 --json -"
keep io_poll cat /sys/block/$(basename $(dev nva))/queue/io_poll
step auto iostorm run $q --completion auto $(dev nva) $(dev nvb)
step poll iostorm run $q --completion poll $(dev nva)
step hybrid iostorm run $q --completion hybrid $(dev nvb)
keep ndrives vm_ndrives
step check iostorm check --completion poll --json -
GUEST
[ "$(cat "$VM_OUT/io_poll")" = 0 ] || check_fail "no-poll: io_poll is $(cat "$VM_OUT/io_poll"), want 0"
vm_expect_ok auto "no-poll: auto" &&
	vm_jq auto "no-poll: auto" "$ok_run" --arg m irq --argjson n 2
vm_expect_error poll "no-poll: poll" 1 'has no poll queues: load the nvme driver with poll_queues=N'
vm_expect_error hybrid "no-poll: hybrid" 1 'has no poll queues: load the nvme driver with poll_queues=N'
vm_check check "no-poll: check --completion poll names every drive" '
	([.findings[] | select(.kind == "no_poll_queues") | .device] | sort)
	== ([.setup.devices[].name] | sort) and .setup.machine.nvme.poll_queues == 0'
t_done
