/*
 * plan.h - what `cachepressure real` does in one run: the steps of a
 * scenario, scaled to the memory given with --mem.
 *
 * A run has two phases on a freshly made filesystem:
 *   setup    mkdir the scenario's directories, optionally run fs_mark to
 *            populate a tree (files-in-cache), write the data files (so
 *            they start cached; a sparse file is a hole with its last MiB
 *            written, like `dd seek=`), then syncfs;
 *   measure  start the loopers (readers loop over a file, walkers over a
 *            directory tree), wait driver_delay_ns, start the driver
 *            (fs_mark, or a single streaming read of a file); when the
 *            driver exits, stop the loopers with SIGINT.
 *
 * Scaling by f = mem_bytes / scenario_ram_bytes: data file sizes (rounded
 * down to 4 KiB) and fs_mark -n (rounded to nearest, at least 1) scale;
 * fs_mark -L, -D, -S, -s, the number of directories, readers and
 * walkers, and the delay do not.
 */
#ifndef CP_PLAN_H
#define CP_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fsmark.h"

#define CP_REAL_NAME_MAX 64
#define CP_REAL_MAX_FILES 4
#define CP_REAL_MAX_LOOPERS 8
#define CP_REAL_MAX_MKDIRS 8

struct cp_diag;

struct cp_real_file {
	char name[CP_REAL_NAME_MAX]; /* relative to the mount point */
	uint64_t size_bytes;
	bool sparse;                 /* hole, then the last MiB written */
};

enum cp_real_looper_kind { CP_REAL_READER, CP_REAL_WALKER };

struct cp_real_looper {
	enum cp_real_looper_kind kind;
	char path[CP_REAL_NAME_MAX]; /* relative to the mount point */
};

enum cp_real_driver { CP_REAL_DRIVE_FS_MARK, CP_REAL_DRIVE_STREAM };

struct cp_real_plan {
	char scenario[CP_REAL_NAME_MAX];
	uint64_t scenario_ram_bytes; /* RAM the scenario was written for */
	uint64_t mem_bytes;          /* what it is scaled to */

	/* setup */
	size_t nr_mkdirs;
	char mkdirs[CP_REAL_MAX_MKDIRS][CP_REAL_NAME_MAX];
	bool setup_fs_mark;
	struct cp_fs_mark_args setup_fsm;
	size_t nr_files;
	struct cp_real_file files[CP_REAL_MAX_FILES];

	/* measure */
	size_t nr_loopers;
	struct cp_real_looper loopers[CP_REAL_MAX_LOOPERS];
	uint64_t driver_delay_ns;
	enum cp_real_driver driver;
	struct cp_fs_mark_args fsm;          /* driver == FS_MARK */
	char stream_path[CP_REAL_NAME_MAX];  /* driver == STREAM: read once */
};

/* value * num / den, exact for the sizes used here (long double keeps a
 * 64-bit mantissa), rounded to nearest. den must not be 0. */
uint64_t cp_real_scale(uint64_t value, uint64_t num, uint64_t den);

/* Builds the plan of a scenario scaled to mem_bytes. The single place
 * where a scenario becomes harness steps: today from a built-in table
 * (seed, files-in-cache: the values of the seed's scripts); to be fed by
 * the scenario module. Returns 0, -CP_ENOENT (unknown scenario; diag
 * lists the known ones) or -CP_EINVAL (mem_bytes too small to scale to). */
int cp_real_plan_build(const char *scenario, uint64_t mem_bytes, struct cp_real_plan *plan,
		       struct cp_diag *diag);

/* Names of the built-in scenarios, NULL-terminated. */
const char *const *cp_real_plan_names(void);

/* Files fs_mark creates over both phases. */
uint64_t cp_real_plan_nr_files(const struct cp_real_plan *p);

/* Bytes of data actually written (sparse files count their written MiB). */
uint64_t cp_real_plan_data_bytes(const struct cp_real_plan *p);

/* Apparent size of the (sparse) image: room for the data, the inodes
 * (XFS limits inodes to 25% of the space) and the logs, doubled, rounded
 * up to GiB, at least 4 GiB. A sparse file's hole needs no room. */
uint64_t cp_real_plan_image_bytes(const struct cp_real_plan *p);

/* Disk space the run will really use: data + 1 KiB per file + 256 MiB. */
uint64_t cp_real_plan_disk_bytes(const struct cp_real_plan *p);

#endif /* CP_PLAN_H */
