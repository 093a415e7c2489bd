# Placement on a live two-node machine (7.2 guest): the worker of a node-1
# drive runs on node 1's CPU and its buffers are on node 1, and likewise
# for node 0. Read back from the kernel while the run goes on: each
# thread's affinity (sched_getaffinity) and each page of the NUMA-placed
# buffers (move_pages), by tests/vm/guest/placecheck.c.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib.sh"
vm_need
[ -x "${PLACECHECK:-}" ] || fail "no placecheck helper (make vmcheck builds it; set PLACECHECK)"

vm_boot 7.2 two-node <<'GUEST' || t_done
keep nodes cat /sys/bus/pci/devices/*/numa_node
# reads completed on drive NAME so far
reads() { read -r r _ <"/sys/block/$(basename $(dev $1))/stat"; echo "$r"; }
a0=$(reads nva) c0=$(reads nvc)
# --no-zero-sample: the sample's reads, from the main thread's helpers
# before any worker exists, would end the wait below too soon (placecheck
# then saw the main thread alone)
iostorm run -q --no-zero-sample --time 4 --ramp 0.5 --qd 8 --json - $(dev nva) $(dev nvc) >/results/run.out 2>/results/run.err &
pid=$!
# placed before their first IO: look once both drives have served reads
i=0
while { [ "$(reads nva)" -le "$a0" ] || [ "$(reads nvc)" -le "$c0" ]; } && [ $i -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
keep place placecheck $pid
wait $pid
echo $? >/results/run.rc
GUEST

vm_expect_ok run "run on a node-0 and a node-1 drive" &&
	vm_jq run "workers pinned near their drives" '
		.devices[0].cpus == [0] and .devices[1].cpus == [1]
		and all(.devices[]; .ios > 0 and .errors == 0)'
p=$VM_OUT/place
# the two workers, each bound to one CPU: one to 0, one to 1
[ "$(grep -cE '^thread [0-9]+ cpus 0$' "$p")" -eq 1 ] && [ "$(grep -cE '^thread [0-9]+ cpus 1$' "$p")" -eq 1 ] ||
	{ check_fail "worker threads are not bound to CPU 0 and CPU 1 alone"; sed 's/^/    /' "$p" >&2; }
# each worker's buffer: preferred on its node, and every page there
for n in 0 1; do
	line=$(grep -E "^buffer [0-9a-f]+ prefer[:=]$n " "$p" | head -n 1)
	if [ -z "$line" ]; then
		check_fail "no buffer with a node-$n policy"
		sed 's/^/    /' "$p" >&2
		continue
	fi
	read -r _ _ _ _ pages rest <<<"$line"
	[ "$pages" -gt 0 ] && [[ $rest == "node$n $pages absent 0" ]] ||
		check_fail "node-$n buffer: $pages pages, placed: $rest (want all on node $n)"
done
t_done
