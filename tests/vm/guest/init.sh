#!/bin/sh
# The guest's /init: mounts the kernel's file systems, loads the nvme driver
# (poll_queues, and multipath for nvme_core, from the kernel command line),
# waits for every namespace the layout describes, then runs /guest/test.sh
# (results out on the second serial port) or a shell on the console, and
# powers off.
/bin/busybox --install -s /bin
export PATH=/bin:/sbin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/pts
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /tmp
mkdir -p /etc

arg() {
	tr ' ' '\n' </proc/cmdline | sed -n "s/^$1=//p" | tail -n 1
}
poll=$(arg vm_poll)
want=$(arg vm_drives)
mode=$(arg vm_mode)
mpath=$(arg vm_mpath)

for m in $(cat /lib/modules/modules.order); do
	if [ "$m" = nvme ] && [ -n "$poll" ] && [ "$poll" != 0 ]; then
		insmod "/lib/modules/$m.ko" "poll_queues=$poll"
	elif [ "$m" = nvme_core ] && [ "$mpath" = 0 ]; then
		# no multipath namespace in the layout (run.sh says why)
		insmod "/lib/modules/$m.ko" multipath=N
	else
		insmod "/lib/modules/$m.ko"
	fi
done

stty -F /dev/ttyS1 raw -echo 2>/dev/null
. /guest/lib.sh
i=0
while [ "$(vm_ndrives)" -lt "${want:-0}" ] && [ $i -lt 200 ]; do
	sleep 0.1
	i=$((i + 1))
done
vm_map_drives

if [ "$mode" = shell ]; then
	echo "iostorm guest: $(uname -r), drives:"
	vm_drive_table
	echo "iostorm is /bin/iostorm; \$(dev NAME) is a drive's device; poweroff -f (or Ctrl-A X) ends the guest"
	echo ". /guest/lib.sh" >/etc/profile
	setsid cttyhack sh -l
else
	cd /tmp
	echo "@@BOOTED" >/dev/ttyS1
	sh -c '. /guest/lib.sh && . /guest/test.sh' >/results/test.log 2>&1
	echo $? >/results/test.rc
	vm_send_results
fi
poweroff -f
