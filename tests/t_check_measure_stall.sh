# A recovery never hangs on a stalled queue: a 'check --measure' on a loop
# device over a fault file (tests/fusefault.c) is killed with -9 while its
# better scheduler (none) is in place; then the device's reads are held,
# one of them in flight, so putting mq-deadline back (a scheduler switch
# freezes the queue and waits for its IOs in flight) cannot finish. check
# --restore ends on its own, names the device and the stalled queue, exits
# 1 and keeps the journal; once the reads are answered, the next check
# --restore finds the setting back (the write that waited landed) or puts
# it back, and the journal goes. No wait here is a measure: each is a
# guard against a hang, and held reads are always answered (watchdog,
# EXIT trap).
. "$(dirname "$0")/lib.sh"
need_iostorm

make_fault_loop dev ctl 16
name=${dev#/dev/}
q=/sys/block/$name/queue
export IOSTORM_JOURNAL=$T_DIR/run/settings.journal
J=$IOSTORM_JOURNAL

T_SYSFS+=("$q/scheduler $(sched_of "$q")")
echo mq-deadline >"$q/scheduler" 2>/dev/null
[ "$(sched_of "$q")" = mq-deadline ] || skip "no mq-deadline scheduler for $name on this kernel"

"$IOSTORM" check --measure --rounds 1 --time 1s --ramp 0 --qd 1 "$dev" \
	>"$T_DIR/m.out" 2>"$T_DIR/m.err" </dev/null &
pid=$!
for ((i = 0; i < T_TRIES; i++)); do
	grep -qF "$name scheduler none (better)" "$T_DIR/m.err" 2>/dev/null && break
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.1
done
kill -s KILL "$pid" 2>/dev/null
{ wait "$pid"; } 2>/dev/null
[ "$(sched_of "$q")" = none ] && [ -f "$J" ] ||
	fail "the killed measurement left no changed scheduler and journal: $(sched_of "$q"); $(tail -n 3 "$T_DIR/m.err")"

# a read held in flight on the device, answered by the watchdog at worst
echo hang >"$ctl"
dd if="$dev" of=/dev/null bs=4k count=1 iflag=direct 2>/dev/null &
reader=$!
(sleep "$T_RUN_GUARD" && echo ok >"$ctl" 2>/dev/null) &
dog=$!
await_fault "$ctl" held 1 "$T_TRIES" || check_fail "the device never held the read"

run_iostorm check --restore
[ "$T_RC" -eq 1 ] || { check_fail "check --restore on a stalled queue exited $T_RC, want 1"; show_output; }
grep -q "^iostorm check: $name: the kernel did not take a setting within [0-9]* s (a stalled queue?): its settings were not all put back (journal $J)$" "$T_ERR" ||
	{ check_fail "check --restore did not name the stalled queue"; show_output; }
[ -f "$J" ] || check_fail "the journal went although its setting was not put back"
[ "$(fault_count "$ctl" held)" -gt 0 ] || check_fail "the read was answered before check --restore ended"

echo ok >"$ctl"
wait "$reader"
kill "$dog" 2>/dev/null
wait "$dog" 2>/dev/null
run_iostorm check --restore
[ "$T_RC" -eq 0 ] || { check_fail "check --restore once the queue drained exited $T_RC, want 0"; show_output; }
[ "$(sched_of "$q")" = mq-deadline ] || check_fail "the scheduler is $(sched_of "$q") once the queue drained, want mq-deadline"
[ ! -e "$J" ] || check_fail "the journal is left once everything is back: $(cat "$J")"
t_done
