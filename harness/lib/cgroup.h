/*
 * cgroup.h - the memory cgroup of `cachepressure real --confine memcg`.
 *
 * cgroup v2 is used when a cgroup2 mount offers the memory controller to
 * its children (memory in both cgroup.controllers and
 * cgroup.subtree_control of the mount's root; the harness never changes
 * subtree_control); otherwise the v1 hierarchy that has the memory
 * controller. The harness creates one cgroup named cachepressure-*
 * directly under the mount, sets its limit, puts its children in it and
 * removes it; it refuses any other name and never touches another cgroup.
 */
#ifndef CP_CGROUP_H
#define CP_CGROUP_H

#include <stdbool.h>
#include <stdint.h>

#include "kfile.h"

#define CP_CGROUP_PATH_MAX 4096
#define CP_CGROUP_PREFIX "cachepressure"

struct cp_diag;

/* Where the memory controller lives. */
struct cp_cgroup_sys {
	int version;                     /* 1 or 2 */
	char mount[CP_CGROUP_PATH_MAX];  /* mount point of that hierarchy */
};

/* One cgroup the harness created. */
struct cp_cgroup {
	int version;
	char path[CP_CGROUP_PATH_MAX];   /* <mount>/<name> */
	char procs[CP_CGROUP_PATH_MAX];  /* <path>/cgroup.procs */
	bool created;                    /* we made the directory: we remove it */
};

/* Reads a mountinfo file (normally /proc/self/mountinfo) and finds the
 * memory controller, preferring v2. Returns 0, -CP_ENOENT (diag says what
 * was looked for) or -CP_EIO. */
int cp_cgroup_detect(const char *mountinfo, struct cp_cgroup_sys *sys, struct cp_diag *diag);

/* The memory cgroup a process is in, from the text of /proc/PID/cgroup:
 * the path of the v1 line whose controllers include "memory", else of
 * the v2 line ("0::PATH"). Writes it into path; 0, -CP_ENOENT when no
 * line names one, -CP_ERANGE when it does not fit. */
int cp_cgroup_memory_path(const char *proc_cgroup, char *path, size_t len);

/* Creates <mount>/<name>. name must start with "cachepressure" and hold
 * no '/'; -CP_EINVAL otherwise, -CP_EBUSY when it exists, -CP_ESYS. */
int cp_cgroup_create(const struct cp_cgroup_sys *sys, const char *name, struct cp_cgroup *cg,
		     struct cp_diag *diag);

/* The file of a control knob: "limit" (memory.limit_in_bytes | memory.max),
 * "usage" (memory.usage_in_bytes | memory.current), "stat", "failcnt"
 * (v1 only), "kmem" (v1 only), "events" (v2), "oom" (v1 oom_control).
 * Writes <path>/<file> into buf; -CP_ENOENT for a knob the version lacks. */
int cp_cgroup_file(const struct cp_cgroup *cg, const char *knob, char *buf, size_t len);

/* Sets the memory limit in bytes. 0 or the write's error. */
int cp_cgroup_set_limit(const struct cp_cgroup *cg, uint64_t bytes, struct cp_diag *diag);

/* Reads memory.stat into kv (appended). */
int cp_cgroup_read_stat(const struct cp_cgroup *cg, struct cp_kv *kv, struct cp_diag *diag);

/* Reads a single-number knob ("usage", "kmem", "failcnt"). */
int cp_cgroup_read_u64(const struct cp_cgroup *cg, const char *knob, uint64_t *out,
		       struct cp_diag *diag);

/* Removes the cgroup if this process created it (rmdir; retried for up to
 * 5 s while the kernel still counts exiting tasks). Only a directory
 * named cachepressure* directly under a cgroup mount is ever removed.
 * Returns 0 (also when there was nothing to do) or -CP_EBUSY/-CP_ESYS. */
int cp_cgroup_remove(struct cp_cgroup *cg, struct cp_diag *diag);

#endif /* CP_CGROUP_H */
