/*
 * world.h - the simulated machine of one run, shared by the actors
 * (workloads, kswapd, XFS workers) and the run driver in sim.c.
 *
 * Internal to src/sim and src/workloads.
 */
#ifndef CP_WORLD_H
#define CP_WORLD_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/blockdev.h"
#include "engine/engine.h"
#include "engine/work.h"
#include "model/buffer_head.h"
#include "model/compaction.h"
#include "model/memory.h"
#include "model/namei.h"
#include "model/page_writeback.h"
#include "model/pagecache.h"
#include "model/reclaim.h"
#include "model/shrinker.h"
#include "model/super.h"
#include "model/vmstat.h"
#include "sim/sim.h"

#define CP_PAGE_SIZE CP_PAGE_BYTES

struct cp_world;
struct cp_daemons;

/* What every actor has: its allocation context and the reclaim work
 * done on its behalf, priced into its steps. */
struct cp_task {
	struct cp_world *w;
	const char *name;
	unsigned id;                  /* engine actor id */
	struct cp_alloc_ctx ctx;
	struct cp_reclaim_work rwork;
	uint64_t freed_before;        /* objects freed counter at step start */
	uint64_t fsbuf_read_before;   /* XFS buffer bytes read, at step start */
	struct cp_task **waiters;     /* actors started when this one ends */
	unsigned nr_waiters;
	uint64_t start_delay_ns;      /* scenario `start` */
	bool started;
};

struct cp_world {
	const struct cp_sim_config *cfg;
	struct cp_vmstat vs;
	struct cp_mem mem;
	struct cp_memcg memcg;
	bool use_memcg;
	struct cp_pagecache pc;
	/* buffer heads on pages the setup's dd wrote, when the kernel and
	 * filesystem attach them (cp_write_attaches_buffers) */
	struct cp_buffer_heads bh;
	bool use_bh;
	struct cp_fs fs;
	bool fs_ready;
	struct cp_super sb;
	struct cp_shrinker_registry shrinkers;
	struct cp_reclaim reclaim;
	struct cp_engine *e;
	struct cp_blockdev dev;
	/* the set-up writers' pages not yet on the device (the global
	 * domain's dirty + writeback pages, page_writeback.c) */
	struct cp_wb_domain wb;
	struct cp_work_cost cost;
	/* of a create's CPU, the part a kworker runs (machine
	 * xfs_create_kworker_ns; cost.create_cpu_ns holds the rest) */
	uint64_t create_kworker_ns;
	uint32_t ra_pages;
	/* readers' mappings use large folios (XFS on 6.1/6.x) */
	bool ra_large_folios;
	bool write_large_folios; /* dd's writes make large folios (6.6+ XFS) */
	struct cp_engine_waker kswapd_waker;
	/* the zone's compaction state and kcompactd (daemons.c) */
	struct cp_compaction compaction;
	struct cp_engine_waker kcompactd_waker;
	unsigned xfsaild_id;
	bool has_xfsaild;
	unsigned cil_id;  /* the CIL's push worker (fs.cil.ready) */
	bool has_cil;
	struct cp_daemons *daemons; /* owned, daemons.c */
	/* a run that the model cannot continue (out of memory) */
	bool failed;
	char failure[256];
	/* statistics the report shows */
	uint64_t nr_pages_accessed;
	uint64_t nr_device_read_bytes;
	uint64_t nr_device_write_bytes;
	/* when the measured phase started: the data files written (the
	 * real harness's readers and fs_mark start then); results' times
	 * count from it */
	uint64_t t0_ns;
};

/* Start of a step: remember counters whose deltas the step is charged. */
void cp_task_begin(struct cp_task *t);

/*
 * End of a step: price w plus the reclaim done on the task's behalf
 * (pages and objects scanned, objects freed, synchronous inode cluster
 * writes) and the XFS metadata buffers it read back into out->cpu_ns and
 * out->io_until_ns, and reset the counters.
 */
void cp_task_end(struct cp_task *t, struct cp_work *w, uint64_t now_ns, struct cp_step *out);

/* At the top of every step: the actor's first step waits its start
 * delay. Returns true when the step must return now (out is set). */
bool cp_task_gate(struct cp_task *t, struct cp_step *out);

/* From every actor's stopped callback: start the actors waiting for it
 * (scenario start_after). */
void cp_task_stopped(struct cp_engine *e, struct cp_task *t);

/* Submit a device read of bytes at now; returns its completion time. */
uint64_t cp_world_read(struct cp_world *w, uint64_t now_ns, uint64_t bytes);
uint64_t cp_world_write(struct cp_world *w, uint64_t now_ns, uint64_t bytes);

/* The model ran out of memory: record why and end the run. */
void cp_world_fail(struct cp_world *w, const char *who, int rc);

/* A stable 64-bit id for a name (FNV-1a). */
uint64_t cp_name_id(const char *s);

/* Actors: kswapd, kcompactd, the XFS workers and a kworker (daemons.c). */
int cp_daemons_start(struct cp_world *w);
/* queue_work(): cpu_ns of work for the kworker, which wakes to run it.
 * Nothing before cp_daemons_start(). */
void cp_kworker_queue(struct cp_world *w, uint64_t cpu_ns);
void cp_daemons_release(struct cp_world *w);

#endif /* CP_WORLD_H */
