/* Loop devices get LO_FLAGS_AUTOCLEAR and a read-only file descriptor, so
 * even a SIGKILL of the process leaves no loop device behind (the kernel
 * detaches it when our descriptors close), and nothing can write through
 * it. */
#include "engine/loopdev.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

static int attach(int loop_fd, int file_fd, const char *file)
{
	struct loop_config cfg;
	struct loop_info64 info;

	memset(&cfg, 0, sizeof(cfg));
	cfg.fd = (unsigned)file_fd;
	cfg.info.lo_flags = LO_FLAGS_READ_ONLY | LO_FLAGS_AUTOCLEAR;
	snprintf((char *)cfg.info.lo_file_name, LO_NAME_SIZE, "%s", file);
	if (!ioctl(loop_fd, LOOP_CONFIGURE, &cfg))
		return 0;
	if (errno != EINVAL && errno != ENOTTY)
		return -errno;
	/* kernels before 5.8: the two-step way */
	if (ioctl(loop_fd, LOOP_SET_FD, file_fd))
		return -errno;
	memset(&info, 0, sizeof(info));
	info.lo_flags = LO_FLAGS_AUTOCLEAR;
	snprintf((char *)info.lo_file_name, LO_NAME_SIZE, "%s", file);
	if (ioctl(loop_fd, LOOP_SET_STATUS64, &info)) {
		int err = -errno;

		ioctl(loop_fd, LOOP_CLR_FD, 0);
		return err;
	}
	return 0;
}

int eng_loopdev_attach(const char *file, char *dev, size_t devlen)
{
	int ctl, nr, lfd = -1, ffd, err = -EBUSY, tries;
	char path[32];

	ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	if (ctl < 0)
		return -errno;
	/* read-only all the way: the kernel makes a loop device read-only when
	 * its file or its own descriptor was opened so, also before 5.8 where
	 * LO_FLAGS_READ_ONLY cannot be asked for */
	ffd = open(file, O_RDONLY | O_CLOEXEC);
	if (ffd < 0) {
		err = -errno;
		close(ctl);
		return err;
	}
	for (tries = 0; tries < 5 && err == -EBUSY; tries++) {
		nr = ioctl(ctl, LOOP_CTL_GET_FREE);
		if (nr < 0) {
			err = -errno;
			break;
		}
		snprintf(path, sizeof(path), "/dev/loop%d", nr);
		lfd = open(path, O_RDONLY | O_CLOEXEC);
		if (lfd < 0) {
			err = -errno;
			break;
		}
		err = attach(lfd, ffd, file);
		if (err) {
			close(lfd);
			lfd = -1;
		}
	}
	close(ffd);
	close(ctl);
	if (err)
		return err;
	snprintf(dev, devlen, "%s", path);
	return lfd;
}

void eng_loopdev_detach(int fd)
{
	/* with AUTOCLEAR this detaches at our last close anyway; while udev
	 * still holds the device open the kernel only marks it, so it goes
	 * when udev lets go */
	ioctl(fd, LOOP_CLR_FD, 0);
	close(fd);
}
