# Every "(default X)" of each command's --help is what the command runs:
# each command runs briefly on a file (--time 300ms --ramp 0, the two it
# must set to stay short; test_verbs checks those two against the JSON
# config through the parser) and every other default shown is compared
# with the "config" of its JSON report. A default shown that this test
# does not know how to compare fails, so a new one cannot go unchecked.
. "$(dirname "$0")/lib.sh"
need_iostorm
need_cmd jq

make_data_file f 16

# defaults VERB: "NAME VALUE" per option whose --help block says
# "(default VALUE)", from the option's line to the next option's.
defaults() {
	"$IOSTORM" "$1" --help | awk '
		/^  -[A-Za-z], --|^      --/ {
			opt = $0; sub(/^ *(-[A-Za-z], )?--/, "", opt); sub(/ .*/, "", opt)
		}
		/^  [^ ]/ && !/^  -/ { opt = "" }
		opt != "" && match($0, /\(default [^)]*\)/) {
			print opt, substr($0, RSTART + 9, RLENGTH - 10)
		}'
}

# bytes SIZE: 4k -> 4096 (powers of 1024, as the parser reads a size).
bytes() {
	local n=${1%[kmgt]} u=${1##*[0-9]}
	case $u in
	k) echo $((n << 10)) ;; m) echo $((n << 20)) ;; g) echo $((n << 30)) ;;
	t) echo $((n << 40)) ;; *) echo "$n" ;;
	esac
}

# compare VERB JSON: each default VERB's --help shows against JSON's.
compare() {
	local verb=$1 json=$2 name val want got n=0
	while read -r name val; do
		n=$((n + 1))
		case $name in
		bs) want=$(bytes "$val") got=$(jq .config.bs "$json") ;;
		qd)
			if [ "$verb" = sweep ]; then
				want=$val got=$(jq -r '[.points[].qd] | join(",")' "$json")
			else
				want=$val got=$(jq .config.qd "$json")
			fi ;;
		batch | reap | jobs | repeat) want=$val got=$(jq ".config.$name" "$json") ;;
		jobs-per-device) want=$val got=$(jq .config.jobs_per_device "$json") ;;
		engine | completion | placement | group | arrival) want=$val got=$(jq -r ".config.$name" "$json") ;;
		alpha) want=$val got=$(jq .alpha "$json") ;;
		interval) want=$val got="$(jq .config.interval_s "$json")s" ;;
		time | ramp) continue ;;	# set here to stay short: test_verbs
		stall-timeout | demo-size | linger) continue ;;	# not in the JSON: test_verbs
		slo-points) continue ;;	# slo.max_points with --slo only: t_slo
		*) check_fail "$verb --help: no way to check --$name's default $val"; continue ;;
		esac
		[ "$want" = "$got" ] ||
			check_fail "$verb --help says --$name $val, its JSON config has $got"
	done < <(defaults "$verb")
	[ "$n" -gt 0 ] || check_fail "$verb --help shows no default"
}

short=(-q --time 300ms --ramp 0 --json -)
for verb in run latency sweep saturate; do
	expect_ok "$verb" "$verb" "${short[@]}" "$f" && compare "$verb" "$T_OUT"
done
expect_ok nop nop "${short[@]}" && compare nop "$T_OUT"
expect_ok run run "${short[@]}" "$f" && cp "$T_OUT" "$T_DIR/base.json" &&
	expect_ok compare compare --json - "$T_DIR/base.json" "$T_DIR/base.json" &&
	compare compare "$T_OUT"
expect_ok plan plan --topology tests/fixtures/topo-1node-2hb.xml --drive-iops 1m --json - &&
	compare plan "$T_OUT"

# No synopsis states a default: the option list says them all.
for verb in $("$IOSTORM" --complete verbs); do
	"$IOSTORM" "$verb" --help | sed '/^options:$/,$d' | grep -qi default &&
		check_fail "$verb --help: its synopsis words a default"
done
t_done
