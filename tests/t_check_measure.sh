# iostorm check --measure on a loop device over /dev/shm set to mq-deadline
# and iostats 1 (with nr_requests and a tunable of mq-deadline's off their
# defaults, which a scheduler switch resets): (a) it measures both
# settings at --qd and QD1 in ABBA order, judges each (its change inside
# its interval, p, Holm's p over the session, the verdict they give, in
# the JSON and the table), and leaves every setting as it was; (b) SIGINT while a better setting is in place puts it back and
# leaves no journal, and another iostorm started meanwhile (nop, a plain
# check) leaves the live measurement's journal alone; (lock) a second
# --measure, even while the first has changed nothing yet, is refused in
# one line naming the first one's pid; (c) after kill -9 there, the
# setting stays changed and journaled through other commands (nop, tab
# completion, a check of a recorded tree) until a `check` puts it back and
# says so; (d) a journal that cannot be put back is said, other commands
# say nothing, and check --measure changes nothing while it is there; a
# journal naming a setting of a disk it does not identify, or of the
# older format (names only), is said, kept and not applied;
# (e) under strace, the journal is synced and linked before the first
# write to a queue setting; a journal (f) from another boot, (g) of a disk
# whose diskseq changed (the loop device detached and attached again
# under its name), (h) of a disk whose dev_t changed, is reported and not
# applied; (i) --measure with no target, or with IOSTORM_SYSFS_ROOT set,
# is refused before anything; (j) a queue file that is a symbolic link
# (to another device's) is not written through, and (k) one that is not a
# sysfs file is not written (both in a private mount namespace, a folder
# bound over the loop device's queue/). Counts and order only; every wait
# has a number of tries against a hang.
. "$(dirname "$0")/lib.sh"
need_iostorm
need_cmd jq

make_loop dev 64
name=${dev#/dev/}
q=/sys/block/$name/queue
# a journal of this test's own: another test's iostorm, starting while a
# measurement here is killed, must not be the one that puts it back
export IOSTORM_JOURNAL=$T_DIR/run/settings.journal
J=$IOSTORM_JOURNAL


# settings: every value a measurement may touch, one per line
settings() {
	local f
	echo "scheduler=$(sched_of "$q")"
	for f in iostats nomerges wbt_lat_usec nr_requests; do
		[ -r "$q/$f" ] && echo "$f=$(cat "$q/$f")"
	done
	for f in "$q"/iosched/*; do
		[ -r "$f" ] && echo "iosched/${f##*/}=$(cat "$f")"
	done
}

# the loop device's own settings come back however the test ends
# (companions after the scheduler, which resets them)
T_SYSFS+=("$q/scheduler $(sched_of "$q")")
for f in iostats nomerges wbt_lat_usec nr_requests; do
	[ -w "$q/$f" ] && T_SYSFS+=("$q/$f $(cat "$q/$f")")
done

# prepare: the settings this test measures from (again after a case that
# leaves the measurement's change in place on purpose)
prepare() {
	echo mq-deadline >"$q/scheduler" 2>/dev/null
	[ "$(sched_of "$q")" = mq-deadline ] || skip "no mq-deadline scheduler for $name on this kernel"
	echo 1 >"$q/iostats" || fail "cannot set $name's iostats to 1"
	# off the defaults, so a switch back that forgets them shows
	echo 64 >"$q/nr_requests" || fail "cannot set $name's nr_requests"
	echo 123 >"$q/iosched/read_expire" || fail "cannot set mq-deadline's read_expire on $name"
}
prepare
before=$(settings)

# same_settings WHAT: the settings are those the test set
same_settings() {
	local now
	now=$(settings)
	if [ "$now" != "$before" ]; then
		check_fail "$1: settings differ from before: $(diff <(echo "$before") <(echo "$now") | grep '^[<>]' | tr '\n' ' ')"
		return 1
	fi
}

# start_measure OUT ERR [now] ARGS...: check --measure in the background
# (its pid in T_PID), its stderr in ERR, then waits for the line the first
# trial of a better setting starts with (said once it is in place): the
# scheduler's, the first finding in table order; with "now", for the line
# of the very first trial (the setting as it is: nothing changed yet). 1
# when it never came.
start_measure() {
	local out=$1 err=$2 want="$name scheduler none (better)" i
	shift 2
	if [ "${1:-}" = now ]; then
		want="1/"
		shift
	fi
	# emptied here: the shell opens them in the child, which may come after
	# the first look below, and a file of an earlier case holds the line
	: >"$out"
	: >"$err"
	"$IOSTORM" check --measure --rounds 1 --time 5s --ramp 0 --qd 1 "$@" "$dev" \
		>"$out" 2>"$err" </dev/null &
	T_PID=$!
	for ((i = 0; i < 600; i++)); do
		grep -qF "$want" "$err" 2>/dev/null && return 0
		kill -0 "$T_PID" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}

# reap_measure TRIES: waits for T_PID (its status in T_RC), killing it when
# the tries (a guard against a hang) run out
reap_measure() {
	local i
	for ((i = 0; i < $1; i++)); do
		kill -0 "$T_PID" 2>/dev/null || break
		sleep 0.1
	done
	kill -0 "$T_PID" 2>/dev/null && kill -s KILL "$T_PID"
	# braces: bash's own "Killed" line goes with wait's stderr
	{ wait "$T_PID"; } 2>/dev/null
	T_RC=$?
}

# killed_measure WHAT: a measurement killed with -9 while the better
# scheduler is in place, its journal left; 1 (after check_fail) when not
killed_measure() {
	if ! start_measure "$T_DIR/k.out" "$T_DIR/k.err"; then
		check_fail "$1: check --measure never began a better trial: $(tail -n 5 "$T_DIR/k.err")"
		reap_measure 10
		return 1
	fi
	kill -s KILL "$T_PID"
	reap_measure 100 2>/dev/null
	if [ "$(sched_of "$q")" != none ] || [ ! -f "$J" ]; then
		check_fail "$1: after kill -9 the scheduler is $(sched_of "$q") (want none still), journal: $(cat "$J" 2>&1)"
		return 1
	fi
}

# not_applied WHAT PATTERN: a check (no --measure) with the journal of a
# killed measurement that must not be applied says PATTERN in a line,
# writes nothing (the scheduler stays none), and removes the journal
not_applied() {
	run_iostorm check "$dev"
	[[ $T_RC =~ ^[03]$ ]] || { check_fail "$1: check exited $T_RC, want 0 or 3"; show_output; }
	grep -Eq -- "$2" "$T_ERR" || { check_fail "$1: check did not say /$2/"; show_output; }
	! grep -q "put back [1-9]" "$T_ERR" || check_fail "$1: check put something back: $(cat "$T_ERR")"
	[ "$(sched_of "$q")" = none ] || check_fail "$1: the scheduler was written: $(sched_of "$q"), want none still"
	[ ! -e "$J" ] || check_fail "$1: the journal is left: $(cat "$J")"
}

# ---- (a) a whole measurement ----
rounds=2
run_iostorm check --measure --rounds $rounds --time 200ms --ramp 0 --qd 4 \
	--json "$T_DIR/a.json" "$dev"
if [ "$T_RC" -ne 3 ]; then
	check_fail "(a) check --measure exited $T_RC, want 3 (settings cost IOPS)"
	show_output
elif ! jq -e --arg dev "$name" --argjson r $rounds --argjson alpha 0.05 '
	def num: type == "number";
	.measured as $m |
	def row(k; now; better; qd): [.measured[] | select(.kind == k and .qd == qd
		and .device == $dev and .now == now and .better == better)] | length == 1;
	(.measured | type == "array")
	and all(.measured[]; (.device|type == "string") and (.kind|type == "string")
		and (.qd|num) and (.now|type == "string") and (.better|type == "string")
		and (.iops_now | length == $r and all(.[]; num and . > 0))
		and (.iops_better | length == $r and all(.[]; num and . > 0))
		and (.diff_pct|num)
		# the paired test of the rounds: the change inside its interval,
		# p and the Holm p in [0,1], never below p, and the verdict from
		# the Holm p and the sign of the change
		and (.diff_pct_ci | length == 2 and (.[0]|num) and (.[1]|num or . == null))
		and .diff_pct_ci[0] <= .diff_pct and (.diff_pct_ci[1] == null or .diff_pct <= .diff_pct_ci[1])
		and (.p|num) and .p >= 0 and .p <= 1
		and (.p_holm|num) and .p_holm >= .p and .p_holm <= 1
		and (.noise_pct|num) and .noise_pct >= 0
		and .verdict == (if .p_holm >= $alpha then "no_difference"
			elif .diff_pct > 0 then "better" else "worse" end))
	and (.measured_test | .estimator == "amean" and .test == "paired" and .adjust == "holm"
		and .alpha == $alpha and .tests == ($m | length))
	# Holm: the smallest p times the family, and never below the one before
	and ($m | min_by(.p) | .p_holm - ([1, ($m | length) * .p] | min) | fabs < 1e-9)
	and ([$m | sort_by(.p)[] | .p_holm] as $h | $h == ($h | sort))
	and row("scheduler"; "mq-deadline"; "none"; 4) and row("scheduler"; "mq-deadline"; "none"; 1)
	and row("iostats"; "1"; "0"; 4) and row("iostats"; "1"; "0"; 1)
	' "$T_DIR/a.json" >/dev/null; then
	check_fail "(a) the JSON's measured rows: $(jq -c '[.measured, .measured_test]' "$T_DIR/a.json" 2>&1 | head -c 2000)"
else
	# a line as each trial starts, "K/N DEV KIND VALUE (now|better) at QDd":
	# N of them, numbered in order, N = rows x rounds x 2
	rows=$(jq '.measured | length' "$T_DIR/a.json")
	n=$(grep -Ec "^iostorm check: [0-9]+/[0-9]+ $name " "$T_ERR")
	[ "$n" -eq $((rows * rounds * 2)) ] ||
		check_fail "(a) $n trial lines, want $((rows * rounds * 2)) ($rows rows x $rounds rounds x 2)"
	seq=$(grep -Eo "^iostorm check: [0-9]+/" "$T_ERR" | grep -Eo '[0-9]+' | tr '\n' ' ')
	[ "$seq" = "$(seq -s ' ' 1 "$n") " ] || check_fail "(a) trials not numbered in order: $seq"
	# ABBA: the iostats row at QD4 is now, better, better, now
	order=$(grep -E " $name iostats .* at QD4$" "$T_ERR" | grep -Eo '\((now|better)\)' | tr -d '()' | tr '\n' ' ')
	[ "$order" = "now better better now " ] || check_fail "(a) iostats at QD4 ran in the order '$order', want ABBA"
	# the table: a row per setting and depth, each ending with its verdict
	# as the JSON says it; the head names the test and the correction
	for k in scheduler iostats; do
		[ "$(grep -Ec "^$name +$k +" "$T_OUT")" -eq 2 ] ||
			check_fail "(a) the table has no two rows (QD4, QD1) for $k"
		for qd in 4 1; do
			v=$(jq -r --arg k $k --argjson qd $qd '.measured[] | select(.kind == $k and .qd == $qd)
				| .verdict | sub("_"; " ")' "$T_DIR/a.json")
			grep -Eq "^$name +$k +[^ ]+ +[^ ]+ +$qd .* $v$" "$T_OUT" ||
				check_fail "(a) the table's $k row at QD$qd does not end with its verdict '$v'"
		done
	done
	grep -q "paired t-test of the rounds.*Holm's p < 0.05 over the $rows tests of this session" "$T_OUT" ||
		check_fail "(a) the table does not say how it judges: $(grep -i holm "$T_OUT")"
fi
same_settings "(a) after check --measure"
[ ! -e "$J" ] || check_fail "(a) the journal $J is left after a measurement that ended"
# one round: the change without a test, said so
run_iostorm check --measure --rounds 1 --time 100ms --ramp 0 --qd 1 --json "$T_DIR/a1.json" "$dev"
[ "$T_RC" -eq 3 ] && jq -e '(.measured | length > 0) and .measured_test.tests == 0
	and all(.measured[]; .verdict == "untested" and .diff_pct_ci == null and .p == null
		and .p_holm == null and (.diff_pct | type == "number"))' "$T_DIR/a1.json" >/dev/null &&
	grep -q "^untested: one round has no test" "$T_OUT" ||
	{ check_fail "(a) one round: exit $T_RC, $(jq -c '[.measured, .measured_test]' "$T_DIR/a1.json" 2>&1 | head -c 1000)"; show_output; }
same_settings "(a) after one round"

# ---- (b) SIGINT while the better scheduler is in place ----
if start_measure "$T_DIR/b.out" "$T_DIR/b.err"; then
	[ "$(sched_of "$q")" = none ] || check_fail "(b) the trial line came before the setting (scheduler $(sched_of "$q"))"
	[ -f "$J" ] || check_fail "(b) no journal while a setting is changed"
	grep -q "^set $name scheduler mq-deadline$" "$J" 2>/dev/null ||
		check_fail "(b) the journal does not hold the old scheduler: $(cat "$J" 2>&1)"
	grep -q "^also $name nr_requests 64$" "$J" 2>/dev/null ||
		check_fail "(b) the journal does not hold nr_requests beside the scheduler"
	# the disk named by what identifies it, and the boot
	grep -qxF "disk $name $(readlink -f "/sys/block/$name" | sed 's|^/sys/||') $(cat "/sys/block/$name/dev") diskseq $(cat "/sys/block/$name/diskseq" 2>/dev/null || echo -)" "$J" ||
		check_fail "(b) the journal does not identify $name by path, dev_t and diskseq: $(cat "$J" 2>&1)"
	grep -qxF "boot $(cat /proc/sys/kernel/random/boot_id)" "$J" ||
		check_fail "(b) the journal does not name this boot"
	# another iostorm started now must leave a live measurement's journal alone
	run_iostorm nop --ios 10 -q
	[ "$T_RC" -eq 0 ] || check_fail "(b) nop beside a measurement exited $T_RC"
	! grep -q "put back" "$T_ERR" || check_fail "(b) nop put back a live measurement's settings: $(cat "$T_ERR")"
	run_iostorm check "$dev"
	grep -q "a 'check --measure' runs (pid $T_PID)" "$T_ERR" ||
		check_fail "(b) a check beside a measurement did not name it: $(cat "$T_ERR")"
	! grep -q "put back [0-9]" "$T_ERR" || check_fail "(b) check put back a live measurement's settings: $(cat "$T_ERR")"
	[ "$(sched_of "$q")" = none ] || check_fail "(b) another iostorm changed the scheduler under a measurement"
	kill -s INT "$T_PID"
	reap_measure 600
	[[ $T_RC =~ ^[03]$ ]] || check_fail "(b) interrupted check --measure exited $T_RC, want 0 or 3"
	grep -q "INTERRUPTED" "$T_DIR/b.out" || check_fail "(b) the table does not say it was interrupted"
	same_settings "(b) after SIGINT"
	[ ! -e "$J" ] || check_fail "(b) the journal is left after SIGINT: $(cat "$J")"
else
	check_fail "(b) check --measure never began a better trial: $(tail -n 5 "$T_DIR/b.err")"
	reap_measure 10
fi

# ---- (lock) a second --measure while the first has changed nothing yet ----
# The first trial is A, the setting as it is: no journal exists then, so
# only the session's lock can tell the second one that a measurement runs.
if start_measure "$T_DIR/l.out" "$T_DIR/l.err" now; then
	[ ! -e "$J" ] || check_fail "(lock) a journal exists before anything changed: $(cat "$J")"
	expect_error "(lock) a second --measure" 1 "^iostorm check: another 'check --measure' runs \(pid $T_PID\)" \
		check --measure --rounds 1 --time 100ms --ramp 0 "$dev"
	kill -s INT "$T_PID"
	reap_measure 600
	same_settings "(lock) after both"
else
	check_fail "(lock) check --measure never began its first trial: $(tail -n 5 "$T_DIR/l.err")"
	reap_measure 10
fi

# ---- (c) kill -9 there, then other commands, then check ----
if killed_measure "(c)"; then
	run_iostorm nop --ios 10 -q
	[ "$T_RC" -eq 0 ] || check_fail "(c) nop after the kill exited $T_RC"
	run_iostorm --complete check --me
	run_iostorm --complete run --qd ''
	# a check of a recorded machine says nothing of this one, nor writes it
	IOSTORM_SYSFS_ROOT=$IOSTORM_SRC/tests/fixtures/setup-strict/sys \
		IOSTORM_PROCFS_ROOT=$IOSTORM_SRC/tests/fixtures/setup-strict/proc run_iostorm check
	! grep -q "put back" "$T_ERR" || check_fail "(c) a check of a recorded tree recovered: $(cat "$T_ERR")"
	[ "$(sched_of "$q")" = none ] && [ -f "$J" ] ||
		check_fail "(c) a command other than check put the journal back (scheduler $(sched_of "$q"))"
	run_iostorm check "$dev"
	[[ $T_RC =~ ^[03]$ ]] || check_fail "(c) check after the kill exited $T_RC, want 0 or 3"
	msg="iostorm check: put back 1 setting an interrupted 'check --measure' left changed (journal $J)"
	[ "$(grep -cxF "$msg" "$T_ERR")" -eq 1 ] || {
		check_fail "(c) check did not say once: $msg"
		show_output
	}
	same_settings "(c) after check"
	[ ! -e "$J" ] || check_fail "(c) the journal is left after check put it back"
	run_iostorm check "$dev"
	! grep -q "put back" "$T_ERR" || check_fail "(c) a second check put back again: $(cat "$T_ERR")"
fi

# ---- (d) a journal that cannot be put back ----
mkdir -p "${J%/*}"
printf 'iostorm settings journal 2\nboot %s\ndisk %s %s %s diskseq %s\nset %s scheduler no-such-elevator\n' \
	"$(cat /proc/sys/kernel/random/boot_id)" "$name" "$(readlink -f "/sys/block/$name" | sed 's|^/sys/||')" \
	"$(cat "/sys/block/$name/dev")" "$(cat "/sys/block/$name/diskseq" 2>/dev/null || echo -)" "$name" >"$J"
chmod 600 "$J"
run_iostorm nop --ios 10 -q
[ "$T_RC" -eq 0 ] || check_fail "(d) nop with a journal that cannot be put back exited $T_RC, want 0"
[ ! -s "$T_ERR" ] || check_fail "(d) nop looked at the journal: $(cat "$T_ERR")"
run_iostorm check --restore
[ "$T_RC" -eq 1 ] || check_fail "(d) check --restore of a journal that cannot be put back exited $T_RC, want 1"
grep -q "^iostorm check: cannot put back the settings an interrupted 'check --measure' left changed on $name (journal $J)" "$T_ERR" ||
	check_fail "(d) check --restore did not say the journal could not be put back: $(cat "$T_ERR")"
[ -f "$J" ] || check_fail "(d) a journal that could not be put back was removed"
run_iostorm check --measure --rounds 1 --time 100ms --ramp 0 "$dev"
[ "$T_RC" -eq 1 ] || check_fail "(d) check --measure with a journal left there exited $T_RC, want 1"
grep -q "journal of changed settings $J is there" "$T_ERR" ||
	check_fail "(d) check --measure did not name the journal in its way: $(cat "$T_ERR")"
! grep -Eq "[0-9]+/[0-9]+ $name " "$T_ERR" || check_fail "(d) check --measure ran trials with a journal left there"
same_settings "(d) with a journal left there"
# a setting of a disk the journal does not identify, and a journal of the
# format before disks were identified: said, kept, nothing written
printf 'iostorm settings journal 2\nboot %s\nset %s scheduler none\n' \
	"$(cat /proc/sys/kernel/random/boot_id)" "$name" >"$J"
run_iostorm check --restore
[ "$T_RC" -eq 1 ] && grep -q "(journal $J): Bad message$" "$T_ERR" ||
	{ check_fail "(d) a setting of an unidentified disk: exit $T_RC, want 1 and the journal refused"; show_output; }
# a disk identified, then a line that is no setting
printf 'iostorm settings journal 2\nboot %s\ndisk %s %s %s diskseq %s\nset %s scheduler\n' \
	"$(cat /proc/sys/kernel/random/boot_id)" "$name" "$(readlink -f "/sys/block/$name" | sed 's|^/sys/||')" \
	"$(cat "/sys/block/$name/dev")" "$(cat "/sys/block/$name/diskseq" 2>/dev/null || echo -)" "$name" >"$J"
run_iostorm check --restore
[ "$T_RC" -eq 1 ] && grep -q "(journal $J): Bad message$" "$T_ERR" ||
	{ check_fail "(d) a bad line after a disk's: exit $T_RC, want 1 and the journal refused"; show_output; }
printf 'iostorm settings journal 1\nroot /sys\nset %s scheduler none\n' "$name" >"$J"
run_iostorm check --restore
[ "$T_RC" -eq 1 ] && grep -q "^iostorm check: the journal $J is an older iostorm's, which named disks by name only: not applied" "$T_ERR" ||
	{ check_fail "(d) a version 1 journal: exit $T_RC, want 1 and it said as older"; show_output; }
[ -f "$J" ] || check_fail "(d) the version 1 journal was removed"
same_settings "(d) after journals that are not applied"
rm -f "$J"

# ---- (e) the journal is on disk before the first change ----
if command -v strace >/dev/null 2>&1; then
	strace -f -qq -o "$T_DIR/trace" -e trace=openat,fsync,link \
		timeout -k 5 "$T_RUN_GUARD" "$IOSTORM" check --measure --rounds 1 --time 100ms --ramp 0 --qd 1 "$dev" \
		>/dev/null 2>&1 </dev/null
	# the first open of a queue file for writing comes after the journal's
	# fsync and its link to its name
	if ! awk -v j="\"$J\"" '
		/fsync\(/ { synced = 1 }
		/link\(/ && index($0, j) { linked = synced }
		/openat\(.*\/queue\/.*O_WRONLY/ { exit !(linked) }
		END { }' "$T_DIR/trace"; then
		check_fail "(e) a queue setting was opened for writing before the journal was synced and linked"
	fi
	grep -q "/queue/.*O_WRONLY" "$T_DIR/trace" || check_fail "(e) the trace shows no queue setting written"
	grep "/queue/.*O_WRONLY" "$T_DIR/trace" | grep -vq O_NOFOLLOW &&
		check_fail "(e) a queue setting was opened for writing without O_NOFOLLOW"
	same_settings "(e) after the traced measurement"
elif [ "${CI:-}" = true ]; then
	# CI installs strace (.ci/run): without it this check would silently go
	check_fail "(e) no strace under CI: the journal's order before the first change is unchecked"
else
	echo "note: no strace: the order of the journal's sync and the first change is not checked"
fi

# ---- (f) a journal from another boot ----
if killed_measure "(f)"; then
	sed -i 's/^boot .*/boot 00000000-0000-4000-8000-000000000000/' "$J"
	not_applied "(f) another boot" "journal $J is from another boot \(00000000-0000-4000-8000-000000000000\).*not applied, removed"
fi
prepare

# ---- (g) the disk detached and another attached under its name ----
if killed_measure "(g)"; then
	back=$(losetup -nO BACK-FILE "$dev")
	seq0=$(cat "/sys/block/$name/diskseq")
	# a device still open (the killed run's rings are torn down by the
	# kernel after the process is gone) is only marked to detach at its
	# last close: attach again once it has gone (the wait guards a hang)
	losetup -d "$dev" || fail "(g) cannot detach $dev"
	for ((i = 0; i < T_TRIES; i++)); do
		[ -e "/sys/block/$name/loop/backing_file" ] || break
		sleep 0.1
	done
	{ losetup --direct-io=on "$dev" "$back" 2>/dev/null || losetup "$dev" "$back"; } ||
		fail "(g) cannot attach $back to $dev again"
	[ "$(cat "/sys/block/$name/diskseq")" != "$seq0" ] || fail "(g) attaching $dev again kept its diskseq $seq0"
	not_applied "(g) a new diskseq" "^iostorm check: $name is not the disk the journal $J names \(its diskseq: $seq0 then, [0-9]+ now\): its 1 setting was not put back$"
fi
prepare

# ---- (h) the disk's dev_t changed ----
if killed_measure "(h)"; then
	sed -i "s/^\(disk $name [^ ]*\) [0-9]*:[0-9]* /\1 7:99999 /" "$J"
	not_applied "(h) a new dev_t" "^iostorm check: $name is not the disk the journal $J names \(its device number: 7:99999 then, $(cat "/sys/block/$name/dev") now\)"
fi
prepare

# ---- (i) refused before anything: no target; a redirected sysfs ----
expect_error "(i) --measure without a target" 2 "^iostorm check: --measure changes the settings of the targets it is given: name them$" \
	check --measure --time 100ms
mkdir -p "$T_DIR/fake/block/$name/queue"
echo '[mq-deadline] none' >"$T_DIR/fake/block/$name/queue/scheduler"
echo 1 >"$T_DIR/fake/block/$name/queue/iostats"
IOSTORM_SYSFS_ROOT=$T_DIR/fake expect_error "(i) --measure on a recorded tree" 2 \
	"^iostorm check: --measure writes to this machine's /sys, and IOSTORM_SYSFS_ROOT points at another tree$" \
	check --measure --time 100ms "$dev"
[ "$(cat "$T_DIR/fake/block/$name/queue/iostats")" = 1 ] || check_fail "(i) the recorded tree was written"
[ ! -e "$J" ] || check_fail "(i) a refused --measure made a journal"
same_settings "(i) after the refusals"

# ---- (j), (k) a queue file that is a link, or not sysfs ----
# in_own_queue DIR ARGS...: iostorm ARGS in a private mount namespace
# where DIR is bound over the loop device's queue/ (gone with it)
in_own_queue() {
	local d=$1
	shift
	timeout -k 5 "$T_RUN_GUARD" unshare -m sh -c 'mount --bind "$1" "$2" && shift 2 && exec "$@"' \
		sh "$d" "$(readlink -f "$q")" "$IOSTORM" "$@" >"$T_OUT" 2>"$T_ERR" </dev/null
	T_RC=$?
}
if command -v unshare >/dev/null 2>&1 && unshare -m true 2>/dev/null; then
	make_loop dev2 16
	q2=/sys/block/${dev2#/dev/}/queue
	T_SYSFS+=("$q2/iostats $(cat "$q2/iostats")")
	echo 1 >"$q2/iostats" || fail "cannot set iostats on $dev2"
	mkdir -p "$T_DIR/lq" "$T_DIR/tq"
	echo '[none] mq-deadline' >"$T_DIR/lq/scheduler"
	ln -s "$q2/iostats" "$T_DIR/lq/iostats"
	in_own_queue "$T_DIR/lq" check --measure --rounds 1 --time 100ms --ramp 0 --qd 1 "$dev"
	[ "$T_RC" -eq 1 ] || { check_fail "(j) --measure through a linked queue file exited $T_RC, want 1"; show_output; }
	grep -q "^iostorm check: $name: queue/iostats is a symbolic link: not written$" "$T_ERR" ||
		{ check_fail "(j) --measure did not say the link is not written"; show_output; }
	[ "$(cat "$q2/iostats")" = 1 ] || check_fail "(j) the write went through the link to ${dev2#/dev/}'s iostats"
	rm -f "$J"
	echo '[none] mq-deadline' >"$T_DIR/tq/scheduler"
	echo 1 >"$T_DIR/tq/iostats"
	in_own_queue "$T_DIR/tq" check --measure --rounds 1 --time 100ms --ramp 0 --qd 1 "$dev"
	[ "$T_RC" -eq 1 ] || { check_fail "(k) --measure on a queue file outside sysfs exited $T_RC, want 1"; show_output; }
	grep -q "^iostorm check: $name: queue/iostats is not a sysfs file: not written$" "$T_ERR" ||
		{ check_fail "(k) --measure did not say the file is not sysfs"; show_output; }
	[ "$(cat "$T_DIR/tq/iostats")" = 1 ] || check_fail "(k) a file outside sysfs was written"
	rm -f "$J"
	same_settings "(j, k) after both"
elif [ "${CI:-}" = true ]; then
	check_fail "(j, k) no private mount namespace under CI: links and non-sysfs files unchecked"
else
	echo "note: no unshare -m here: (j) and (k) not checked"
fi
t_done
