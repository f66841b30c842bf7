/*
 * sim.c - one run: build the model and the engine from a scenario, run
 * the actors on the virtual clock, and collect the result.
 *
 * Setup follows the seed's cache-pressure.sh: mkfs + mount (an empty
 * filesystem), the data files written by dd in parallel (so they start
 * in the page cache, inactive and unreferenced: buffered writes do not
 * mark pages accessed, ref §7.2), then the actors in the scenario's
 * order and timing. Memory is either the whole machine (global reclaim,
 * kswapd) or a memory cgroup limit inside a larger machine (limit
 * reclaim in the charging task).
 *
 * SIMPLIFIED: files live in the root directory whatever their path; the
 * readers' anonymous memory and the processes' memory are taken up
 * front and not charged to the memcg; the data files are clean when the
 * readers start (dd's writeback is not modelled, ref §11.3). In memcg
 * mode the limit is the scenario's RAM, as the real harness sets it; the
 * machine's reserve and process memory are outside the memcg, as in the
 * kernel. On XFS the buffer cache's shrinker (xfs_buf.c) is registered
 * after the superblock's, in mount order (sget registers s_shrink, then
 * xfs_fs_fill_super -> xfs_alloc_buftarg registers the buftarg's;
 * register_shrinker appends), so each shrink_slab() pass asks the
 * superblock first.
 */
#include "sim/sim.h"

#include <cachepressure/error.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/intmath.h"
#include "core/rng.h"
#include "model/fs_profile.h"
#include "model/gfp.h"
#include "model/lru.h"
#include "model/memcg_stats.h"
#include "report/startfree.h"
#include "report/zonewatch.h"
#include "scenario/scenario.h"
#include "sim/world.h"
#include "workloads/creator.h"
#include "workloads/reader.h"
#include "workloads/refetcher.h"
#include "workloads/walker.h"
#include "workloads/writer.h"

static const char *const confine_names[] = { "global", "memcg" };

const char *cp_confine_name(enum cp_confine c)
{
	return (unsigned)c < 2 ? confine_names[c] : "unknown";
}

int cp_confine_parse(const char *name, enum cp_confine *out)
{
	unsigned i;

	for (i = 0; i < 2; i++) {
		if (strcmp(name, confine_names[i]) == 0) {
			*out = (enum cp_confine)i;
			return 0;
		}
	}
	return -CP_EINVAL;
}

uint64_t cp_name_id(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	while (*s) {
		h ^= (unsigned char)*s++;
		h *= 0x100000001b3ULL;
	}
	return h & ((1ULL << 59) - 1); /* below the creators' id ranges */
}

/* ---- tasks ---------------------------------------------------------- */

static uint64_t nr_freed_objects(const struct cp_world *w)
{
	return w->vs.v[CP_VM_DENTRIES_FREED] + w->vs.v[CP_VM_INODES_EVICTED] +
	       w->vs.v[CP_VM_INODES_FREED];
}

void cp_task_begin(struct cp_task *t)
{
	t->freed_before = nr_freed_objects(t->w);
	/* the CPU the task runs on frees to its per-CPU page lists */
	cp_mem_set_cpu(&t->w->mem, t->ctx.cpu);
	t->fsbuf_read_before = t->w->fs.bt.nr_read_bytes;
}

/*
 * A transfer on a VM's virtual disk whose emulation shares the host CPUs
 * with the vCPUs (machine share_beside_busy_cpus): with every CPU busy
 * it gets that share of its rate, and the CPUs give as much up while it
 * lasts (engine.h cp_engine_set_host_io_share()).
 */
static uint64_t device_submit(struct cp_world *w, uint64_t now_ns, uint64_t bytes, bool is_write)
{
	uint64_t num, den, done;

	cp_engine_device_rate(w->e, &num, &den);
	cp_blockdev_set_rate(&w->dev, num, den);
	done = cp_blockdev_submit(&w->dev, now_ns, bytes, is_write);
	cp_engine_host_io_until(w->e, w->dev.channel_free_ns);
	return done;
}

uint64_t cp_world_read(struct cp_world *w, uint64_t now_ns, uint64_t bytes)
{
	w->nr_device_read_bytes += bytes;
	return device_submit(w, now_ns, bytes, false);
}

uint64_t cp_world_write(struct cp_world *w, uint64_t now_ns, uint64_t bytes)
{
	w->nr_device_write_bytes += bytes;
	return device_submit(w, now_ns, bytes, true);
}

void cp_task_end(struct cp_task *t, struct cp_work *work, uint64_t now_ns, struct cp_step *out)
{
	struct cp_world *w = t->w;
	struct cp_reclaim_work *rw = &t->rwork;
	const struct cp_work_cost *cost = &w->cost;
	struct cp_work_cost shared;
	uint64_t i;

	work->nr_lru_evicted_folios += rw->nr_reclaimed_folios;
	work->nr_lru_evicted_pages += rw->nr_reclaimed_pages;
	work->nr_lru_moved_folios += rw->nr_moved_folios;
	work->nr_lru_moved_pages += rw->nr_moved_pages;
	work->nr_slab_scanned_objects += rw->nr_scanned_objects;
	work->nr_copied_bytes += rw->nr_migrated_pages * CP_PAGE_SIZE;
	work->nr_freed_objects += nr_freed_objects(w) - t->freed_before;
	if (work->nr_copied_bytes) {
		/* copies share the memory bandwidth with the other copiers
		 * on the CPUs now (this step is not counted yet) */
		shared = w->cost;
		shared.copy_bandwidth_bps =
			cp_copy_bandwidth(&w->cost, cp_engine_nr_copying(w->e) + 1,
					  cp_engine_nr_runnable(w->e) + 1, cp_engine_nr_cpus(w->e));
		cost = &shared;
		out->copies = true;
	}
	out->cpu_ns += cp_work_cpu_ns(cost, work);
	/* 4.11 XFS reclaim (SYNC_WAIT) writes each dirty inode cluster and
	 * waits for it before it goes on: one write after another */
	if (rw->nr_write_ios) {
		uint64_t done = now_ns;

		for (i = 0; i < rw->nr_write_ios; i++)
			done = cp_world_write(w, done, w->fs.fsp->inode_cluster_bytes);
		if (done > out->io_until_ns)
			out->io_until_ns = done;
	}
	memset(rw, 0, sizeof(*rw));
	/* XFS metadata buffers read back from disk in this step (a cluster
	 * or directory block the buffer shrinker had freed): waited for */
	if (w->fs.bt.nr_read_bytes > t->fsbuf_read_before) {
		uint64_t done = cp_world_read(w, now_ns,
					      w->fs.bt.nr_read_bytes - t->fsbuf_read_before);

		if (done > out->io_until_ns)
			out->io_until_ns = done;
		t->fsbuf_read_before = w->fs.bt.nr_read_bytes;
	}
	if (w->has_xfsaild && w->fs.xfs.ail_push_all_requested)
		cp_engine_wake(w->e, w->xfsaild_id);
	if (w->has_cil && w->fs.cil.push_wanted)
		cp_engine_wake(w->e, w->cil_id);
}

bool cp_task_gate(struct cp_task *t, struct cp_step *out)
{
	if (t->started)
		return false;
	t->started = true;
	if (!t->start_delay_ns)
		return false;
	out->next = CP_STEP_SLEEP_FOR;
	out->sleep_ns = t->start_delay_ns;
	return true;
}

void cp_task_stopped(struct cp_engine *e, struct cp_task *t)
{
	unsigned i;

	for (i = 0; i < t->nr_waiters; i++)
		cp_engine_wake(e, t->waiters[i]->id);
}

void cp_world_fail(struct cp_world *w, const char *who, int rc)
{
	if (!w->failed) {
		w->failed = true;
		snprintf(w->failure, sizeof(w->failure), "%s: %s (the kernel would OOM)", who,
			 cp_strerror(rc));
	}
	cp_engine_stop(w->e);
}

static void task_init(struct cp_task *t, struct cp_world *w, const char *name, unsigned gfp,
		      int cpu)
{
	memset(t, 0, sizeof(*t));
	t->w = w;
	t->name = name;
	t->ctx.gfp = gfp;
	t->ctx.cpu = cpu;
	t->ctx.memcg = w->use_memcg ? &w->memcg : NULL;
	t->ctx.work = &t->rwork;
}

/* The gfp of page-cache allocations for the data files: XFS clears
 * __GFP_FS from every inode's mapping (xfs_setup_inode), and 6.x runs
 * readahead under memalloc_nofs_save() on every filesystem (ref §9.4);
 * otherwise (ext4 on 4.11) the mapping's GFP_HIGHUSER_MOVABLE keeps it. */
static unsigned pagecache_gfp(const struct cp_world *w)
{
	if (w->cfg->fs->kind == CP_FS_XFS || w->cfg->kernel->readahead_nofs)
		return CP_GFP_NOFS;
	return CP_GFP_KERNEL;
}

/* ---- setup ------------------------------------------------------------ */

struct run {
	struct cp_world w;
	/* /proc/buddyinfo when the measured phase starts (after dd): free
	 * blocks by order, as the real harness records it */
	uint64_t buddyinfo_start[CP_BUDDY_MAX_ORDER];
	/* free blocks by zone type, pageblock migratetype and order then (the
	 * real harness's measured_free_* counters, /proc/pagetypeinfo) */
	uint64_t measured_blocks[CP_NR_ZONE_TYPES][CP_MIGRATE_TYPES][CP_BUDDY_MAX_ORDER];
	uint64_t measured_file[CP_NR_ZONE_TYPES]; /* file LRU pages by zone then */
	uint64_t measured_boost[CP_NR_ZONE_TYPES]; /* watermark boost by zone then */
	/* the event counters then: the real harness reports each /proc/vmstat
	 * counter as its delta over the measured phase, and so does the
	 * model (the files' writing is not in them) */
	struct cp_vmstat vs_start;
	bool have_setup; /* vs_start taken: the set-up's counters are it */
	/* pageblocks by zone and migratetype then (measured_pageblocks_*) */
	uint64_t measured_pageblocks[CP_NR_ZONE_TYPES][CP_MIGRATE_TYPES];
	uint64_t measured_pcp[CP_NR_ZONE_TYPES]; /* pages on per-CPU lists then */
	bool have_measured_free[CP_NR_ZONE_TYPES];
	/* the Normal zone against its boosted min at each sample (global
	 * confinement only, as the real harness's zone watch) */
	struct cp_zonewatch zw;
	/* the superblock shrinker's deep calls (priority <= 3) before the
	 * measured phase: the harness counts them from then on */
	uint64_t sb_deep_calls0, sb_deep_scan0, sb_deep_fs_calls0;
	uint64_t kswapd_run_delay0; /* kswapd_run_delay_ns() then */
	struct cp_scenario const *sc;
	struct cp_dentry **files;       /* per scenario file */
	struct cp_reader *readers;      /* readers then streamers */
	size_t nr_readers;
	struct cp_creator_group *groups;
	size_t nr_groups;
	struct cp_walker *walkers;
	size_t nr_walkers;
	struct cp_run_result *out;
	uint64_t next_progress_ns;
	/* the set-up's writers of the data files: the cached ones first
	 * (nr_cached_writers), then those dropped after writing */
	struct cp_writer *writers;
	size_t nr_writers, nr_cached_writers, nr_writing;
	/* then the harness's read-back of what reclaim took meanwhile */
	struct cp_refetcher refetcher;
	uint64_t refetched_bytes;       /* bytes it read back */
	uint64_t refetch_ns;            /* how long it took */
	uint64_t write_ns;              /* the writers' write()s, first to last */
	uint64_t device_read0, device_write0; /* device bytes then */
	uint64_t device_read_rq0, device_write_rq0, device_busy0; /* its requests, busy time */
	uint64_t cpu_busy0;                   /* the CPUs' work then */
	unsigned *measured_ids;         /* actors started when they are done */
	size_t nr_measured;
	int setup_rc;                   /* the measured phase could not start */
};

static int sample(struct cp_engine *e, void *priv, uint64_t t_ns);
static void writer_done(void *priv, uint64_t now_ns);
static void refetch_done(void *priv, uint64_t now_ns);

static int setup_memory(struct run *r, struct cp_diag *diag)
{
	const struct cp_sim_config *cfg = r->w.cfg;
	const struct cp_machine *m = cfg->machine;
	uint64_t ram = cfg->confine == CP_CONFINE_GLOBAL ? r->sc->ram_bytes : m->ram_bytes;
	struct cp_mem_params p = {
		.total_pages = ram / CP_PAGE_SIZE,
		/* the reserve is mostly struct pages: it scales with RAM */
		.reserve_pages = cp_mul_div_u64(m->reserve_bytes, ram, m->ram_bytes) / CP_PAGE_SIZE,
		.min_free_kbytes = m->min_free_kbytes,
		.thp_enabled = m->thp,
		.nr_zones = m->nr_zones,
		.watermark_scale_factor = m->watermark_scale_factor,
		.min_free_kbytes_max = cfg->kernel->min_free_kbytes_max,
		.memcg_reclaim_retries = cfg->kernel->memcg_reclaim_retries,
		.max_reclaim_retries = 16,
		.buddy_4_11 = cfg->kernel->page_alloc_4_11,
		.buddy_claim_steal = cfg->kernel->page_alloc_claim_steal,
		.watermark_boost_factor = cfg->kernel->watermark_boost_factor,
		/* alloc_flags_nofragment(): on x86-64 the third populated zone
		 * (DMA, DMA32, Normal) is ZONE_NORMAL, the preferred zone of
		 * these allocations, with DMA32 below it */
		.alloc_nofragment = m->nr_zones >= 3,
		.start_free = cfg->start_free,
		.size_is_available = cfg->confine == CP_CONFINE_GLOBAL && cfg->size_is_available,
		/* one pcp per CPU of the machine (pcp.c) */
		.nr_cpus = m->nr_cpus,
		.pcp_auto_tune = cfg->kernel->pcp_auto_tune,
		/* ZONE_DMA32 below Normal (zone.c); 0: one zone */
		.dma32_pages = m->dma32_bytes / CP_PAGE_SIZE,
	};
	int rc = cp_mem_init(&r->w.mem, &p, &r->w.vs, diag);

	if (rc)
		return rc;
	/* the slab caches made from here on keep emptied slabs as SLUB's
	 * per-CPU partial lists of the kernel and machine do (slab.c) */
	cp_mem_set_slub(&r->w.mem, (enum cp_slub_partial)cfg->kernel->slub_partial, m->nr_cpus);
	/* the readers' buffers and the processes' libc: the same at any
	 * scale (fs_mark's tables of names come and go with its workers,
	 * workloads/creator.c) */
	rc = cp_mem_take(&r->w.mem, CP_OWNER_PROCESS, m->process_bytes / CP_PAGE_SIZE);
	if (rc == -CP_ENOMEM)
		return rc;
	if (rc)
		return cp_diag_set(diag, -CP_EINVAL,
				   "machine: process memory of %llu bytes does not fit in %llu bytes",
				   (unsigned long long)m->process_bytes, (unsigned long long)ram);
	if (cfg->confine == CP_CONFINE_MEMCG) {
		r->w.use_memcg = true;
		cp_memcg_init(&r->w.memcg, 1, r->sc->ram_bytes / CP_PAGE_SIZE);
		cp_memcg_set_charge_batch(&r->w.memcg, cfg->kernel->memcg_charge_batch);
	}
	return 0;
}

/* reclaim's wakeup_kcompactd() hook */
static void wake_kcompactd(void *priv, unsigned order)
{
	cp_wakeup_kcompactd(priv, order);
}

/* the allocator's __alloc_pages_direct_compact() hook: compaction in the
 * allocating task, which pays a page copy for each page moved */
static bool direct_compact(void *priv, struct cp_alloc_ctx *ctx, unsigned order)
{
	uint64_t migrated;
	enum cp_compact_result rc = cp_try_to_compact_pages(priv, order, ctx->gfp, ctx->cpu,
							   &migrated);

	if (ctx->work)
		ctx->work->nr_migrated_pages += migrated;
	return rc > CP_COMPACT_DEFERRED;
}

static int setup_model(struct run *r, struct cp_diag *diag)
{
	struct cp_world *w = &r->w;
	const struct cp_sim_config *cfg = w->cfg;
	struct cp_pagecache_params pp = {
		.nr_cpus = cfg->machine->nr_cpus,
		.lru_add_batch = cfg->kernel->lru_add_batch,
		.workingset_flag = cfg->kernel->workingset_flag,
	};
	struct cp_fs_params fp = {
		.fs = cfg->fs,
		.kernel = cfg->kernel,
		.policy = cfg->policy,
		.mem = &w->mem,
		.pc = &w->pc,
		.vmstat = &w->vs,
		.nr_cpus = cfg->machine->nr_cpus,
	};
	int rc;

	rc = cp_pagecache_init(&w->pc, &pp, &w->mem, &w->vs);
	if (rc)
		return cp_diag_set(diag, rc, "page cache: %s", cp_strerror(rc));
	cp_lruvec_stats_init(&w->pc, cfg->kernel->memcg_stats_flush_ns != 0);
	if (cp_write_attaches_buffers(cfg->fs, cfg->kernel)) {
		rc = cp_buffer_heads_init(&w->bh, &w->mem, &w->vs);
		if (rc)
			return cp_diag_set(diag, rc, "buffer heads: %s", cp_strerror(rc));
		w->use_bh = true;
		w->pc.release_private = cp_buffer_heads_release_page;
		w->pc.release_private_priv = &w->bh;
	}
	rc = cp_fs_init(&w->fs, &fp, diag);
	if (rc)
		return rc;
	w->fs_ready = true;
	cp_shrinker_registry_init(&w->shrinkers, cfg->kernel, &w->vs);
	cp_super_init(&w->sb, &cp_fs_super_ops, &w->fs,
		      cfg->vfs_cache_pressure ? cfg->vfs_cache_pressure : 100,
		      cfg->vfs_cache_pressure_denom ? cfg->vfs_cache_pressure_denom : 100);
	w->sb.vmstat = &w->vs;
	rc = cp_register_shrinker(&w->shrinkers, &w->sb.shrinker);
	if (rc)
		return cp_diag_set(diag, rc, "shrinker registry: %s", cp_strerror(rc));
	if (w->fs.bt.ready) {
		/* xfs_alloc_buftarg(): the buffer cache's own shrinker */
		rc = cp_register_shrinker(&w->shrinkers, &w->fs.bt.shrinker);
		if (rc)
			return cp_diag_set(diag, rc, "shrinker registry: %s", cp_strerror(rc));
	}
	cp_reclaim_init(&w->reclaim, &w->mem, &w->pc, &w->shrinkers, &w->vs, cfg->kernel);
	w->reclaim.vm.tasks_in_child_memcg = cfg->machine->tasks_in_child_memcg;
	cp_compaction_init(&w->compaction, &w->mem, &w->pc, &w->vs);
	w->compaction.large_folios = cfg->kernel->compaction_large_folios;
	w->compaction.skip_4_11 = cfg->kernel->compaction_skip_4_11;
	w->reclaim.wake_kcompactd = wake_kcompactd;
	w->reclaim.wake_kcompactd_priv = &w->compaction;
	w->reclaim.direct_compact = direct_compact;
	w->reclaim.direct_compact_priv = &w->compaction;
	cp_reclaim_install(&w->reclaim);
	cp_work_cost_from_machine(&w->cost, cfg->machine);
	w->cost.create_cpu_ns = cp_fs_create_cpu_ns(cfg->fs, &cfg->fs_costs,
						    cfg->machine->xfs_create_ns);
	if (cfg->fs->kind == CP_FS_XFS && cfg->machine->xfs_create_ns &&
	    cfg->machine->xfs_create_kworker_ns <= w->cost.create_cpu_ns) {
		/* the calibrated create's kworker part runs in a kworker */
		w->create_kworker_ns = cfg->machine->xfs_create_kworker_ns;
		w->cost.create_cpu_ns -= w->create_kworker_ns;
	}
	w->cost.mkdir_lookup_ns = cfg->fs_costs.mkdir_lookup_ns;
	w->cost.stat_cpu_ns = cfg->fs_costs.stat_cpu_ns;
	w->cost.inode_read_ns = cfg->fs_costs.inode_read_ns;
	w->ra_pages = (uint32_t)(cfg->machine->read_ahead_kb / 4);
	/* XFS marks every inode's mapping for large folios (6.1
	 * fs/xfs/xfs_icache.c xfs_inode_alloc); ext4 does not (not before
	 * 6.16, and not modelled since: profile.c) */
	w->ra_large_folios = cfg->fs->kind == CP_FS_XFS && cfg->kernel->xfs_large_folios;
	w->write_large_folios = w->ra_large_folios && cfg->kernel->xfs_large_folio_writes &&
				!w->use_bh;
	return 0;
}

/* The harness's read-back of the cached files after the writers
 * (refetcher.c): an actor started when the last writer has stopped. */
static int setup_refetcher(struct run *r, struct cp_diag *diag)
{
	struct cp_refetcher *rf = &r->refetcher;
	int rc;

	task_init(&rf->task, &r->w, "refetch", pagecache_gfp(&r->w), 0);
	rc = cp_refetcher_setup(rf, r->writers, r->nr_cached_writers);
	if (rc)
		return rc;
	rf->done = refetch_done;
	rf->done_priv = r;
	rc = cp_engine_add_actor(r->w.e, &cp_refetcher_ops, rf, CP_ACTOR_START_BLOCKED,
				 &rf->task.id);
	return rc ? cp_diag_set(diag, rc, "engine: %s", cp_strerror(rc)) : 0;
}

/* A file the harness writes and then drops from the page cache
 * (harness/lib/run.c setup_steps: every file is written, in parallel;
 * after syncfs, POSIX_FADV_DONTNEED for each cached = no one): its
 * writes take memory beside the cached files' and leave their free
 * blocks where they were. A sparse one only has its last MiB written
 * there (dd seek=); SIMPLIFIED: not written at all. */
static bool written_then_dropped(const struct cp_sc_file *f)
{
	return !f->cached && !f->sparse;
}

/* The harness's dd child of scenario file i: a writer actor on the next
 * CPU in turn. */
static int add_writer(struct run *r, size_t i, struct cp_diag *diag)
{
	struct cp_world *w = &r->w;
	struct cp_writer *wr = &r->writers[r->nr_writers];
	uint32_t mapping = cp_file_mapping(r->files[i]);
	int rc;

	task_init(&wr->task, w, r->sc->files[i].name, pagecache_gfp(w),
		  (int)(r->nr_writers % w->cfg->machine->nr_cpus));
	rc = cp_writer_setup(wr, mapping, w->pc.mappings[mapping].nr_index);
	if (rc)
		return rc;
	wr->done = writer_done;
	wr->done_priv = r;
	r->nr_writers++; /* released with the run from here on */
	rc = cp_engine_add_actor(w->e, &cp_writer_ops, wr, 0, &wr->task.id);
	return rc ? cp_diag_set(diag, rc, "engine: %s", cp_strerror(rc)) : 0;
}

/* The files: each opened (created) by a set-up task, and a writer for
 * each one the harness writes (its dd children, one per file and CPU in
 * turn): the cached ones, then those it drops after writing. */
static int setup_files(struct run *r, struct cp_diag *diag)
{
	struct cp_world *w = &r->w;
	const struct cp_scenario *sc = r->sc;
	struct cp_task dd;
	size_t i;
	int rc;

	task_init(&dd, w, "dd", pagecache_gfp(w), 0);
	r->files = cp_calloc(sc->nr_files ? sc->nr_files : 1, sizeof(*r->files));
	r->writers = cp_calloc(sc->nr_files ? sc->nr_files : 1, sizeof(*r->writers));
	if (!r->files || !r->writers)
		return -CP_ENOMEM;
	for (i = 0; i < sc->nr_files; i++) {
		uint64_t pages = cp_div_round_up(sc->files[i].size_bytes, CP_PAGE_SIZE);

		if (pages >= CP_NIL)
			return cp_diag_set(diag, -CP_EINVAL,
					   "%s: [file %s] size: %llu bytes is more than the model's %u pages",
					   sc->source, sc->files[i].name,
					   (unsigned long long)sc->files[i].size_bytes, CP_NIL - 1);
		rc = cp_fs_open(&w->fs, cp_fs_root(&w->fs), cp_name_id(sc->files[i].path), 8,
				(uint32_t)pages, &dd.ctx, &r->files[i]);
		if (rc)
			return cp_diag_set(diag, rc, "%s: [file %s]: %s", sc->source,
					   sc->files[i].name, cp_strerror(rc));
	}
	if (w->ra_large_folios)
		for (i = 0; i < sc->nr_files; i++)
			cp_mapping_set_large_folios(&w->pc, cp_file_mapping(r->files[i]));
	/* the cached files' writers first: the read-back takes those */
	for (i = 0; i < sc->nr_files; i++) {
		if (sc->files[i].cached && (rc = add_writer(r, i, diag)))
			return rc;
	}
	r->nr_cached_writers = r->nr_writers;
	for (i = 0; i < sc->nr_files; i++) {
		if (written_then_dropped(&sc->files[i]) && (rc = add_writer(r, i, diag)))
			return rc;
	}
	r->nr_writing = r->nr_writers;
	return r->nr_writers ? setup_refetcher(r, diag) : 0;
}

/* kswapd's time runnable but not running so far: the stretch of its
 * steps' CPU work by the CPUs' sharing (wall time less CPU time; the
 * engine shares the CPUs as a fluid, engine.c). The real harness's
 * counterpart is the run_delay of /proc/PID/schedstat. */
static uint64_t kswapd_run_delay_ns(const struct cp_world *w)
{
	struct cp_actor_stats st;

	cp_engine_actor_stats(w->e, w->kswapd_waker.id, &st);
	return st.cpu_wall_ns > st.cpu_ns ? st.cpu_wall_ns - st.cpu_ns : 0;
}

/*
 * The measured phase starts (the real harness's readers and fs_mark
 * start, and its sampler reads /proc/vmstat and /proc/pagetypeinfo): the
 * data files written and read back where reclaim took pages. Snapshots
 * the free lists and counters the harness records then; with writers,
 * starts the measured actors, the sampler and the time limit at now.
 */
static int measured_phase_begins(struct run *r, uint64_t now_ns)
{
	struct cp_world *w = &r->w;
	size_t i;

	cp_lru_add_drain_all(&w->pc);
	r->kswapd_run_delay0 = kswapd_run_delay_ns(w);
	r->sb_deep_calls0 = w->sb.shrinker.nr_deep_calls;
	r->sb_deep_scan0 = w->sb.shrinker.nr_deep_scan;
	r->sb_deep_fs_calls0 = w->sb.shrinker.nr_deep_fs_calls;
	for (i = 0; i < w->mem.nr_zones; i++) {
		const struct cp_mem_zone *z = &w->mem.zones[i];

		for (unsigned o = 0; o < CP_BUDDY_MAX_ORDER; o++) {
			r->buddyinfo_start[o] += z->buddy.nr_free[o];
			for (unsigned mt = 0; mt < CP_MIGRATE_TYPES; mt++)
				r->measured_blocks[z->type][mt][o] += z->buddy.free_area[o][mt].nr;
		}
		cp_buddy_count_pageblocks(&z->buddy, r->measured_pageblocks[z->type]);
		r->measured_pcp[z->type] = z->pcp.nr_held_pages;
		r->measured_boost[z->type] = z->buddy.watermark_boost;
		r->have_measured_free[z->type] = true;
	}
	if (w->mem.nr_zones > 1) {
		uint64_t below = cp_lru_size_below_top_zone(&w->pc, CP_LRU_ACTIVE_FILE) +
				 cp_lru_size_below_top_zone(&w->pc, CP_LRU_INACTIVE_FILE);

		r->measured_file[w->mem.zones[0].type] = below;
		r->measured_file[w->mem.zones[w->mem.nr_zones - 1].type] =
			cp_lru_size(&w->pc, CP_LRU_ACTIVE_FILE) +
			cp_lru_size(&w->pc, CP_LRU_INACTIVE_FILE) - below;
	}
	r->vs_start = w->vs;
	r->have_setup = true;
	r->device_read0 = w->nr_device_read_bytes;
	r->device_write0 = w->nr_device_write_bytes;
	r->device_read_rq0 = w->dev.nr_read_requests;
	r->device_write_rq0 = w->dev.nr_write_requests;
	r->device_busy0 = cp_blockdev_busy_ns(&w->dev, now_ns);
	r->cpu_busy0 = cp_engine_cpu_busy_ns(w->e);
	w->t0_ns = now_ns;
	if (!r->nr_writers)
		return 0;
	for (i = 0; i < r->nr_measured; i++)
		cp_engine_wake(w->e, r->measured_ids[i]);
	if (r->sc->time_limit_ns)
		cp_engine_set_time_limit(w->e, now_ns + r->sc->time_limit_ns);
	return cp_engine_set_sampler(w->e, CP_SAMPLE_INTERVAL_NS, sample, r);
}

/* The set-up's write time: from the first writer's first write() to the
 * last one's last, before their syncfs (the real harness's
 * cp_setup_write_ns: its writers' start to their exit). */
static uint64_t setup_write_ns(const struct run *r)
{
	uint64_t first = UINT64_MAX, last = 0;
	size_t i;

	for (i = 0; i < r->nr_writers; i++) {
		const struct cp_writer *wr = &r->writers[i];

		if (wr->started_ns < first)
			first = wr->started_ns;
		if (wr->written_ns != UINT64_MAX && wr->written_ns > last)
			last = wr->written_ns;
	}
	return first != UINT64_MAX && last > first ? last - first : 0;
}

/* A writer has stopped: after the last (syncfs: every write done), the
 * files written to start on disk only leave the page cache
 * (POSIX_FADV_DONTNEED -> invalidate_mapping_pages(): clean pages go
 * without shadow entries), then the read-back. */
static void writer_done(void *priv, uint64_t now_ns)
{
	struct run *r = priv;
	size_t i;

	(void)now_ns;
	if (r->w.failed) { /* the model ran out of memory writing: the run ends */
		cp_engine_stop(r->w.e);
		return;
	}
	if (--r->nr_writing)
		return;
	r->write_ns = setup_write_ns(r);
	for (i = 0; i < r->sc->nr_files; i++)
		if (written_then_dropped(&r->sc->files[i]))
			cp_invalidate_mapping_pages(&r->w.pc, cp_file_mapping(r->files[i]));
	cp_engine_wake(r->w.e, r->refetcher.task.id);
}

/* The read-back has stopped: the measured phase, unless it failed. */
static void refetch_done(void *priv, uint64_t now_ns)
{
	struct run *r = priv;
	int rc = r->refetcher.rc;

	r->refetched_bytes = r->refetcher.bytes;
	r->refetch_ns = now_ns - r->refetcher.started_ns;
	if (!rc && !r->w.failed)
		rc = measured_phase_begins(r, now_ns);
	if (rc)
		r->setup_rc = rc;
	if (rc || r->w.failed)
		cp_engine_stop(r->w.e);
}

static int add_actor(struct run *r, const struct cp_actor_ops *ops, struct cp_task *t,
		     const struct cp_sc_actor *a)
{
	int rc;
	unsigned flags = a->start_after || r->nr_writers ? CP_ACTOR_START_BLOCKED : 0;

	rc = cp_engine_add_actor(r->w.e, ops, t, flags, &t->id);
	if (rc)
		return rc;
	t->start_delay_ns = a->start_ns;
	if (r->nr_writers && !a->start_after) {
		/* woken when the data files are written */
		unsigned *ids = cp_realloc(r->measured_ids, (r->nr_measured + 1) * sizeof(*ids));

		if (!ids)
			return -CP_ENOMEM;
		r->measured_ids = ids;
		ids[r->nr_measured++] = t->id;
	}
	return 0;
}

static struct cp_task *find_task(struct run *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->nr_readers; i++)
		if (strcmp(r->readers[i].task.name, name) == 0)
			return &r->readers[i].task;
	for (i = 0; i < r->nr_groups; i++)
		if (strcmp(r->groups[i].main_task.name, name) == 0)
			return &r->groups[i].main_task;
	for (i = 0; i < r->nr_walkers; i++)
		if (strcmp(r->walkers[i].task.name, name) == 0)
			return &r->walkers[i].task;
	return NULL;
}

/* Which creator worker made the directory a walker reads. */
static int walker_source(struct run *r, const char *root, unsigned *worker,
			 struct cp_creator_group **group)
{
	size_t g, d;

	for (g = 0; g < r->nr_groups; g++) {
		const struct cp_sc_creator *c = &r->sc->creators[g];

		for (d = 0; d < c->dirs.n; d++) {
			if (strcmp(c->dirs.v[d], root) == 0) {
				*worker = (unsigned)d;
				*group = &r->groups[g];
				return 0;
			}
		}
	}
	return -CP_ENOENT;
}

/*
 * The start delay of a reader with random_phase: uniform in [0, one
 * cached pass), a pass being its file's bytes at the machine's
 * copy_bandwidth. Identical readers started together stay in lockstep in
 * the model, where nothing perturbs them; on a real machine their passes
 * drift apart within seconds (two cp-read-file loops of the 1G seed
 * scenario: pass 40 ends 0.01 - 0.85 s apart, 2026-12-01), so by the time
 * the pressure comes their phase is as good as random. One PRNG stream
 * per reader (stream CP_RNG_STREAM_READER_PHASE + index).
 */
#define CP_RNG_STREAM_READER_PHASE 0x7265616465720000ULL /* "reader" */
static uint64_t reader_phase_ns(const struct run *r, size_t i, uint64_t file_bytes)
{
	uint64_t bps = r->w.cfg->machine->copy_bandwidth_bps;
	uint64_t pass_ns = bps ? (uint64_t)((double)file_bytes * 1e9 / (double)bps) : 0;
	struct cp_rng rng;

	if (!pass_ns)
		return 0;
	cp_rng_init(&rng, r->w.cfg->seed, CP_RNG_STREAM_READER_PHASE + i);
	return cp_rng_below(&rng, pass_ns);
}

static int setup_readers(struct run *r, struct cp_diag *diag)
{
	const struct cp_scenario *sc = r->sc;
	size_t n = sc->nr_readers + sc->nr_streamers, i;
	int cpu = 0, rc;

	r->readers = cp_calloc(n ? n : 1, sizeof(*r->readers));
	if (!r->readers)
		return -CP_ENOMEM;
	for (i = 0; i < n; i++) {
		struct cp_reader *rd = &r->readers[i];
		bool streamer = i >= sc->nr_readers;
		const struct cp_sc_actor *a = streamer ? &sc->streamers[i - sc->nr_readers].actor
						       : &sc->readers[i].actor;
		size_t fi = streamer ? sc->streamers[i - sc->nr_readers].file_idx
				     : sc->readers[i].file_idx;
		uint64_t rs = streamer ? sc->streamers[i - sc->nr_readers].read_size_bytes
				       : sc->readers[i].read_size_bytes;

		task_init(&rd->task, &r->w, a->name, pagecache_gfp(&r->w), cpu++);
		rd->file = r->files[fi];
		rd->mapping = cp_file_mapping(rd->file);
		if (r->w.ra_large_folios)
			cp_mapping_set_large_folios(&r->w.pc, rd->mapping);
		rd->ra.markers = r->w.cfg->kernel->readahead_markers;
		rd->nr_pages = r->w.pc.mappings[rd->mapping].nr_index;
		rd->read_pages = (uint32_t)cp_div_round_up(rs, CP_PAGE_SIZE);
		rd->sparse = sc->files[fi].sparse;
		rd->max_passes = streamer ? 1 : 0;
		if (!streamer) {
			rc = cp_run_result_add_reader(r->out, sc->files[fi].path, &rd->result);
			if (rc)
				return rc;
		}
		r->nr_readers++;
		rc = add_actor(r, &cp_reader_ops, &rd->task, a);
		if (rc)
			return cp_diag_set(diag, rc, "engine: %s", cp_strerror(rc));
		if (!streamer && sc->readers[i].random_phase)
			rd->task.start_delay_ns += reader_phase_ns(r, i, sc->files[fi].size_bytes);
	}
	/* result pointers move when readers are added: fix them up */
	for (i = 0; i < sc->nr_readers; i++)
		r->readers[i].result = &r->out->readers[i];
	return 0;
}

bool cp_sim_creator_light_share(const struct cp_machine *m, uint64_t *num, uint64_t *den)
{
	if (!m->fs_mark_cpus_pm || m->fs_mark_cpus_pm >= m->readers_cpus_pm)
		return false;
	/* two workers and two readers: a worker's rate over a reader's */
	*num = m->fs_mark_cpus_pm;
	*den = m->readers_cpus_pm;
	return true;
}

static int setup_creators(struct run *r, struct cp_diag *diag)
{
	const struct cp_scenario *sc = r->sc;
	uint64_t num, den;
	unsigned light = cp_sim_creator_light_share(r->w.cfg->machine, &num, &den) ? CP_ACTOR_LIGHT : 0;
	size_t g;
	unsigned i;
	int rc;

	r->groups = cp_calloc(sc->nr_creators ? sc->nr_creators : 1, sizeof(*r->groups));
	if (!r->groups)
		return -CP_ENOMEM;
	for (g = 0; g < sc->nr_creators; g++) {
		const struct cp_sc_creator *c = &sc->creators[g];
		struct cp_creator_group *grp = &r->groups[g];

		grp->w = &r->w;
		grp->files_per_loop = c->files_per_loop;
		grp->loops = c->loops;
		grp->subdirs = c->subdirs;
		grp->files_per_subdir = c->files_per_subdir;
		grp->secs_per_dir_ns = c->secs_per_dir_ns;
		grp->name_len = c->name_len;
		grp->sync = c->sync;
		if (c->file_size_bytes)
			return cp_diag_set(diag, -CP_EINVAL,
					   "%s:%u: [creator %s] file_size = %llu: the model creates empty files only (-s 0)",
					   sc->source, c->actor.origin.line, c->actor.name,
					   (unsigned long long)c->file_size_bytes);
		grp->workers = cp_calloc(c->dirs.n, sizeof(*grp->workers));
		if (!grp->workers)
			return -CP_ENOMEM;
		grp->nr_workers = (unsigned)c->dirs.n;
		r->nr_groups++;
		task_init(&grp->main_task, &r->w, c->actor.name, CP_GFP_KERNEL, 0);
		rc = add_actor(r, &cp_creator_main_ops, &grp->main_task, &c->actor);
		if (rc)
			return rc;
		for (i = 0; i < grp->nr_workers; i++) {
			struct cp_creator_worker *cw = &grp->workers[i];

			task_init(&cw->task, &r->w, c->actor.name, CP_GFP_KERNEL,
				  (int)((r->nr_readers + i) % r->w.cfg->machine->nr_cpus));
			cw->group = grp;
			cw->index = i;
			rc = cp_fs_mkdir(&r->w.fs, cp_fs_root(&r->w.fs), cp_name_id(c->dirs.v[i]), 1,
					 &cw->task.ctx, &cw->dir, NULL);
			if (rc)
				return cp_diag_set(diag, rc, "mkdir %s: %s", c->dirs.v[i],
						   cp_strerror(rc));
			/* its __GFP_FS memcg reclaims go a priority level a step
			 * (model/memory.h cp_memcg_stepped) */
			cw->stepped.sc = &cw->stepped_sc;
			cw->task.ctx.stepped = &cw->stepped;
			rc = cp_engine_add_actor(r->w.e, &cp_creator_ops, cw,
						 CP_ACTOR_START_BLOCKED | light,
						 &cw->task.id);
			if (rc)
				return rc;
		}
	}
	return 0;
}

static int setup_walkers(struct run *r, struct cp_diag *diag)
{
	const struct cp_scenario *sc = r->sc;
	size_t i;
	int rc;

	r->walkers = cp_calloc(sc->nr_walkers ? sc->nr_walkers : 1, sizeof(*r->walkers));
	if (!r->walkers)
		return -CP_ENOMEM;
	for (i = 0; i < sc->nr_walkers; i++) {
		struct cp_walker *wk = &r->walkers[i];
		struct cp_creator_group *grp;

		task_init(&wk->task, &r->w, sc->walkers[i].actor.name, CP_GFP_KERNEL,
			  (int)(i % r->w.cfg->machine->nr_cpus));
		if (walker_source(r, sc->walkers[i].root, &wk->creator_worker, &grp))
			return cp_diag_set(diag, -CP_EINVAL,
					   "%s:%u: [walker %s] root = %s: the model walks only directories an fs_mark creator fills",
					   sc->source, sc->walkers[i].actor.origin.line,
					   sc->walkers[i].actor.name, sc->walkers[i].root);
		if (grp->subdirs)
			return cp_diag_set(diag, -CP_EINVAL,
					   "%s:%u: [walker %s]: the model walks flat directories (creator subdirs = 0)",
					   sc->source, sc->walkers[i].actor.origin.line,
					   sc->walkers[i].actor.name);
		wk->dir = grp->workers[wk->creator_worker].dir;
		wk->nr_entries = grp->files_per_loop * grp->loops;
		r->nr_walkers++;
		rc = add_actor(r, &cp_walker_ops, &wk->task, &sc->walkers[i].actor);
		if (rc)
			return rc;
	}
	return 0;
}

/* start_after and stop_with, after every actor exists. */
static int setup_timing(struct run *r, struct cp_diag *diag)
{
	const struct cp_scenario *sc = r->sc;
	const struct cp_sc_actor *all[256];
	size_t n = 0, i;
	int rc;

	if (sc->nr_readers + sc->nr_streamers + sc->nr_creators + sc->nr_walkers > 256)
		return cp_diag_set(diag, -CP_EINVAL, "%s: more than 256 actors", sc->source);
	for (i = 0; i < sc->nr_readers; i++)
		all[n++] = &sc->readers[i].actor;
	for (i = 0; i < sc->nr_streamers; i++)
		all[n++] = &sc->streamers[i].actor;
	for (i = 0; i < sc->nr_creators; i++)
		all[n++] = &sc->creators[i].actor;
	for (i = 0; i < sc->nr_walkers; i++)
		all[n++] = &sc->walkers[i].actor;
	for (i = 0; i < n; i++) {
		struct cp_task *self = find_task(r, all[i]->name), *other;

		if (all[i]->start_after) {
			struct cp_task **wv;

			other = find_task(r, all[i]->start_after);
			if (!other)
				return cp_diag_set(diag, -CP_EINVAL, "start_after = %s: no such actor",
						   all[i]->start_after);
			wv = cp_realloc(other->waiters, (other->nr_waiters + 1) * sizeof(*wv));
			if (!wv)
				return -CP_ENOMEM;
			other->waiters = wv;
			wv[other->nr_waiters++] = self;
		}
		if (all[i]->stop_with) {
			other = find_task(r, all[i]->stop_with);
			if (!other)
				return cp_diag_set(diag, -CP_EINVAL, "stop_with = %s: no such actor",
						   all[i]->stop_with);
			rc = cp_engine_stop_on_finish(r->w.e, other->id, self->id);
			if (rc)
				return rc;
		}
	}
	return 0;
}

/* ---- sampling and results --------------------------------------------- */

static uint64_t readers_cpu_ns(const struct run *r);

static const char *const series_columns[] = {
	"t_ns", "free_pages", "active_file", "inactive_file", "pagecache_pages",
	"slab_dentry_pages", "slab_name_pages", "slab_inode_pages", "slab_ili_pages",
	"dentry_lru", "inode_lru", "fs_reclaimable", "sb_deferred", "memcg_usage_pages",
	"xfs_buf_pages", "xfs_buf_lru", "free_dma32", "free_normal", "boost_dma32",
	"boost_normal", "file_dma32", "pcp_pages", "cpu_busy_ns", "readers_cpu_ns",
	"free_dma32_unmovable", "free_dma32_movable", "free_dma32_reclaimable",
	"free_normal_unmovable", "free_normal_movable", "free_normal_reclaimable",
	"pageblocks_dma32_unmovable", "pageblocks_dma32_movable", "pageblocks_dma32_reclaimable",
	"pageblocks_normal_unmovable", "pageblocks_normal_movable", "pageblocks_normal_reclaimable",
	"workingset_refault_file", "pgdeactivate", "xfs_cil_pages",
};
#define NR_COLUMNS (sizeof(series_columns) / sizeof(series_columns[0]))

/* Free pages and watermark boost of ZONE_DMA32 and ZONE_NORMAL (0 for a
 * zone the model does not have): out[0..1] free, out[2..3] boost. */
static void sample_zones(const struct cp_mem *m, int64_t out[4])
{
	unsigned i;

	memset(out, 0, 4 * sizeof(out[0]));
	for (i = 0; i < m->nr_zones; i++) {
		int k = m->zones[i].type == CP_ZONE_DMA32 ? 0 : 1;

		out[k] = (int64_t)m->zones[i].free_pages;
		out[2 + k] = (int64_t)m->zones[i].buddy.watermark_boost;
	}
}

/* Free pages and pageblocks by migratetype of ZONE_DMA32 and
 * ZONE_NORMAL, as /proc/pagetypeinfo counts them (per-CPU list pages not
 * included): out[0..5] free (DMA32 unmovable, movable, reclaimable, then
 * Normal's), out[6..11] pageblocks in the same order; 0 for a zone the
 * model does not have. */
_Static_assert(CP_MIGRATE_TYPES == 3, "the series has three migratetype columns a zone");

static void sample_pagetypes(const struct cp_mem *m, int64_t out[12])
{
	unsigned i, mt;

	memset(out, 0, 12 * sizeof(out[0]));
	for (i = 0; i < m->nr_zones; i++) {
		const struct cp_buddy *b = &m->zones[i].buddy;
		int k = m->zones[i].type == CP_ZONE_DMA32 ? 0 : CP_MIGRATE_TYPES;
		uint64_t blocks[CP_MIGRATE_TYPES] = { 0 };

		if (m->zones[i].type != CP_ZONE_DMA32 && m->zones[i].type != CP_ZONE_NORMAL)
			continue;
		cp_buddy_count_pageblocks(b, blocks);
		for (mt = 0; mt < CP_MIGRATE_TYPES; mt++) {
			out[k + mt] = (int64_t)cp_buddy_free_pages_of_type(b, (enum cp_migratetype)mt);
			out[2 * CP_MIGRATE_TYPES + k + mt] = (int64_t)blocks[mt];
		}
	}
}

static int sample(struct cp_engine *e, void *priv, uint64_t t_ns)
{
	struct run *r = priv;
	struct cp_world *w = &r->w;
	int64_t row[NR_COLUMNS];
	int memcg_id = w->use_memcg ? w->memcg.id : 0;

	(void)e;
	t_ns -= w->t0_ns;
	row[0] = (int64_t)t_ns;
	row[1] = (int64_t)w->mem.free_pages;
	row[2] = (int64_t)cp_lru_size(&w->pc, CP_LRU_ACTIVE_FILE);
	row[3] = (int64_t)cp_lru_size(&w->pc, CP_LRU_INACTIVE_FILE);
	row[4] = (int64_t)w->mem.nr_owner[CP_OWNER_PAGECACHE];
	row[5] = (int64_t)cp_slab_pages(&w->fs.dentry_cache);
	row[6] = (int64_t)cp_slab_pages(&w->fs.name_cache);
	row[7] = (int64_t)cp_slab_pages(&w->fs.inode_cache);
	row[8] = w->fs.has_ili ? (int64_t)cp_slab_pages(&w->fs.ili_cache) : 0;
	row[9] = (int64_t)cp_dcache_lru_count(&w->fs.dc, memcg_id);
	row[10] = (int64_t)cp_icache_lru_count(&w->fs.ic, memcg_id);
	row[11] = (int64_t)cp_fs_nr_cached_objects(&w->fs);
	row[12] = (int64_t)w->sb.shrinker.nr_deferred[w->shrinkers.deferred_per_memcg ? memcg_id : 0];
	row[13] = w->use_memcg ? (int64_t)w->memcg.usage_pages : 0;
	row[14] = (int64_t)w->mem.nr_owner[CP_OWNER_FSBUF];
	row[15] = (int64_t)cp_xfs_buftarg_count(&w->fs.bt);
	sample_zones(&w->mem, &row[16]);
	if (!w->use_memcg)
		for (unsigned z = 0; z < w->mem.nr_zones; z++) {
			const struct cp_mem_zone *mz = &w->mem.zones[z];

			if (mz->type == CP_ZONE_NORMAL)
				cp_zonewatch_add(&r->zw, mz->free_pages, mz->buddy.watermark_boost,
						 mz->wmark.min + mz->buddy.watermark_boost);
		}
	/* nr_zone_active_file + nr_zone_inactive_file of ZONE_DMA32 (the
	 * zone below the top one; 0 with one zone) */
	row[20] = w->mem.nr_zones > 1
			  ? (int64_t)(cp_lru_size_below_top_zone(&w->pc, CP_LRU_ACTIVE_FILE) +
				      cp_lru_size_below_top_zone(&w->pc, CP_LRU_INACTIVE_FILE))
			  : 0;
	row[21] = 0; /* pages on the per-CPU lists of every zone */
	for (unsigned z = 0; z < w->mem.nr_zones; z++)
		row[21] += (int64_t)w->mem.zones[z].pcp.nr_held_pages;
	/* the CPUs' work and the readers' since the measured phase began,
	 * as the real harness samples them (/proc/stat, /proc/PID/stat) */
	row[22] = (int64_t)(cp_engine_cpu_busy_ns(w->e) - r->cpu_busy0);
	row[23] = (int64_t)readers_cpu_ns(r);
	sample_pagetypes(&w->mem, &row[24]);
	/* cumulative since the measured phase began */
	row[36] = (int64_t)(w->vs.v[CP_VM_WORKINGSET_REFAULT] - r->vs_start.v[CP_VM_WORKINGSET_REFAULT]);
	row[37] = (int64_t)(w->vs.v[CP_VM_PGDEACTIVATE] - r->vs_start.v[CP_VM_PGDEACTIVATE]);
	row[38] = (int64_t)cp_xfs_cil_pages(&w->fs.cil); /* the CIL's log vectors */
	if (w->cfg->progress && t_ns >= r->next_progress_ns) {
		char what[96];

		snprintf(what, sizeof(what), "%s: %llu files created",
			 cp_ref_policy_name(w->cfg->policy),
			 (unsigned long long)w->vs.v[CP_VM_INODES_ALLOCATED]);
		w->cfg->progress(w->cfg->progress_priv, t_ns, what);
		r->next_progress_ns = t_ns + CP_NSEC_PER_SEC;
	}
	return cp_series_add_row(&r->out->series, row);
}

/* 6.7+ pcp auto-tuning only (the other profiles' counters stay as they
 * were): the sum of every zone's per-CPU high at the end, the pages on
 * pcp lists at the end, and the pages decay_pcp_high gave back. */
static int pcp_tune_counters(const struct cp_world *w, struct cp_run_result *out)
{
	uint64_t high = 0, decay = 0;
	unsigned i;
	int rc;

	if (!cp_mem_pcp_auto_tune(&w->mem))
		return 0;
	for (i = 0; i < w->mem.nr_zones; i++) {
		high += cp_pcp_high_sum(&w->mem.zones[i].pcp);
		decay += w->mem.zones[i].pcp.nr_decay_pages;
	}
	rc = cp_run_result_set_counter(out, "cp_end_pcp_high_pages", (int64_t)high);
	if (!rc)
		rc = cp_run_result_set_counter(out, "cp_end_pcp_pages",
					       (int64_t)cp_mem_pcp_held_pages(&w->mem));
	if (!rc)
		rc = cp_run_result_set_counter(out, "cp_pcp_decay_pages", (int64_t)decay);
	return rc;
}

/* fs_mark's names[] pages faulted in, all creators (the whole run). */
static uint64_t names_faults(const struct run *r)
{
	uint64_t sum = 0;
	size_t g;

	for (g = 0; g < r->sc->nr_creators; g++)
		sum += r->groups[g].nr_names_faults;
	return sum;
}

/* fs_mark's run time as the real harness measures it (the process, from
 * the workers' fork to its exit), summed over the fs_mark instances that
 * ran to the end, their files and their workers' CPU time (the real
 * harness's wait4() rusage of fs_mark); 0 when none did. */
static uint64_t fs_mark_ns(const struct run *r, uint64_t *files, uint64_t *cpu_ns)
{
	struct cp_actor_stats st;
	uint64_t ns = 0;
	size_t g;
	unsigned i;

	*files = 0;
	*cpu_ns = 0;
	for (g = 0; g < r->sc->nr_creators; g++) {
		const struct cp_creator_group *grp = &r->groups[g];

		if (!grp->workers_started || !grp->stopped)
			continue;
		ns += grp->stop_ns - grp->start_ns;
		for (i = 0; i < grp->nr_workers; i++) {
			*files += grp->workers[i].nr_files;
			cp_engine_actor_stats(r->w.e, grp->workers[i].task.id, &st);
			*cpu_ns += st.cpu_ns;
		}
	}
	return ns;
}

/* The CPU work of the readers, streamers and walkers (the real
 * harness's loopers) over the run. */
static uint64_t readers_cpu_ns(const struct run *r)
{
	struct cp_actor_stats st;
	uint64_t ns = 0;
	size_t i;

	for (i = 0; i < r->nr_readers; i++) {
		cp_engine_actor_stats(r->w.e, r->readers[i].task.id, &st);
		ns += st.cpu_ns;
	}
	for (i = 0; i < r->nr_walkers; i++) {
		cp_engine_actor_stats(r->w.e, r->walkers[i].task.id, &st);
		ns += st.cpu_ns;
	}
	return ns;
}

static int fill_counters(struct run *r)
{
	struct cp_world *w = &r->w;
	struct cp_run_result *out = r->out;
	struct {
		const char *name;
		uint64_t value;
	} extra[] = {
		/* the device's bytes from the measured phase on */
		{ "cp_device_read_bytes", w->nr_device_read_bytes - r->device_read0 },
		{ "cp_device_write_bytes", w->nr_device_write_bytes - r->device_write0 },
		{ "cp_device_read_requests", w->dev.nr_read_requests - r->device_read_rq0 },
		{ "cp_device_write_requests", w->dev.nr_write_requests - r->device_write_rq0 },
		/* time with a request in flight: the kernel's io_ticks */
		{ "cp_device_busy_ns",
		  cp_blockdev_busy_ns(&w->dev, cp_engine_now(w->e)) - r->device_busy0 },
		/* the real harness's names: CPU work over the measured phase */
		{ "cpu_busy_ns", cp_engine_cpu_busy_ns(w->e) - r->cpu_busy0 },
		{ "readers_cpu_ns", readers_cpu_ns(r) },
		{ "cp_kswapd_run_delay_ns", kswapd_run_delay_ns(w) - r->kswapd_run_delay0 },
		{ "cp_setup_refetched_bytes", r->refetched_bytes },
		{ "cp_setup_refetch_ns", r->refetch_ns },
		{ "cp_setup_write_ns", r->write_ns },
		{ "cp_pages_accessed", w->nr_pages_accessed },
		{ "cp_sb_nr_deferred",
		  w->sb.shrinker.nr_deferred[w->shrinkers.deferred_per_memcg && w->use_memcg
						     ? w->memcg.id : 0] },
		{ "cp_sb_scan_refused_nofs", w->sb.nr_stop },
		{ "cp_sb_objects_scanned", w->sb.shrinker.nr_scanned_total },
		/* the harness's names: its calls at priority <= 3 over the
		 * measured phase (vmscan:mm_shrink_slab_start) */
		{ "sb_deep_calls", w->sb.shrinker.nr_deep_calls - r->sb_deep_calls0 },
		{ "sb_deep_scan", w->sb.shrinker.nr_deep_scan - r->sb_deep_scan0 },
		{ "sb_deep_fs_calls", w->sb.shrinker.nr_deep_fs_calls - r->sb_deep_fs_calls0 },
		{ "cp_xfs_sync_cluster_writes", w->fs.xfs.nr_sync_writes },
		{ "cp_xfs_ail_cluster_writes", w->fs.xfs.nr_ail_writes },
		{ "cp_end_dentry_lru", cp_dcache_lru_count(&w->fs.dc, w->use_memcg ? w->memcg.id : 0) },
		{ "cp_end_inode_lru", cp_icache_lru_count(&w->fs.ic, w->use_memcg ? w->memcg.id : 0) },
		{ "cp_end_fs_reclaimable", cp_fs_nr_cached_objects(&w->fs) },
		{ "cp_end_slab_pages", cp_slab_pages(&w->fs.dentry_cache) +
					       cp_slab_pages(&w->fs.name_cache) +
					       cp_slab_pages(&w->fs.inode_cache) +
					       (w->fs.has_ili ? cp_slab_pages(&w->fs.ili_cache) : 0) },
		{ "cp_end_pagecache_pages", w->mem.nr_owner[CP_OWNER_PAGECACHE] },
		{ "cp_xfs_buf_pages_end", w->mem.nr_owner[CP_OWNER_FSBUF] },
		{ "cp_xfs_buf_freed", w->fs.bt.nr_freed },
		{ "cp_xfs_buf_reads", w->fs.bt.nr_reads },
		{ "cp_xfs_buf_folio", w->fs.bt.nr_folio },
		{ "cp_xfs_buf_vmalloc", w->fs.bt.nr_vmalloc },
		{ "cp_xfs_buf_dir_writes", w->fs.bt.nr_writes },
		{ "cp_xfs_buf_scanned", w->fs.bt.shrinker.nr_scanned_total },
		/* the CIL's log vectors (xfs_log_cil.c; 0 when not modelled) */
		{ "cp_xfs_cil_pushes", w->fs.cil.nr_pushes },
		{ "cp_xfs_cil_flushes", w->fs.cil.nr_flushes },
		{ "cp_xfs_cil_log_bytes", w->fs.cil.nr_log_bytes },
		{ "cp_xfs_cil_lvs", w->fs.cil.nr_lvs },
		{ "cp_xfs_cil_lv_fallbacks", w->fs.cil.nr_lv_fallbacks },
		{ "cp_xfs_cil_over_blocking", w->fs.cil.nr_over_blocking },
		{ "cp_xfs_cil_pages_end", cp_xfs_cil_pages(&w->fs.cil) },
		/* the whole run: fs_mark workers' names[] page faults; the
		 * processes' pages left at the end (the static part) */
		{ "cp_fsmark_names_faults", names_faults(r) },
		{ "cp_end_process_pages", w->mem.nr_owner[CP_OWNER_PROCESS] },
	};
	uint64_t fsm_files, fsm_cpu_ns, fsm_ns = fs_mark_ns(r, &fsm_files, &fsm_cpu_ns);
	size_t i;
	int rc;

	/* the real harness's names: fs_mark's run time, files and rate */
	if (fsm_ns) {
		rc = cp_run_result_set_counter(out, "fs_mark_ns", (int64_t)fsm_ns);
		if (!rc)
			rc = cp_run_result_set_counter(out, "fs_mark_files", (int64_t)fsm_files);
		if (!rc)
			rc = cp_run_result_set_counter(out, "fs_mark_cpu_ns", (int64_t)fsm_cpu_ns);
		if (!rc)
			rc = cp_run_result_set_counter(
				out, "fs_mark_files_per_sec",
				(int64_t)(fsm_files * CP_NSEC_PER_SEC / fsm_ns));
		if (rc)
			return rc;
	}

	for (i = 0; i < CP_NR_VMSTAT; i++) {
		char name[64];

		rc = cp_run_result_set_counter(out, cp_vmstat_name((enum cp_vmstat_item)i),
					       (int64_t)(w->vs.v[i] - r->vs_start.v[i]));
		if (rc)
			return rc;
		if (!r->have_setup)
			continue;
		/* the set-up's (writing the files), as the harness's setup_* */
		snprintf(name, sizeof(name), "setup_%s", cp_vmstat_name((enum cp_vmstat_item)i));
		rc = cp_run_result_set_counter(out, name, (int64_t)r->vs_start.v[i]);
		if (rc)
			return rc;
	}
	for (i = 0; i < sizeof(extra) / sizeof(extra[0]); i++) {
		rc = cp_run_result_set_counter(out, extra[i].name, (int64_t)extra[i].value);
		if (rc)
			return rc;
	}
	rc = pcp_tune_counters(w, out);
	if (!rc && r->zw.samples)
		rc = cp_zonewatch_counters(&r->zw, out);
	if (rc)
		return rc;
	for (i = 0; i < CP_BUDDY_MAX_ORDER; i++) {
		char name[48];

		snprintf(name, sizeof(name), "buddyinfo_start_order_%zu", i);
		rc = cp_run_result_set_counter(out, name, (int64_t)r->buddyinfo_start[i]);
		if (rc)
			return rc;
	}
	for (i = 0; i < CP_NR_ZONE_TYPES; i++) {
		char name[64];

		if (!r->have_measured_free[i])
			continue;
		for (unsigned mt = 0; mt < CP_MIGRATE_TYPES; mt++) {
			uint64_t pages = 0, half = 0;

			for (unsigned o = 0; o < CP_BUDDY_MAX_ORDER; o++) {
				uint64_t p = r->measured_blocks[i][mt][o] << o;

				pages += p;
				if (o >= CP_MEASURED_FREE_HALF_BLOCK_ORDER)
					half += p;
			}
			cp_measured_free_counter_name((unsigned)i, mt, name, sizeof(name));
			rc = cp_run_result_set_counter(out, name, (int64_t)pages);
			if (rc)
				return rc;
			cp_measured_free_half_block_counter_name((unsigned)i, mt, name, sizeof(name));
			rc = cp_run_result_set_counter(out, name, (int64_t)half);
			if (rc)
				return rc;
			cp_pageblocks_counter_name("measured", (unsigned)i, mt, name, sizeof(name));
			rc = cp_run_result_set_counter(out, name,
						       (int64_t)r->measured_pageblocks[i][mt]);
			if (rc)
				return rc;
			for (unsigned o = 0; o < CP_BUDDY_MAX_ORDER; o++) {
				cp_measured_free_order_counter_name((unsigned)i, mt, o, name,
								    sizeof(name));
				rc = cp_run_result_set_counter(
					out, name, (int64_t)r->measured_blocks[i][mt][o]);
				if (rc)
					return rc;
			}
		}
		cp_pcp_counter_name("measured", (unsigned)i, name, sizeof(name));
		rc = cp_run_result_set_counter(out, name, (int64_t)r->measured_pcp[i]);
		if (rc)
			return rc;
		if (r->w.mem.nr_zones < 2)
			continue;
		cp_measured_file_counter_name((unsigned)i, name, sizeof(name));
		rc = cp_run_result_set_counter(out, name, (int64_t)r->measured_file[i]);
		if (rc)
			return rc;
		cp_measured_boost_counter_name((unsigned)i, name, sizeof(name));
		rc = cp_run_result_set_counter(out, name, (int64_t)r->measured_boost[i]);
		if (rc)
			return rc;
	}
	for (i = 0; i < r->nr_walkers; i++) {
		char name[96];

		snprintf(name, sizeof(name), "cp_walker_%s_passes", r->walkers[i].task.name);
		rc = cp_run_result_set_counter(out, name, (int64_t)r->walkers[i].nr_passes);
		if (rc)
			return rc;
		snprintf(name, sizeof(name), "cp_walker_%s_icache_misses", r->walkers[i].task.name);
		rc = cp_run_result_set_counter(out, name, (int64_t)r->walkers[i].nr_misses);
		if (rc)
			return rc;
	}
	return 0;
}

static int fill_header(struct run *r)
{
	const struct cp_sim_config *cfg = r->w.cfg;
	struct cp_run_result *out = r->out;
	int rc = 0;

	rc = rc ? rc : cp_run_result_set_str(&out->source, "model");
	rc = rc ? rc : cp_run_result_set_str(&out->policy, cp_ref_policy_name(cfg->policy));
	rc = rc ? rc : cp_run_result_set_str(&out->kernel, cfg->kernel->name);
	rc = rc ? rc : cp_run_result_set_str(&out->scenario, r->sc->name);
	rc = rc ? rc : cp_run_result_set_str(&out->confine, cp_confine_name(cfg->confine));
	out->mem_bytes = r->sc->ram_bytes;
	out->seed = cfg->seed;
	return rc;
}

static void run_release(struct run *r)
{
	size_t i;

	for (i = 0; i < r->nr_readers; i++)
		cp_free(r->readers[i].task.waiters);
	for (i = 0; i < r->nr_walkers; i++)
		cp_free(r->walkers[i].task.waiters);
	for (i = 0; i < r->nr_groups; i++) {
		cp_free(r->groups[i].main_task.waiters);
		cp_free(r->groups[i].workers);
	}
	for (i = 0; i < r->nr_writers; i++)
		cp_writer_release(&r->writers[i]);
	cp_free(r->writers);
	cp_refetcher_release(&r->refetcher);
	cp_free(r->measured_ids);
	cp_free(r->readers);
	cp_free(r->groups);
	cp_free(r->walkers);
	cp_free(r->files);
	cp_daemons_release(&r->w);
	cp_engine_destroy(r->w.e);
	cp_blockdev_release(&r->w.dev);
	cp_wb_domain_release(&r->w.wb);
	if (r->w.fs_ready)
		cp_fs_release(&r->w.fs);
	cp_pagecache_release(&r->w.pc);
	if (r->w.use_bh)
		cp_buffer_heads_release(&r->w.bh);
	cp_mem_release(&r->w.mem);
}

int cp_sim_run(const struct cp_sim_config *cfg, struct cp_run_result *out, struct cp_diag *diag)
{
	struct run *r = cp_calloc(1, sizeof(*r));
	struct cp_blockdev_params bp;
	int rc;

	if (!r)
		return -CP_ENOMEM;
	r->w.cfg = cfg;
	r->sc = cfg->scenario;
	r->out = out;
	rc = fill_header(r);
	if (!rc)
		rc = cp_series_set_columns(&out->series, series_columns, NR_COLUMNS);
	if (!rc)
		rc = setup_memory(r, diag);
	if (!rc)
		rc = setup_model(r, diag);
	if (!rc)
		rc = cp_engine_create(&r->w.e, cfg->machine->nr_cpus);
	if (!rc) {
		uint64_t num, den;

		cp_engine_set_autogroup(r->w.e, cfg->machine->sched_autogroup);
		cp_engine_set_cancel(r->w.e, cfg->cancelled, cfg->cancel_priv);
		if (cp_sim_creator_light_share(cfg->machine, &num, &den))
			rc = cp_engine_set_light_share(r->w.e, num, den);
		if (!rc && cfg->machine->share_beside_busy_cpus_pm)
			rc = cp_engine_set_host_io_share(r->w.e, cfg->machine->share_beside_busy_cpus_pm,
							 1000);
	}
	if (!rc) {
		cp_blockdev_params_from_machine(&bp, cfg->machine);
		rc = cp_blockdev_init(&r->w.dev, &bp, diag);
	}
	if (!rc)
		rc = setup_files(r, diag);
	if (!rc)
		rc = setup_readers(r, diag);
	if (!rc)
		rc = setup_creators(r, diag);
	if (!rc)
		rc = setup_walkers(r, diag);
	if (!rc)
		rc = setup_timing(r, diag);
	if (!rc)
		rc = cp_daemons_start(&r->w);
	/* no data file to write: the measured phase starts at once */
	if (!rc && !r->nr_writers)
		rc = measured_phase_begins(r, 0);
	if (!rc && !r->nr_writers && r->sc->time_limit_ns)
		cp_engine_set_time_limit(r->w.e, r->sc->time_limit_ns);
	if (!rc && !r->nr_writers)
		rc = cp_engine_set_sampler(r->w.e, CP_SAMPLE_INTERVAL_NS, sample, r);
	if (!rc)
		rc = cp_engine_run(r->w.e, diag);
	if (!rc && r->setup_rc)
		rc = cp_diag_set(diag, r->setup_rc, "%s: reading back the data files: %s",
				 r->sc->source, cp_strerror(r->setup_rc));
	if (!rc) {
		out->duration_ns = 0;
		if (out->series.nr_rows)
			out->duration_ns = (uint64_t)out->series.values[(out->series.nr_rows - 1) *
									out->series.nr_columns];
		rc = fill_counters(r);
	}
	if (!rc && r->w.failed) {
		out->failed = 1;
		rc = cp_run_result_set_str(&out->failure, r->w.failure);
	}
	run_release(r);
	cp_free(r);
	return rc;
}
