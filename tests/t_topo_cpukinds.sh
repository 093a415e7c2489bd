#!/bin/bash
# CPU kinds from the command line, on the recorded hybrid machine
# tests/fixtures/topo-cpukinds.xml (E cores 0-3, P cores 4-11): topo lists
# the kinds, most performant first, in text and JSON; an export without
# cpukind elements (every other fixture) shows none. A run whose --cpus
# names an E core says so, and so does placement that runs out of P cores:
# hwloc loads the fixture as the machine (HWLOC_XMLFILE, hwloc's own
# switch), and CPU 0 exists everywhere.
. "$(dirname "$0")/lib.sh"
need_iostorm
need_cmd jq

fx=$(cd "$(dirname "$0")" && pwd)/fixtures
kinds=$fx/topo-cpukinds.xml

run_iostorm topo --topology "$kinds" --json "$T_DIR/kinds.json"
[ "$T_RC" -eq 0 ] || fail "topo on $kinds: exit $T_RC: $(cat "$T_ERR")"
grep -qx "CPU kinds (most performant first, by hwloc's efficiency)" "$T_OUT" ||
	check_fail "topo: no CPU kinds section ranked by hwloc's efficiency"
grep -q '^  IntelCore: CPUs 4-11 (4 cores, 8 PUs), efficiency 1, up to 4900 MHz, capacity 1024$' "$T_OUT" ||
	check_fail "topo: the P cores' line is not the first kind's"
grep -q '^  IntelAtom: CPUs 0-3 (4 cores, 4 PUs), efficiency 0, .*: placement takes these after' "$T_OUT" ||
	check_fail "topo: the E cores' line does not say placement takes them last"
[ "$(grep -n '^  Intel' "$T_OUT" | head -1 | cut -d: -f2)" = "  IntelCore" ] ||
	check_fail "topo: the P cores are not listed first"
jq -e '.cpu_kinds_basis == "efficiency" and (.cpu_kinds | length) == 2 and
	.cpu_kinds[0].core_type == "IntelCore" and .cpu_kinds[0].cpus == "4-11" and
	.cpu_kinds[0].rank == 0 and (.cpu_kinds[0].lesser | not) and
	.cpu_kinds[1].core_type == "IntelAtom" and .cpu_kinds[1].cpus == "0-3" and
	.cpu_kinds[1].rank == 1 and .cpu_kinds[1].lesser and .cpu_kinds[1].pus == 4 and
	.cpu_kinds[1].frequency_max_mhz == 3800 and .cpu_kinds[1].linux_capacity == 602' \
	"$T_DIR/kinds.json" >/dev/null ||
	check_fail "topo --json: cpu_kinds is not the fixture's: $(jq -c '.cpu_kinds' "$T_DIR/kinds.json")"

# no cpukind element: no section, an empty array
for f in "$fx"/topo-*.xml; do
	[ "$f" != "$kinds" ] || continue
	case $f in *hwloc-crash*) continue ;; esac
	run_iostorm topo --topology "$f" --json "$T_DIR/other.json"
	[ "$T_RC" -eq 0 ] || { check_fail "topo on $f: exit $T_RC"; continue; }
	grep -q '^CPU kinds' "$T_OUT" && check_fail "topo on $f shows CPU kinds it does not record"
	jq -e '.cpu_kinds == [] and .cpu_kinds_basis == "unranked"' "$T_DIR/other.json" >/dev/null ||
		check_fail "topo --json on $f: cpu_kinds $(jq -c '.cpu_kinds' "$T_DIR/other.json")"
done

# --cpus on an E core of the recorded machine: named before the run
grep -q '^Cpus_allowed_list:[[:space:]]*0\([-,]\|$\)' /proc/self/status ||
	skip "CPU 0 is not allowed to this test (taskset): --cpus 0 cannot run"
make_data_file file 4
HWLOC_XMLFILE=$kinds run_iostorm run -q --time 100ms --ramp 0 --cpus 0 "$file"
[ "$T_RC" -eq 0 ] || fail "run --cpus 0 on the recorded hybrid machine: exit $T_RC: $(cat "$T_ERR")"
grep -q -- '--cpus puts its worker on an efficiency core (CPU 0: IntelAtom, not IntelCore)' "$T_ERR" ||
	check_fail "run --cpus 0 on an E core: no note: $(cat "$T_ERR")"
# placement on the recorded machine: the P cores' first PUs (4,6,8,10),
# then an E core for the fifth worker, said before the run starts. Where
# this machine has no CPU 4 the run then stops at pinning (exit 1); the
# note is said either way.
HWLOC_XMLFILE=$kinds run_iostorm run -q --time 100ms --ramp 0 --jobs-per-device 5 "$file"
[ "$T_RC" -le 1 ] || check_fail "run of 5 workers on the recorded hybrid machine: exit $T_RC"
grep -q ': 1 of its 5 workers is on an efficiency core (CPU 0: IntelAtom, not IntelCore): no core of the most performant kind was left free for it' "$T_ERR" ||
	check_fail "run of 5 workers: no note of the fifth on an E core: $(cat "$T_ERR")"
t_done
