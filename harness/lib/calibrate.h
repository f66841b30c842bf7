/*
 * calibrate.h - `cachepressure calibrate`: measure this machine for the
 * model's machine profile (profiles/<name>.ini, [machine] [cpu] [device]
 * [readahead]).
 *
 * Measured on a filesystem of its own (sparse image, loop device with
 * direct I/O, mkfs.xfs, mounted noatime, all named cachepressure-* and
 * removed afterwards): the cached read rate (1 MiB read()s of a cached
 * 1 GiB file), the device read rate (two buffered readahead streams over
 * the uncached file at once), the write rate (1 MiB O_DIRECT) and
 * latencies (4 KiB O_DIRECT at random offsets, one at a time), the fixed
 * cost of a read() call, fs_mark's create rate for empty files (one
 * worker, -S 0), and the machine's CPUs, memory, zones and watermark
 * settings from /proc and /sys. Keys it cannot measure are left for the
 * caller to copy from a source profile.
 *
 * Inside a kernel-lab guest (--guest-disk, guarded as for `real`, see
 * guest.h) the filesystem is the xfs the host made on the virtio disk:
 * no image, loop device or mkfs; `calibrate --kernel` on the host
 * (labcal.h) boots that guest and merges its profile.
 */
#ifndef CP_CALIBRATE_H
#define CP_CALIBRATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "opts.h"

struct cp_diag;

#define CP_CALIB_MAX 40

/* One key of the profile. */
struct cp_calib_value {
	const char *section;  /* "machine", "cpu", "device", "readahead" */
	const char *key;
	bool measured;        /* false: copy it from the source profile */
	bool drifts;          /* a rate or cost that moves between calibrations
			       * (averaged by cp_calib_mean); else a setting */
	char value[96];
	char how[1024];       /* what produced it: the method and command */
	char range[64];       /* "lo..hi" over repeated measurements, or "" */
};

struct cp_calibration {
	struct cp_calib_value v[CP_CALIB_MAX]; /* in profile order, every key */
	size_t nr;
	char date[32];        /* UTC, ISO 8601 */
	char kernel[128];     /* uname -r */
	char host[384];       /* uname -n (a lab guest: "a qemu TCG guest of BZIMAGE on HOST") */
	char command[512];    /* the cachepressure command line */
	uint64_t fs_mark_files_per_sec; /* one worker, empty files, xfs */
	char fs_mark_how[256];
};

/* snprintf for the text of a calibration (how a number was measured,
 * descriptions), where truncation is acceptable. */
void cp_calib_text(char *buf, size_t len, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 3, 4)))
#endif
	;

/* The profile's keys in order, measured or not (for the writer). */
void cp_calibration_init(struct cp_calibration *c, const char *name);

/* Returns the entry for section/key, or NULL. */
struct cp_calib_value *cp_calibration_get(struct cp_calibration *c, const char *section,
					  const char *key);

/* Runs every measurement (o->file_bytes, o->nr_files; 0 = the defaults);
 * progress (may be NULL) gets a line per step. As root only (-CP_EPERM
 * before touching anything; with o->guest_disk outside a lab guest too);
 * -CP_ENOSPC when the data file would not fit in MemAvailable + 64 MiB;
 * cleans up on every path including SIGINT/SIGTERM (-CP_EBUSY). */
int cp_calibrate_run(const struct cp_calibrate_opts *o, const char *command,
		     struct cp_calibration *c, void (*progress)(void *, const char *),
		     void *progress_arg, struct cp_diag *diag);

#endif /* CP_CALIBRATE_H */
