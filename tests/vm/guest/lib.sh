# Guest-side helpers, sourced by /init and by each test's guest script.
# Results go to /results: one NAME.rc, NAME.out, NAME.err per step, packed
# and sent to the host over the second serial port when the test ends.

# Namespaces present: block devices nvmeXnY (not the hidden per-path
# nvmeXcYnZ of a multipath namespace).
vm_ndrives() {
	ls /sys/block 2>/dev/null | grep -cE '^nvme[0-9]+n[0-9]+$'
}

# /dev/vm/NAME -> /dev/nvmeXnY for each namespace, NAME being the serial
# number the layout gave its controller (the same for every controller of a
# multipath subsystem).
vm_map_drives() {
	local b s
	mkdir -p /dev/vm
	for b in $(ls /sys/block | grep -E '^nvme[0-9]+n[0-9]+$'); do
		s=$(cat "/sys/block/$b/device/serial" 2>/dev/null || true)
		s=$(echo $s)
		[ -n "$s" ] && ln -sf "/dev/$b" "/dev/vm/$s"
	done
}

vm_drive_table() {
	local l
	for l in /dev/vm/*; do
		[ -e "$l" ] && echo "  ${l##*/} = $(readlink "$l")"
	done
}

# dev NAME: the kernel's device for the layout's drive NAME.
dev() {
	readlink "/dev/vm/$1" || { echo "no drive named $1" >&2; echo "/dev/vm-missing-$1"; }
}

# step NAME CMD...: runs CMD, keeps its exit status, stdout and stderr.
step() {
	local name=$1
	shift
	"$@" >"/results/$name.out" 2>"/results/$name.err" </dev/null
	echo $? >"/results/$name.rc"
}

# keep NAME CMD...: keeps only CMD's stdout (as NAME), for facts read back.
keep() {
	local name=$1
	shift
	"$@" >"/results/$name" 2>&1
}

# mark TEXT: a line the host can wait for while the test runs.
mark() {
	echo "@@MARK $*" >/dev/ttyS1
}

vm_send_results() {
	dmesg >/results/dmesg.log 2>&1
	{
		echo "@@RESULTS-BEGIN"
		tar -C /results -cf - . | gzip | base64
		echo "@@RESULTS-END"
	} >/dev/ttyS1
	sync
}
