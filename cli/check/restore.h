/* iostorm check's part in keeping --measure from hurting: the session lock
 * (one measurement at a time, the second refused with the first one's
 * pid) and the recovery of what a measurement that died left changed,
 * which runs from `check` and `check --restore` only. */
#ifndef CLI_CHECK_RESTORE_H
#define CLI_CHECK_RESTORE_H

#include "setup/knob.h"

/* Takes the session lock for a --measure: 0, or -EBUSY (said, naming the
 * holder's pid) or -errno (said). */
int cli_check_lock(struct setup_lock *l);

/*
 * Puts back what a 'check --measure' that died left changed, on the disks
 * that are still the ones its journal names, saying what it did and did
 * not do. l: the session lock when the caller holds it (--measure), else
 * NULL, and it is taken here while the journal is read (a live
 * measurement's journal is its own: -EBUSY, said). 0 when there was
 * nothing to do or everything that could go back went back (a disk gone
 * or changed took its settings with it; a journal of another boot is
 * void), -errno (said) when something could not, the journal then kept.
 */
int cli_check_recover(const struct setup_lock *l);

#endif
