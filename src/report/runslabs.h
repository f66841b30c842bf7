/*
 * runslabs.h - the slab geometry the real runs recorded: counters
 * cp_slab_<role>_object_size, cp_slab_<role>_objects_per_slab and
 * cp_slab_<role>_pages_per_slab (role dentry, inode, log_item) taken by
 * the harness from the running kernel's /proc/slabinfo
 * (harness/lib/sample.c cp_sampler_record_slabs()). validate gives them
 * to the model's filesystem profile, so that the model holds the objects
 * of the kernel it is checked against rather than the profile's (4.11's
 * in profiles/xfs.ini).
 */
#ifndef CP_REPORT_RUNSLABS_H
#define CP_REPORT_RUNSLABS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cachepressure/result.h>

#include "model/fs_profile_file.h"

struct cp_diag;

/* One cache as the runs recorded it. */
struct cp_run_slab {
	bool present; /* every run that recorded it agrees, and one did */
	uint64_t object_size, objects_per_slab, pages_per_slab;
};

struct cp_run_slabs {
	struct cp_run_slab role[CP_FS_NR_SLABS]; /* enum cp_fs_slab_role */
	size_t nr_runs; /* runs that recorded the geometry of some cache */
	bool disagree;  /* two runs recorded different geometry for a cache */
};

/* The caches' geometry over runs[0..n): a run counts for a cache when it
 * carries its three counters. A cache the runs disagree on is not
 * present and sets out->disagree. */
void cp_run_slabs_from_runs(const struct cp_run_result *runs, size_t n, struct cp_run_slabs *out);

/* Gives profile p each present cache's geometry (cp_fs_profile_set_slab()).
 * Returns 0 or -CP_EINVAL with diag naming the cache's key; p is then
 * unchanged. */
int cp_run_slabs_apply(const struct cp_run_slabs *s, struct cp_fs_profile *p,
		       struct cp_diag *diag);

#endif /* CP_REPORT_RUNSLABS_H */
