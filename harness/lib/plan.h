/*
 * plan.h - what `cachepressure real` does in one run: the steps of a
 * scenario (src/scenario/, already scaled by --mem), as harness actions.
 *
 * A run has two phases on a freshly made filesystem:
 *   setup    mkdir the directories the scenario's paths need; run the
 *            setup creators (fs_mark runs that other actors start after,
 *            as files-in-cache's population step) to completion; write the
 *            data files (dense: zeros in 1 MiB writes like `dd bs=1M`;
 *            sparse: a hole with the last MiB written, like `dd seek=`);
 *            syncfs; drop the page cache of files with cached = no;
 *   measure  start the loopers (readers loop over a file, walkers over a
 *            directory), wait driver_delay_ns, start the driver (the actor
 *            the loopers stop with: fs_mark, or one streaming read of a
 *            file); when the driver ends (or scenario.time_limit passes),
 *            stop the loopers with SIGINT, as the seed's scripts do.
 *
 * Paths are kept relative to the scenario's mount point (the harness
 * mounts its own filesystem elsewhere); labels keep the scenario's
 * absolute paths so the output lines match the model's.
 */
#ifndef CP_PLAN_H
#define CP_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fsimage.h"
#include "fsmark.h"

#define CP_REAL_NAME_MAX 64   /* relative paths (fs_mark needs < 40 for dirs) */
#define CP_REAL_LABEL_MAX 256 /* the scenario's absolute paths */
#define CP_REAL_MAX_FILES 8
#define CP_REAL_MAX_LOOPERS 8
#define CP_REAL_MAX_MKDIRS 16
#define CP_REAL_MAX_SETUP 2

struct cp_diag;
struct cp_scenario;

struct cp_real_file {
	char name[CP_REAL_NAME_MAX]; /* relative to the mount point */
	uint64_t size_bytes;
	bool sparse;                 /* hole, then the last MiB written */
	bool cached;                 /* false: dropped from the page cache after setup */
};

enum cp_real_looper_kind { CP_REAL_READER, CP_REAL_WALKER, CP_REAL_STREAMER };

/* A reader or walker (loops until stopped), or the streaming driver
 * (one pass). */
struct cp_real_looper {
	enum cp_real_looper_kind kind;
	char path[CP_REAL_NAME_MAX];    /* relative to the mount point */
	char label[CP_REAL_LABEL_MAX];  /* the scenario's path: reported name */
	uint64_t read_size_bytes;       /* reader, streamer */
	bool recursive;                 /* walker */
};

enum cp_real_driver { CP_REAL_DRIVE_FS_MARK, CP_REAL_DRIVE_STREAM };

struct cp_real_plan {
	char scenario[CP_REAL_NAME_MAX];
	uint64_t mem_bytes;          /* the scenario's ram after --mem */
	enum cp_fs_kind fs;          /* the scenario's fs (--fs overrides) */
	uint64_t time_limit_ns;      /* 0 = none */

	/* setup */
	size_t nr_mkdirs;
	char mkdirs[CP_REAL_MAX_MKDIRS][CP_REAL_NAME_MAX]; /* parents first */
	size_t nr_setup;
	struct cp_fs_mark_args setup[CP_REAL_MAX_SETUP];
	size_t nr_files;
	struct cp_real_file files[CP_REAL_MAX_FILES];

	/* measure */
	size_t nr_loopers;
	struct cp_real_looper loopers[CP_REAL_MAX_LOOPERS];
	uint64_t driver_delay_ns;
	enum cp_real_driver driver;
	char driver_name[CP_REAL_NAME_MAX];  /* the scenario's actor name */
	struct cp_fs_mark_args fsm;          /* driver == FS_MARK */
	struct cp_real_looper stream;        /* driver == STREAM */
};

/* Builds the plan of a loaded (and scaled) scenario. The only place where
 * a scenario becomes harness steps. Returns 0 or -CP_EINVAL with diag
 * naming the section and key when the scenario has a shape the real
 * harness cannot run: a path outside scenario.mount, loopers that do not
 * all stop with the same creator or streamer, a looper that does not
 * start with the measured phase, a setup creator that does not start at
 * once, a secs_per_dir other than fs_mark's fixed 180 s, too many items. */
int cp_real_plan_from_scenario(const struct cp_scenario *sc, struct cp_real_plan *plan,
			       struct cp_diag *diag);

/* Files fs_mark creates over both phases. */
uint64_t cp_real_plan_nr_files(const struct cp_real_plan *p);

/* Bytes of data actually written (a sparse file counts its written MiB). */
uint64_t cp_real_plan_data_bytes(const struct cp_real_plan *p);

/* Apparent size of the (sparse) image: room for the data, the inodes
 * (XFS limits inodes to 25% of the space) and the logs, doubled, rounded
 * up to GiB, at least 4 GiB. A sparse file's hole needs no room. */
uint64_t cp_real_plan_image_bytes(const struct cp_real_plan *p);

/* Disk space the run will really use: data + 1 KiB per file + 256 MiB. */
uint64_t cp_real_plan_disk_bytes(const struct cp_real_plan *p);

#endif /* CP_PLAN_H */
