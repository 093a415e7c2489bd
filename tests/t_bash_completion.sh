#!/bin/bash
# completion/iostorm.bash in plain bash (no bash-completion package): the
# lists it offers come from 'iostorm --complete' and match the binary's
# --help, values of fixed-set options, --opt=value split by readline, job
# files and targets.
. "$(dirname "$0")/lib.sh"
need_iostorm

# the binary under test answers as 'iostorm', as an installed one would
mkdir -p "$T_DIR/bin" "$T_DIR/cwd/sub" || fail "cannot make $T_DIR"
ln -s "$IOSTORM" "$T_DIR/bin/iostorm" || fail "cannot link $IOSTORM"
: >"$T_DIR/cwd/job.ini"
: >"$T_DIR/cwd/other.txt"
: >"$T_DIR/cwd/box.xml"
printf '[job]\ncommand = sweep\n' >"$T_DIR/cwd/sweep.ini"
. "$IOSTORM_SRC/completion/iostorm.bash" || fail "completion/iostorm.bash does not source"
complete -p iostorm >/dev/null 2>&1 || fail "no completion registered for iostorm"
PATH=$T_DIR/bin:$PATH
cd "$T_DIR/cwd" || fail "cannot cd"

# comp WORD...: COMPREPLY for the command line WORD... (the last one is
# being completed, '' for a new word), sorted, space-separated, in $got
comp() {
	COMP_WORDS=("$@")
	COMP_CWORD=$(($# - 1))
	COMP_LINE="$*"
	COMP_POINT=${#COMP_LINE}
	COMPREPLY=()
	_iostorm iostorm "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
	got=$(printf '%s\n' "${COMPREPLY[@]}" | sort | paste -sd ' ')
}

# is WANT WORD...: the completion of WORD... is exactly WANT (sorted)
is() {
	local want=$1
	shift
	comp "$@"
	[ "$got" = "$want" ] || check_fail "'$*<TAB>' offered '$got', want '$want'"
}

# has WANT WORD...: the completion of WORD... includes WANT
has() {
	local want=$1
	shift
	comp "$@"
	[[ " $got " == *" $want "* ]] || check_fail "'$*<TAB>' offered '$got', not '$want'"
}

verbs=$("$IOSTORM" --help | sed -n '/^commands:/,/^$/s/^  \([a-z]*\) .*/\1/p' | sort | paste -sd ' ')
[ -n "$verbs" ] || fail "no verbs in iostorm --help"
is "$verbs" iostorm ''
is "run" iostorm r
is "sweep" iostorm sw

# every long option of each verb's --help, no more
for v in $("$IOSTORM" --help | sed -n '/^commands:/,/^$/s/^  \([a-z]*\) .*/\1/p'); do
	want=$("$IOSTORM" "$v" --help | grep -oE '^  (-[a-zA-Z], |    )--[a-z-]+' |
		sed 's/.*--/--/' | sort | paste -sd ' ')
	is "$want" iostorm "$v" --
done

is "--engine" iostorm run --eng
is "auto io_uring io_uring_cmd libaio" iostorm run --engine ''
is "io_uring io_uring_cmd" iostorm run --engine io
is "io_uring_cmd" iostorm run --engine io_uring_
is "auto hybrid irq poll sqpoll" iostorm latency --completion ''
is "local none remote" iostorm saturate --placement ''
# readline splits --engine=lib at '=' (COMP_WORDBREAKS)
is "libaio" iostorm run --engine = lib
is "auto io_uring io_uring_cmd libaio" iostorm run --engine = ''
# where '=' does not split words, the reply keeps the option in front
COMP_WORDBREAKS=${COMP_WORDBREAKS//=/} is "--engine=io_uring --engine=io_uring_cmd" iostorm run --engine=io
# free values: nothing to offer
is "" iostorm run --qd ''
is "" iostorm run --bs ''
# a value is not the verb's operand: the word after it is
has "--quiet" iostorm run -d 4 --qu

# files: job files, JSON, topologies
is "job.ini sub sweep.ini" iostorm -c ''
is "job.ini sub sweep.ini" iostorm --config = ''
is "sweep.ini" iostorm --config = sw
is "$verbs" iostorm --config = sweep.ini ''
is "box.xml sub" iostorm topo --topology ''
has "other.txt" iostorm run --json ''
# after a job file: a verb, or the options of the file's command
is "$verbs" iostorm -c sweep.ini ''
is "--qd --quiet --quiet-advice" iostorm -c sweep.ini --q
# --qd of sweep is a LIST (no values), of run a number: neither has a set
is "" iostorm -c sweep.ini --qd ''
# no verb: saturate's options and the job file option
has "--demo" iostorm --de
has "--config" iostorm --con

# targets: files here, block devices with a size, nothing for nop
has "other.txt" iostorm run ''
is "" iostorm nop ''
# a device of its own where it can: the tests beside this one (tests/
# alongside) attach and detach loop devices, and one picked from the list
# may be gone by the time its name is completed
dev=
if [ "$(id -u)" -eq 0 ] && command -v losetup >/dev/null 2>&1; then
	make_loop dev 1
fi
[ -n "$dev" ] || for d in /sys/class/block/*; do
	read -r size 2>/dev/null <"$d/size" || continue
	[ "$size" != 0 ] && [ -b "/dev/${d##*/}" ] && dev=/dev/${d##*/} && break
done
if [ -n "$dev" ]; then
	has "$dev" iostorm run ''
	has "$dev" iostorm latency "${dev:0:7}"
else
	echo "note: no block device with a size here; device names not checked"
fi

# the hidden interface itself: bad requests are usage errors, and it is
# not in the help
"$IOSTORM" --complete values nosuchverb --qd >/dev/null 2>&1
[ $? -eq 2 ] || check_fail "--complete with an unknown verb does not exit 2"
"$IOSTORM" --help | grep -q complete && check_fail "--complete shows in iostorm --help"
t_done
