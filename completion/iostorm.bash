# bash completion for iostorm(1): verbs, each verb's options, the values of
# options that take one of a fixed set, file names for FILE values and job
# files, and block devices (plus files) for targets.
#
# The verbs, options and values come from the binary itself ('iostorm
# --complete ...', cli/complete.c), so they follow its tables. Plain bash
# only: the bash-completion package, where installed, just loads this file
# on demand.

# _iostorm_ask WHAT...: the binary's answer, one word a line.
_iostorm_ask() {
	"$_iostorm_bin" --complete "$@" 2>/dev/null
}

# _iostorm_devices: /dev/NAME for each block device with a size (an
# unattached loop device or an empty card reader has none).
_iostorm_devices() {
	local d size
	for d in /sys/class/block/*; do
		read -r size 2>/dev/null <"$d/size" || continue
		[ "$size" != 0 ] && [ -b "/dev/${d##*/}" ] && printf '/dev/%s\n' "${d##*/}"
	done
}

# _iostorm_add WORD...: onto COMPREPLY, after $pre (see _iostorm).
_iostorm_add() {
	local w
	for w in "$@"; do
		COMPREPLY+=("$pre$w")
	done
}

# _iostorm_files [GLOB]: file names matching GLOB (default all) and the
# directories to descend into.
_iostorm_files() {
	local IFS=$'\n'
	compopt -o filenames 2>/dev/null
	if [ -n "${1:-}" ]; then
		_iostorm_add $(compgen -f -X "!$1" -- "$cur") $(compgen -d -- "$cur")
	else
		_iostorm_add $(compgen -f -- "$cur")
	fi
}

# _iostorm_value OPTION: the value of OPTION, in $cur.
_iostorm_value() {
	local opt=$1 l s a arg=
	case $opt in
	-c | --config)
		_iostorm_files '*.ini'
		return ;;
	esac
	while read -r l s a; do
		[ "$l" = "$opt" ] || [ "$s" = "$opt" ] && arg=$a
	done <<<"$opts"
	case $arg in
	*.xml) _iostorm_files '*.xml' ;;
	FILE*) _iostorm_files ;;	# FILE, FILE.svg, ...: any file
	*) _iostorm_add $(compgen -W "$(_iostorm_ask values "$verb" "$opt")" -- "$cur") ;;
	esac
}

_iostorm() {
	local _iostorm_bin=$1 cur prev= pre= verb= job= opts l s a i=1 n w
	local IFS=$' \t\n'	# the user's may be anything
	local -a words=()
	local -A takes=()

	COMPREPLY=()
	# readline splits --opt=value at '=' (COMP_WORDBREAKS): join the pieces
	# back, so words[] is what iostorm will see
	for ((n = 0; n <= COMP_CWORD; n++)); do
		w=${COMP_WORDS[n]}
		if [ "${#words[@]}" -gt 1 ] && { [ "$w" = = ] || [[ ${words[-1]} == --*= ]]; } &&
			[[ ${words[-1]} == --* ]]; then
			words[-1]+=$w
		else
			words+=("$w")
		fi
	done
	n=$((${#words[@]} - 1))
	cur=${words[n]}
	[ "$n" -gt 0 ] && prev=${words[n - 1]}
	# --opt=value: the value after the option
	if [[ $cur == --*=* ]]; then
		prev=${cur%%=*} cur=${cur#*=}
		[[ $COMP_WORDBREAKS == *=* ]] || pre=$prev=
	fi

	# iostorm [-c JOBFILE] [VERB] ...
	case ${words[1]:-} in
	-c | --config) job=${words[2]:-} i=3 ;;
	--config=*) job=${words[1]#--config=} i=2 ;;
	-c?*) job=${words[1]#-c} i=2 ;;
	esac
	if [ "$n" -le 2 ] && { [ "$prev" = -c ] || [ "$prev" = --config ]; }; then
		_iostorm_value -c
		return
	fi
	if [ "$n" -eq "$i" ] && [[ $cur != -* ]]; then
		_iostorm_add $(compgen -W "$(_iostorm_ask verbs)" -- "$cur")
		return
	fi
	if [ "$n" -gt "$i" ] && _iostorm_ask verbs | grep -qxF -- "${words[i]}"; then
		verb=${words[i]}
	elif [ -n "$job" ]; then
		verb=$(sed -n 's/^[[:space:]]*command[[:space:]]*=[[:space:]]*\([a-z]*\).*/\1/p' \
			"$job" 2>/dev/null | head -n 1)
	fi
	[ -n "$verb" ] || verb=saturate	# what iostorm runs with no verb

	opts=$(_iostorm_ask options "$verb") || return
	while read -r l s a; do
		[ "$a" = - ] && continue
		takes[$l]=1
		[ "$s" = - ] || takes[$s]=1
	done <<<"$opts"

	if [ -n "$prev" ] && [ -n "${takes[$prev]:-}" ]; then
		_iostorm_value "$prev"
		return
	fi
	if [[ $cur == -* ]]; then
		w=$(cut -d ' ' -f 1 <<<"$opts")
		[ "$n" -eq 1 ] && w+=" -c --config"
		_iostorm_add $(compgen -W "$w" -- "$cur")
		return
	fi
	case $(_iostorm_ask operands "$verb") in
	targets)
		_iostorm_add $(compgen -W "$(_iostorm_devices)" -- "$cur")
		if [[ $cur == /dev/* ]]; then
			# below /dev, only what leads to a block device (by-id links too)
			compopt -o filenames 2>/dev/null
			for w in $(compgen -f -- "$cur"); do
				[ -d "$w" ] || { [ -b "$w" ] && [[ $w == /dev/*/* ]]; } && _iostorm_add "$w"
			done
		else
			_iostorm_files
		fi ;;
	files)
		_iostorm_files ;;
	esac
}
complete -F _iostorm iostorm
