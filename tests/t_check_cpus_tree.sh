# --cpus on a recorded machine: IOSTORM_SYSFS_ROOT's tree answers which
# CPUs exist, as the live machine would, whether it has more CPUs than the
# machine the test runs on or fewer. check takes --cpus and does no IO.
. "$(dirname "$0")/lib.sh"
need_iostorm

fx=$(cd "$(dirname "$0")" && pwd)/fixtures

# on_tree NAME ARGS...: iostorm ARGS with the recorded machine NAME's roots
on_tree() {
	local r=$fx/$1
	shift
	IOSTORM_SYSFS_ROOT=$r/sys IOSTORM_PROCFS_ROOT=$r/proc "$@"
}

# check-dc has CPUs 0-3: all four are taken, even where this machine has
# fewer; the fifth is refused, even where this machine has it
[ "$(cat "$fx/check-dc/sys/devices/system/cpu/online")" = "0-3" ] ||
	fail "check-dc's fixture no longer has CPUs 0-3"
for c in 3 0-3 2,0; do
	on_tree check-dc run_iostorm check --cpus "$c"
	# 3: findings, as check says of this tree without --cpus
	[ "$T_RC" -eq 3 ] || { check_fail "check-dc: --cpus $c: exit $T_RC, want 3"; show_output; }
done
on_tree check-dc expect_error "check-dc: --cpus 4" 2 \
	"--cpus: CPU 4 is not online on the recorded machine at .*/check-dc/sys \(its CPUs: 0-3\)" \
	check --cpus 4
on_tree check-dc expect_error "check-dc: --cpus 0-1,9" 2 "--cpus: CPU 9 is not online" \
	check --cpus 0-1,9

# queues-multipath has CPUs 0-1
on_tree queues-multipath expect_error "queues-multipath: --cpus 2" 2 \
	"--cpus: CPU 2 is not online on the recorded machine .*\(its CPUs: 0-1\)" check --cpus 2
on_tree queues-multipath run_iostorm check --cpus 1
[ "$T_RC" -eq 0 ] || [ "$T_RC" -eq 3 ] ||
	{ check_fail "queues-multipath: --cpus 1: exit $T_RC, want 0 or 3"; show_output; }

# a tree that cannot say is refused, not checked against this machine
IOSTORM_SYSFS_ROOT=$T_DIR/none expect_error "no tree" 2 \
	"--cpus: cannot read the CPUs of the recorded machine at .*/none" check --cpus 0

t_done
