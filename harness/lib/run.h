/*
 * run.h - `cachepressure real`: one scenario, run on the live kernel.
 *
 * A session checks everything it can before touching anything (root,
 * programs, memory, cgroup controller, work directory). Each repetition
 * then builds a fresh world - image, loop device, mkfs, mount, memory
 * cgroup or balloon - runs the plan (plan.h), records the result, and
 * tears the world down again in reverse order, on success, on error and
 * after SIGINT/SIGTERM (sig.h). Only what the session created is undone.
 */
#ifndef CP_RUN_H
#define CP_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "cgroup.h"
#include "fsimage.h"
#include "opts.h"
#include "plan.h"

#define CP_REAL_TOOL_MAX 512

struct cp_run_result;
struct cp_diag;

/* The programs a run executes, as absolute paths. */
struct cp_real_tools {
	char losetup[CP_REAL_TOOL_MAX];
	char mkfs[CP_REAL_TOOL_MAX];
	char fs_mark[CP_REAL_TOOL_MAX];
	char read_file[CP_REAL_TOOL_MAX];
	char read_dir[CP_REAL_TOOL_MAX];
	char balloon[CP_REAL_TOOL_MAX];
};

/* Progress messages for the user (the CLI prints them on stderr). */
typedef void (*cp_real_progress_fn)(void *arg, const char *msg);

struct cp_real_session {
	struct cp_real_opts opts;
	struct cp_real_tools tools;
	struct cp_workdir wd;
	struct cp_cgroup_sys cgsys;        /* memcg mode */
	char kernel[128];                  /* uname -r */
	cp_real_progress_fn progress;      /* may be NULL */
	void *progress_arg;
	char kept[CP_REAL_MAX_REPEAT][CP_FSIMAGE_PATH_MAX]; /* --keep: images left */
	unsigned nr_kept;
};

/* Finds losetup, mkfs.<fs>, fs_mark and the harness programs. Returns 0
 * or -CP_ENOENT with diag naming the missing program and its package. */
int cp_real_find_tools(enum cp_fs_kind fs, struct cp_real_tools *t, struct cp_diag *diag);

/* Checks, in this order and before touching anything: root (-CP_EPERM),
 * the programs (-CP_ENOENT), /dev/loop-control, the memory cgroup
 * controller (memcg), MemAvailable >= SIZE + 1.5 GiB (global) or >= SIZE
 * (memcg) (-CP_ENOSPC); then prepares the work directory (refusals are
 * -CP_EPERM) and checks its free space (-CP_ENOSPC). */
int cp_real_session_open(struct cp_real_session *s, const struct cp_real_opts *o,
			 const struct cp_real_plan *p, struct cp_diag *diag);

/* Prepares the work directory dir (refusals -CP_EPERM, as
 * cp_workdir_prepare) and checks that it has room for disk_bytes (a
 * plan's cp_real_plan_disk_bytes) + 512 MiB (-CP_ENOSPC naming both). On
 * failure wd is released. */
int cp_real_workdir_open(const char *dir, uint64_t disk_bytes, struct cp_workdir *wd,
			 struct cp_diag *diag);

/* Removes the work directory if the session created it and it is empty. */
void cp_real_session_close(struct cp_real_session *s);

/* Runs repetition rep (0-based) of plan p into r (initialised by the
 * caller). Returns 0 when the run completed - r->failed is set when the
 * measurement is invalid (a reader or fs_mark died, the balloon was
 * OOM-killed), with r->failure saying why - or a -CP_E* code when the
 * world could not be built or a stop signal arrived (-CP_EBUSY;
 * cp_real_interrupted() tells). Everything created is removed before it
 * returns, except the image with --keep. */
int cp_real_run(struct cp_real_session *s, const struct cp_real_plan *p, unsigned rep,
		struct cp_run_result *r, struct cp_diag *diag);

#endif /* CP_RUN_H */
