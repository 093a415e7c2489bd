/* Loop devices made for a run: a read-only loop device on a file, gone
 * when its last descriptor closes. Never prints; returns an fd, 0 or
 * -errno. */
#ifndef ENG_LOOPDEV_H
#define ENG_LOOPDEV_H

#include <stddef.h>

/* A free loop device attached read-only to file, with autoclear: its open
 * descriptor, kept open while the device is used, and its path in dev
 * ("/dev/loop3", written only then). Retries when another process takes
 * the free device first. -errno of /dev/loop-control, of file or of the
 * attaching ioctls (-EBUSY: the free device was taken five times). The
 * file may be unlinked once this returns: the device holds it. */
int eng_loopdev_attach(const char *file, char *dev, size_t devlen);
/* Detaches the device of fd (from eng_loopdev_attach) and closes fd. The
 * kernel lets the device go a moment later, once udev and any other
 * opener close it too. */
void eng_loopdev_detach(int fd);

#endif
