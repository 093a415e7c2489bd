# Placement notes before the table, on six loop devices: one line per kind
# of note, each naming every device it concerns (consecutive loop names as
# one range), not a line per device; the shared-cores line counts every
# worker on the cores, and under SQPOLL their submission threads; saturate,
# which places every device alone before all at once, says each kind once.
. "$(dirname "$0")/lib.sh"
need_iostorm

devs=()
for i in 1 2 3 4 5 6; do
	make_loop "l$i" 16
	v=l$i
	devs+=("${!v}")
done
names=()
for d in "${devs[@]}"; do names+=("${d#/dev/}"); done
q=(-q --time 200ms --ramp 0)
# the CPUs this process may run on: fewer than the workers, they share cores
ncpus=$(nproc)

# covered LINE NAME: NAME (loopN) is in LINE, alone or inside loopA-loopB
covered() {
	local line=$1 name=$2 n=${2#loop} r lo hi
	[[ " $line " =~ [\ ,]${name}[\ ,:] ]] && return 0
	while read -r r; do
		lo=${r%%-*}
		hi=${r##*-}
		lo=${lo#loop}
		hi=${hi#loop}
		[ "$n" -ge "$lo" ] && [ "$n" -le "$hi" ] && return 0
	done < <(grep -oE 'loop[0-9]+-loop[0-9]+' <<<"$line")
	return 1
}

# names_all WHAT LINE NAME...: LINE names every NAME, or all but the ones
# its "and K more" counts
names_all() {
	local what=$1 line=$2 name missing=0 more
	shift 2
	for name in "$@"; do
		covered "$line" "$name" || missing=$((missing + 1))
	done
	more=$(grep -oE ' and [0-9]+ more' <<<"$line" | grep -oE '[0-9]+')
	[ "$missing" -eq "${more:-0}" ] ||
		check_fail "$what: $missing of $# devices unnamed (\"and ${more:-0} more\"): $line"
}

# consecutive NAME...: whether the loop numbers, sorted, have no gap
consecutive() {
	local prev='' n
	for n in $(printf '%s\n' "${@#loop}" | sort -n); do
		[ -z "$prev" ] || [ "$n" -eq $((prev + 1)) ] || return 1
		prev=$n
	done
}

if expect_ok "run on six loop devices" run "${q[@]}" "${devs[@]}"; then
	# what else the CPUs did is said after the run (docs/cpu.md): not a note
	nl=$(grep -vc '(noise: ' "$T_ERR")
	pci=$(grep -c 'without PCI locality' "$T_ERR")
	shared=$(grep -c 'share.* cores' "$T_ERR")
	[ "$pci" -eq 1 ] || check_fail "six loops: $pci lines without PCI locality, want 1"
	want=$((1 + (ncpus < 6)))
	[ "$nl" -eq "$want" ] || check_fail "six loops: $nl lines of notes, want $want (one per kind)"
	if [ "$ncpus" -lt 6 ]; then
		[ "$shared" -eq 1 ] || check_fail "six loops on $ncpus CPUs: $shared shared-cores lines, want 1"
		grep -q 'cores for 6 workers: ' "$T_ERR" ||
			check_fail "six loops on $ncpus CPUs: the shared-cores line does not count all 6 workers"
	fi
	line=$(grep 'without PCI locality' "$T_ERR")
	names_all "six loops" "$line" "${names[@]}"
	if consecutive "${names[@]}"; then
		lo=$(printf '%s\n' "${names[@]#loop}" | sort -n | head -1)
		grep -q "loop$lo-loop$((lo + 5)) are each a loop device" "$T_ERR" ||
			check_fail "six consecutive loops: not named as loop$lo-loop$((lo + 5)): $line"
	fi
	if grep -q 'is a loop device' "$T_ERR"; then
		check_fail "six loops: a device has a line of its own"
	fi
	[ -s "$T_OUT" ] || check_fail "six loops: no table"
	[ "$(grep -c '^loop' "$T_OUT")" -eq 6 ] || check_fail "six loops: not a row per device"
fi

# saturate places each device alone first, then all at once: the notes
# still come once per kind, naming every device, before the first step
if expect_ok "saturate on six loop devices" saturate "${q[@]}" --qd 4 "${devs[@]}"; then
	pci=$(grep -c 'without PCI locality' "$T_ERR")
	[ "$pci" -eq 1 ] || check_fail "saturate, six loops: $pci lines without PCI locality, want 1"
	names_all "saturate, six loops" "$(grep 'without PCI locality' "$T_ERR")" "${names[@]}"
	[ "$(grep -c 'share.* cores' "$T_ERR")" -le 1 ] ||
		check_fail "saturate, six loops: more than one shared-cores line"
fi

# SQPOLL: each worker's submission thread takes a place of its own, so two
# workers on two CPUs share them; the note says so, not "2 workers" each
if [ "$ncpus" -lt 4 ]; then
	if expect_ok "sqpoll on two loops" run "${q[@]}" --completion sqpoll "${devs[0]}" "${devs[1]}"; then
		grep -q 'cores for 2 workers and their submission threads: ' "$T_ERR" ||
			check_fail "sqpoll: the shared-cores note does not count the submission threads"
		if grep -q 'free cores for 2 workers' "$T_ERR"; then
			check_fail "sqpoll: one device's worker and its thread called 2 workers"
		fi
		[ "$(grep -vc '(noise: ' "$T_ERR")" -eq 2 ] || check_fail "sqpoll: want 2 lines of notes"
	fi
fi
t_done
