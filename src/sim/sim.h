/*
 * sim.h - one simulated run: a scenario on a machine, a kernel profile
 * and a REFERENCED policy, from setup to result.
 *
 * cp_sim_run() builds the model (memory, page cache, the filesystem's
 * caches, the superblock shrinker, reclaim), the engine (CPUs, block
 * device, kswapd, XFS workers) and the scenario's actors (readers,
 * fs_mark workers, walkers, streamers), runs it on the virtual clock and
 * fills a struct cp_run_result the report module prints.
 */
#ifndef CP_SIM_H
#define CP_SIM_H

#include <stdint.h>

#include <cachepressure/result.h>

#include "engine/machine.h"
#include "model/fs_profile.h" /* struct cp_fs_costs */
#include "model/memory.h"      /* struct cp_mem_start_free */
#include "model/policy.h"
#include "model/profile.h"

struct cp_diag;
struct cp_scenario;

enum cp_confine {
	CP_CONFINE_GLOBAL, /* the machine has scenario RAM; kswapd, global reclaim */
	CP_CONFINE_MEMCG,  /* the machine has its own RAM; the run is in a memcg
			    * limited to scenario RAM; limit reclaim in the
			    * charging tasks (kswapd only if the machine runs low) */
};

/* Progress callback: called about every simulated second. */
typedef void (*cp_sim_progress_fn)(void *priv, uint64_t now_ns, const char *what);

struct cp_sim_config {
	const struct cp_scenario *scenario;       /* already scaled (--mem) */
	const struct cp_machine *machine;
	const struct cp_kernel_profile *kernel;
	const struct cp_fs_profile *fs;
	struct cp_fs_costs fs_costs;
	enum cp_ref_policy policy;
	enum cp_confine confine;
	uint64_t seed;
	unsigned vfs_cache_pressure;       /* 0 = 100 */
	unsigned vfs_cache_pressure_denom; /* 0 = 100 */
	/* NULL: free memory starts in the largest blocks; else as measured
	 * on the real machine (cp_mem_params.start_free) */
	const struct cp_mem_start_free *start_free;
	/* global only: SIZE is MemAvailable as the real harness's balloon
	 * leaves it, so the zone also holds the high watermark that
	 * MemAvailable leaves out (validate sets it; run --start-free too) */
	bool size_is_available;
	cp_sim_progress_fn progress;       /* optional */
	void *progress_priv;
	/* optional: asked now and then while the model runs (the engine's
	 * cancel function); non-zero abandons the run with -CP_EINTR - a
	 * CLI's way to stop at a signal. Never changes a run it lets finish. */
	int (*cancelled)(void *priv);
	void *cancel_priv;
};

/* "global" / "memcg" and back. */
const char *cp_confine_name(enum cp_confine c);
int cp_confine_parse(const char *name, enum cp_confine *out);

/*
 * Runs one simulation. On success (0) *out is filled (out must have been
 * cp_run_result_init()ed; the caller releases it). If the model runs out
 * of memory (the kernel would OOM) the run still returns 0 with
 * out->failed set and out->failure saying why; other errors return
 * -CP_EINVAL (a scenario the model cannot run: diag says which key),
 * -CP_EINTR (cfg->cancelled asked to stop), -CP_ENOMEM. Deterministic:
 * the same config gives the same result.
 */
int cp_sim_run(const struct cp_sim_config *cfg, struct cp_run_result *out, struct cp_diag *diag);

/*
 * Whether a run with machine profile m gives fs_mark's workers a smaller
 * share of the CPUs (engine.h cp_engine_set_light_share): when the
 * profile measured them beside two readers getting less than the readers
 * ([cpu] fs_mark_cpus_beside_readers < readers_cpus_beside_fs_mark).
 * Then *num / *den is a worker's rate over a reader's.
 */
bool cp_sim_creator_light_share(const struct cp_machine *m, uint64_t *num, uint64_t *den);

#endif /* CP_SIM_H */
