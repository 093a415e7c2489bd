#!/bin/bash
# --jobs-per-device N succeeding: N workers per device, each on the CPU the
# JSON reports for it (devices[].cpus, worker by worker: the i-th CPU of
# --cpus for worker i, devices in order), and --ios split over them so the
# device does exactly --ios. The runner gives worker w of N
# ios / N + (w < ios % N), at least 1 (1000 over 3: 334, 333, 333); the
# report has no per-worker count, so what is checked is what a split
# decides and a user sees: the device's total, exactly --ios when N does
# not divide it (a rounded-down or rounded-up share misses it), and --ios
# equal to N (one each: a worker given none would run without a limit).
# Regular files under /var/tmp: no root needed.
. "$(dirname "$0")/lib.sh"

need_iostorm
need_cmd jq
make_data_file a 16
make_data_file b 16
json=$T_DIR/r.json

# cpu_list LIST: a kernel CPU list (0-3,8) as words (0 1 2 3 8).
cpu_list() {
	local part parts i out=()
	IFS=, read -r -a parts <<<"$1"
	for part in "${parts[@]}"; do
		if [[ $part == *-* ]]; then
			for ((i = ${part%-*}; i <= ${part#*-}; i++)); do
				out+=("$i")
			done
		else
			out+=("$part")
		fi
	done
	echo "${out[@]}"
}

# the CPUs this process may use: the ones a pinned worker may get
read -r -a c <<<"$(cpu_list "$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status)")"
[ "${#c[@]}" -ge 1 ] || fail "no CPU in /proc/self/status's Cpus_allowed_list"
ok=$(printf '%s\n' "${c[@]}" | jq -sc .)

# jobs_ok WHAT IOS PER NDEV ARGS...: exit 0; every device did exactly IOS
# with PER workers, each pinned to a CPU this process may use (or each on
# one of $cpus_ok, a JSON array, when set), and the total is NDEV * IOS.
jobs_ok() {
	local what=$1 ios=$2 per=$3 ndev=$4
	shift 4
	rm -f "$json"
	expect_ok "$what" run --ios "$ios" --jobs-per-device "$per" -q --json "$json" "$@" ||
		return
	jq -e --argjson ios "$ios" --argjson per "$per" --argjson n "$ndev" \
		--argjson ok "${cpus_ok:-$ok}" '
		.config.jobs_per_device == $per and .config.ios == $ios
		and (.devices | length == $n)
		and all(.devices[]; .ios == $ios and .errors == 0
			and (.cpus | length == $per)
			and all(.cpus[]; . as $x | $ok | any(.[]; . == $x)))
		and .total.ios == $n * $ios' "$json" >/dev/null ||
		{
			check_fail "$what: want $ndev devices x $ios IOs, $per workers each on one of the CPUs ${cpus_ok:-$ok}"
			jq -c '{jobs: .config.jobs_per_device, d: [.devices[] | {ios, cpus}], total: .total.ios}' \
				"$json" >&2
		}
}

jobs_ok "1000 IOs over 3 workers (334+333+333)" 1000 3 1 "$a"
jobs_ok "4 IOs over 3 workers (2+1+1)" 4 3 1 "$a"
jobs_ok "3 IOs over 3 workers (one each)" 3 3 1 "$a"
jobs_ok "1001 IOs over 2 workers on each of 2 devices" 1001 2 2 "$a" "$b"
jobs_ok "1000 IOs over 4 workers on each of 2 devices" 1000 4 2 "$a" "$b"

# --cpus: worker i on the i-th CPU of the list, in the list's order
# (reversed here, so the default order would not pass), devices in order
if [ "${#c[@]}" -ge 2 ]; then
	rev="${c[1]},${c[0]}"
	jobs_ok "--cpus $rev, 2 workers" 100 2 1 --cpus "$rev" "$a"
	jq -e --argjson c0 "${c[0]}" --argjson c1 "${c[1]}" '
		.config.cpus == [$c1, $c0] and .devices[0].cpus == [$c1, $c0]' \
		"$json" >/dev/null 2>&1 ||
		check_fail "--cpus $rev: want worker 0 on CPU ${c[1]} and worker 1 on ${c[0]}, got $(jq -c '.devices[0].cpus' "$json" 2>&1)"
fi
if [ "${#c[@]}" -ge 4 ]; then
	list="${c[3]},${c[2]},${c[1]},${c[0]}"
	jobs_ok "--cpus $list, 2 devices x 2 workers" 100 2 2 --cpus "$list" "$a" "$b"
	jq -e --argjson c "[${c[0]},${c[1]},${c[2]},${c[3]}]" '
		.devices[0].cpus == [$c[3], $c[2]] and .devices[1].cpus == [$c[1], $c[0]]' \
		"$json" >/dev/null 2>&1 ||
		check_fail "--cpus $list: want [${c[3]},${c[2]}] then [${c[1]},${c[0]}], got $(jq -c '[.devices[].cpus]' "$json" 2>&1)"
fi
# one CPU for two workers: a usage error before anything runs
expect_error "--cpus with fewer CPUs than workers" 2 'cpus' \
	run --ios 100 --jobs-per-device 2 --cpus "${c[0]}" -q "$a"

# as many workers as CPUs, on a machine of one NUMA node (where the file's
# drive is local to every CPU): one worker per CPU, none doubled up
shopt -s nullglob
nodes=(/sys/devices/system/node/node[0-9]*)
shopt -u nullglob
if [ "${#c[@]}" -ge 2 ] && [ "${#c[@]}" -le 8 ] && [ "${#nodes[@]}" -le 1 ]; then
	n=${#c[@]}
	jobs_ok "$n workers on $n CPUs" $((n * 10)) "$n" 1 "$a"
	jq -e '.devices[0].cpus | length == (unique | length)' "$json" >/dev/null 2>&1 ||
		check_fail "$n workers on $n CPUs: two on one CPU: $(jq -c '.devices[0].cpus' "$json" 2>&1)"
fi

# --placement none: the workers exist, unpinned
cpus_ok='[-1]' jobs_ok "--placement none, 3 workers" 300 3 1 --placement none "$a"

# by time, without --ios: every worker runs (the window is not asserted)
rm -f "$json"
if expect_ok "3 workers for 300ms" run -t 300ms --ramp 0 --jobs-per-device 3 -q --json "$json" "$a"; then
	jq -e '.devices[0].ios > 0 and (.devices[0].cpus | length == 3)' "$json" >/dev/null ||
		check_fail "3 workers by time: want IOs and 3 CPUs, got $(jq -c '.devices[0] | {ios, cpus}' "$json")"
fi

# fewer IOs than workers: said before anything runs
expect_error "--ios below --jobs-per-device" 2 '--ios 2 is fewer than the 3 workers per device' \
	run --ios 2 --jobs-per-device 3 -q "$a"

t_done
