/*
 * daemons.c - the kernel threads of the run: kswapd, kcompactd, XFS's
 * background inode reclaim worker and the AIL pusher (xfsaild).
 *
 * kswapd (mm/vmscan.c kswapd(), 4.11/6.1): sleeps until the allocator
 * wakes it below the low watermark; then runs balance_pgdat() until free
 * memory is above the high watermark, and sleeps again. A run is taken a
 * SWAP_CLUSTER_MAX batch per step, so its evictions spread over its CPU
 * time while the other tasks run (reclaim.h cp_balance_pgdat_step). After
 * MAX_RECLAIM_RETRIES (16) passes that reclaim nothing it gives up until
 * woken again (pgdat->kswapd_failures). Going to sleep
 * (kswapd_try_to_sleep) it wakes kcompactd (mm/compaction.c kcompactd(),
 * 6.1: compaction.c), which compacts the zones once per wake-up, a batch
 * per step, and sleeps again; kswapd itself first naps HZ/10 (100 ms): a
 * wake-up then starts the next run at once
 * (KSWAPD_LOW_WMARK_HIT_QUICKLY), and after the nap it sleeps until woken
 * only if the node is still balanced - else it runs again unasked
 * (KSWAPD_HIGH_WMARK_HIT_QUICKLY, also counted when a run ends
 * unbalanced and the next follows at once; reclaim.c
 * cp_kswapd_nap_end). A run that ended at the order it was asked is
 * followed by the sleep test at the order asked while it ran (the top
 * of kswapd()'s loop: reclaim.c cp_kswapd_loop_top): a readahead folio
 * that found no free block of its order while kswapd ran keeps kswapd
 * from its nap, and the next run is at that order.
 *
 * XFS (fs/xfs/xfs_icache.c, xfs_trans_ail.c, xfs_log.c, 4.11):
 * xfs_reclaim_worker frees clean reclaimable inodes every
 * xfs_syncd_centisecs / 6 = 5 s; the log worker pushes the whole AIL
 * every xfs_syncd_centisecs = 30 s, and so does shrinker-driven inode
 * reclaim (xfs_reclaim_inodes_nr -> xfs_ail_push_all); xfsaild writes the
 * dirty inode clusters and directory buffers back.
 *
 * The create's deferred work (cp_kworker_queue()): of every create, the
 * part the machine runs outside fs_mark - the CIL push
 * (xlog_cil_push_work on the xfs-cil workqueue), log and buffer I/O
 * completion, the loop device's per-request work (loop_workfn) and the
 * interrupts under them - measured by calibrate as xfs_create_kworker_ns.
 * One kworker actor runs it, a kernel thread in the root task group: the
 * CPU it takes competes with kswapd's at full weight where autogroup
 * puts the run's tasks in a group of their own.
 *
 * SIMPLIFIED: xfsaild writes 64 clusters (plus the directory buffers
 * logged before them) per step at the device's write rate and is
 * otherwise idle (no log-space-driven tail pushing). The deferred work
 * is one kworker's, taken as it comes (no per-CPU workqueues, no
 * batching by log space); interrupts are scheduled like a thread.
 */
#include <cachepressure/error.h>

#include "core/alloc.h"
#include "model/fs_profile.h"
#include "model/gfp.h"
#include "model/memcg_stats.h"
#include "sim/world.h"

#define KSWAPD_MAX_FAILURES 16
#define KSWAPD_NAP_NS (CP_NSEC_PER_SEC / 10) /* schedule_timeout(HZ/10) */
#define AIL_PUSH_CLUSTERS 64

struct kswapd {
	struct cp_task task;
	unsigned failures;
	/* alloc_order: the order the last balance_pgdat() was asked;
	 * reclaim_order: sc.order it ended at; highest_zoneidx: its zone
	 * index (kswapd() keeps it when no wake-up since asked for one:
	 * kswapd_highest_zoneidx(pgdat, prev)) - until the loop's top reads
	 * what was asked meanwhile (cp_kswapd_loop_top) */
	struct cp_kswapd_orders o;
	bool ran;               /* balance_pgdat() ran since the last wake-up */
	bool running;           /* a balance_pgdat() run is under way */
	bool napping;           /* in kswapd_try_to_sleep()'s HZ/10 sleep */
	bool hopeless;          /* the nap began with the node hopeless */
	struct cp_balance_pgdat run;
};

struct kcompactd {
	struct cp_task task;
	/* compact_node(proactive) under way: the node's score before it */
	unsigned proactive_score;
};

struct xfs_daemon {
	struct cp_task task;
};

struct kworker {
	struct cp_task task;
	uint64_t backlog_ns; /* CPU work queued and not yet taken */
};

/* kswapd_try_to_sleep() once prepare_kswapd_sleep() allows it (balanced
 * at reclaim_order, or hopeless): clear compaction's skip hints where a
 * direct compaction asked (reset_isolation_suitable), wake kcompactd for
 * alloc_order - the order balance_pgdat() was asked when it ended below
 * it (compact_gap reclaimed), else the order asked since
 * (cp_kswapd_loop_top) - and nap HZ/10, wakeable (kswapd_nap_end). */
static void kswapd_nap(struct kswapd *k, bool hopeless, struct cp_step *out)
{
	struct cp_reclaim *r = &k->task.w->reclaim;

	cp_reset_isolation_suitable(&k->task.w->compaction);
	cp_reclaim_wake_kcompactd(r, k->o.alloc_order);
	k->ran = false;
	k->napping = true;
	k->hopeless = hopeless;
	r->kswapd_sleeping = true;
	/* clear_reclaim_active(): balance_pgdat is over */
	cp_mem_set_reclaim_active(&k->task.w->mem, false);
	out->next = CP_STEP_SLEEP_FOR;
	out->sleep_ns = KSWAPD_NAP_NS;
}

/* The end of the nap: a wake-up (hook_wake sets kswapd_wanted) or 100
 * ms. True when kswapd goes to sleep until woken. */
static bool kswapd_nap_end(struct kswapd *k, struct cp_step *out)
{
	struct cp_reclaim *r = &k->task.w->reclaim;

	k->napping = false;
	if (!cp_kswapd_nap_end(r, r->kswapd_wanted, k->hopeless, k->o.reclaim_order,
			       k->o.highest_zoneidx))
		return false;
	r->kswapd_sleeping = true;
	out->next = CP_STEP_BLOCK;
	return true;
}

/* kswapd(): read the order and highest zone asked since the last pass
 * (then reset; an unset zone index keeps the previous one) and start
 * balance_pgdat(). */
static void kswapd_begin_run(struct kswapd *k)
{
	struct cp_reclaim *r = &k->task.w->reclaim;

	k->o.alloc_order = r->kswapd_order;
	r->kswapd_order = 0;
	if (r->kswapd_highest_zoneidx != CP_KSWAPD_ZONE_UNSET)
		k->o.highest_zoneidx = r->kswapd_highest_zoneidx;
	r->kswapd_highest_zoneidx = CP_KSWAPD_ZONE_UNSET;
	cp_balance_pgdat_begin(r, &k->run, k->o.alloc_order, k->o.highest_zoneidx, &k->task.ctx);
	k->running = true;
}

/* One batch of balance_pgdat() per step (cp_balance_pgdat_step): its
 * evictions spread over kswapd's CPU time as the kernel's do. */
static int kswapd_step(struct cp_engine *e, void *priv, uint64_t now_ns, struct cp_step *out)
{
	struct kswapd *k = priv;
	struct cp_world *w = k->task.w;
	struct cp_reclaim *r = &w->reclaim;
	struct cp_work work = { 0 };

	(void)e;
	r->kswapd_sleeping = false;
	if (k->napping && kswapd_nap_end(k, out))
		return 0;
	if (!k->running) {
		if (k->ran) {
			/* kswapd_try_to_sleep() right after the run: the
			 * orders asked while it ran count (the loop's top) */
			cp_kswapd_loop_top(r, &k->o);
			if (cp_prepare_kswapd_sleep(r, false, k->o.reclaim_order,
						    k->o.highest_zoneidx)) {
				k->failures = 0;
				kswapd_nap(k, false, out);
				return 0;
			}
			/* a run that ended unbalanced: the next follows at once */
			cp_count(&w->vs, CP_VM_KSWAPD_HIGH_WMARK_HIT_QUICKLY, 1);
		}
		kswapd_begin_run(k);
	}
	cp_task_begin(&k->task);
	k->running = cp_balance_pgdat_step(r, &k->run);
	cp_task_end(&k->task, &work, now_ns, out);
	/* the CPU time of kswapd's work, as /proc/<kswapd0>/stat counts it */
	cp_count(&w->vs, CP_VM_KSWAPD_CPU_NS, out->cpu_ns);
	if (k->running)
		return 0;
	k->o.reclaim_order = k->run.order;
	k->ran = true;
	if (k->run.sc.nr_reclaimed == 0 && ++k->failures >= KSWAPD_MAX_FAILURES) {
		k->failures = 0;
		cp_kswapd_loop_top(r, &k->o);
		kswapd_nap(k, true, out);
	}
	return 0;
}

static const struct cp_actor_ops kswapd_ops = {
	.name = "kswapd0",
	.step = kswapd_step,
};

/* kswapd_is_running(pgdat) */
static bool kswapd_running(void *priv)
{
	const struct cp_world *w = priv;

	return !w->reclaim.kswapd_sleeping;
}

/* kcompactd(): woken by wakeup_kcompactd() -> kcompactd_do_work(); with
 * proactive compaction (5.9+) also every HPAGE_FRAG_CHECK_INTERVAL_MSEC
 * (500 ms) -> should_proactive_compact_node() -> compact_node(proactive),
 * the next check 2^COMPACT_MAX_DEFER_SHIFT times later when the node's
 * score did not fall; then sleep, unless an order was asked meanwhile
 * (kcompactd_work_requested: the wait returns at once). The work goes a
 * batch per step (cp_kcompactd_work_step), so the tasks that allocate
 * run between its batches as they run beside the kernel's kcompactd. A
 * migrated page costs one page copy at the machine's copy bandwidth;
 * scanning pfns is not charged (SIMPLIFIED). */
static int kcompactd_step(struct cp_engine *e, void *priv, uint64_t now_ns, struct cp_step *out)
{
	struct kcompactd *k = priv;
	struct cp_world *w = k->task.w;
	struct cp_compaction *c = &w->compaction;
	struct cp_work work = { 0 };
	uint64_t timeout = CP_HPAGE_FRAG_CHECK_INTERVAL_NS, migrated = 0;
	bool more = false, proactive;

	(void)e;
	c->kcompactd_sleeping = false;
	if (!c->kcd.active) {
		if (c->kcompactd_max_order) { /* kcompactd_work_requested() */
			cp_kcompactd_begin(c, false, NULL, NULL);
		} else if (cp_should_proactive_compact_node(c, kswapd_running(w))) {
			k->proactive_score = cp_fragmentation_score_node(c);
			cp_kcompactd_begin(c, true, kswapd_running, w);
		}
	}
	proactive = c->kcd.active && c->kcd.proactive;
	cp_task_begin(&k->task);
	if (c->kcd.active)
		more = cp_kcompactd_work_step(c, k->task.ctx.cpu, &migrated);
	work.nr_copied_bytes = migrated * CP_PAGE_SIZE;
	cp_task_end(&k->task, &work, now_ns, out);
	/* the CPU time of kcompactd's work, as /proc/<kcompactd0>/stat
	 * counts it */
	cp_count(&w->vs, CP_VM_KCOMPACTD_CPU_NS, out->cpu_ns);
	if (more || c->kcompactd_max_order) {
		out->next = CP_STEP_CONTINUE;
		return 0;
	}
	if (proactive && cp_fragmentation_score_node(c) >= k->proactive_score)
		timeout <<= CP_COMPACT_MAX_DEFER_SHIFT;
	c->kcompactd_sleeping = true;
	if (c->proactiveness) {
		out->next = CP_STEP_SLEEP_FOR;
		out->sleep_ns = timeout;
	} else {
		out->next = CP_STEP_BLOCK;
	}
	return 0;
}

static const struct cp_actor_ops kcompactd_ops = {
	.name = "kcompactd0",
	.step = kcompactd_step,
};

static uint64_t cluster_bytes(const struct cp_world *w)
{
	return (uint64_t)w->fs.fsp->inodes_per_cluster * 512;
}

/* xfsaild: write back dirty inode clusters while a push is wanted. */
static int xfsaild_step(struct cp_engine *e, void *priv, uint64_t now_ns, struct cp_step *out)
{
	struct xfs_daemon *d = priv;
	struct cp_world *w = d->task.w;
	uint64_t n, dir_bytes = w->fs.bt.nr_write_bytes;

	(void)e;
	cp_mem_set_cpu(&w->mem, d->task.ctx.cpu);
	if (!w->fs.xfs.ail_push_all_requested ||
	    (w->fs.xfs.nr_dirty_clusters == 0 && w->fs.bt.nr_dirty == 0)) {
		w->fs.xfs.ail_push_all_requested = false;
		out->next = CP_STEP_BLOCK;
		return 0;
	}
	n = cp_xfs_ail_push(&w->fs.xfs, AIL_PUSH_CLUSTERS);
	dir_bytes = w->fs.bt.nr_write_bytes - dir_bytes;
	if (n || dir_bytes)
		out->io_until_ns = cp_world_write(w, now_ns, n * cluster_bytes(w) + dir_bytes);
	/* xfsaild_push(): items pinned in the CIL (the newest inodes and
	 * directory blocks are there) ask for a log flush (xlog_cil_flush) */
	if (w->has_cil) {
		cp_xfs_cil_flush(&w->fs.cil);
		if (w->fs.cil.push_wanted)
			cp_engine_wake(e, w->cil_id);
	}
	return 0;
}

/*
 * The CIL's push work on the xfs-cil workqueue (xlog_cil_push_work) and
 * the log I/O completions that end checkpoints (xlog_cil_committed):
 * free what completed, push what is queued - its first iclog written
 * apart, since it carries the previous checkpoint's commit record - and
 * sleep until the next completion or push. The CPU of both is in the
 * calibrated create cost.
 */
static int cil_step(struct cp_engine *e, void *priv, uint64_t now_ns, struct cp_step *out)
{
	struct xfs_daemon *d = priv;
	struct cp_world *w = d->task.w;
	struct cp_xfs_cil *cil = &w->fs.cil;
	uint64_t bytes, head, first, done, next;

	(void)e;
	cp_mem_set_cpu(&w->mem, d->task.ctx.cpu);
	cp_xfs_cil_complete(cil, now_ns);
	if (cil->push_wanted && cp_xfs_cil_push(cil, &bytes) && bytes) {
		head = bytes < cil->log.iclog_bytes ? bytes : cil->log.iclog_bytes;
		first = cp_world_write(w, now_ns, head);
		done = bytes > head ? cp_world_write(w, now_ns, bytes - head) : first;
		cp_xfs_cil_written(cil, first, done);
	}
	next = cp_xfs_cil_next_done(cil);
	if (next > now_ns) {
		out->next = CP_STEP_SLEEP_UNTIL;
		out->until_ns = next;
	} else if (next) {
		out->next = CP_STEP_CONTINUE;
	} else {
		out->next = CP_STEP_BLOCK; /* a push wakes it */
	}
	return 0;
}

static const struct cp_actor_ops cil_ops = {
	.name = "xfs-cil",
	.step = cil_step,
};

static const struct cp_actor_ops xfsaild_ops = {
	.name = "xfsaild",
	.step = xfsaild_step,
};

/* A kworker: runs the work queued since its last step, then sleeps
 * until more is queued (worker_thread() with an empty worklist). */
static int kworker_step(struct cp_engine *e, void *priv, uint64_t now_ns, struct cp_step *out)
{
	struct kworker *k = priv;

	(void)e;
	(void)now_ns;
	out->cpu_ns = k->backlog_ns;
	k->backlog_ns = 0;
	out->next = CP_STEP_BLOCK; /* queue_work() during the step wakes it again */
	return 0;
}

static const struct cp_actor_ops kworker_ops = {
	.name = "kworker",
	.step = kworker_step,
};

/* xfs_reclaim_worker: every 5 s, free clean reclaimable inodes. */
static int reclaim_worker_step(struct cp_engine *e, void *priv, uint64_t now_ns,
			       struct cp_step *out)
{
	struct xfs_daemon *d = priv;
	struct cp_world *w = d->task.w;
	struct cp_work work = { 0 };

	(void)e;
	cp_task_begin(&d->task);
	cp_xfs_reclaim_worker(&w->fs.xfs);
	cp_task_end(&d->task, &work, now_ns, out);
	return 0;
}

static const struct cp_actor_ops reclaim_worker_ops = {
	.name = "xfs-reclaim",
	.step = reclaim_worker_step,
};

/* xfs_log_worker: every 30 s, push the AIL. */
static int log_worker_step(struct cp_engine *e, void *priv, uint64_t now_ns, struct cp_step *out)
{
	struct xfs_daemon *d = priv;
	struct cp_world *w = d->task.w;

	(void)now_ns;
	(void)out;
	w->fs.xfs.ail_push_all_requested = true;
	cp_engine_wake(e, w->xfsaild_id);
	return 0;
}

static const struct cp_actor_ops log_worker_ops = {
	.name = "xfs-log",
	.step = log_worker_step,
};

/* A periodic kernel work item whose CPU time is not charged: only its
 * task (the world it acts on). */
struct timer_worker {
	struct cp_task task;
};

/* vmstat_update (mm/vmstat.c, 6.7+): every sysctl_stat_interval (1 s)
 * refresh_cpu_vm_stats() -> decay_pcp_high() shrinks each zone's
 * per-CPU high and gives back the pages above it (memory.c). Only with
 * pcp auto-tuning (SIMPLIFIED: one worker does every CPU's lists, where
 * each CPU's worker does its own). */

static int vmstat_update_step(struct cp_engine *e, void *priv, uint64_t now_ns,
			      struct cp_step *out)
{
	struct timer_worker *v = priv;

	(void)e;
	(void)now_ns;
	(void)out;
	cp_mem_vmstat_update(&v->task.w->mem);
	return 0;
}

static const struct cp_actor_ops vmstat_update_ops = {
	.name = "vmstat_update",
	.step = vmstat_update_step,
};

/* flush_memcg_stats_dwork (mm/memcontrol.c): every FLUSH_TIME the
 * memcg statistics are flushed, and reclaim's heuristics see the
 * counters as they are then (memcg_stats.c). */
static int memcg_stats_flush_step(struct cp_engine *e, void *priv, uint64_t now_ns,
				  struct cp_step *out)
{
	struct timer_worker *v = priv;

	(void)e;
	(void)now_ns;
	(void)out;
	cp_lruvec_stats_flush(&v->task.w->pc);
	return 0;
}

static const struct cp_actor_ops memcg_stats_flush_ops = {
	.name = "memcg_stats_flush",
	.step = memcg_stats_flush_step,
};

/* The real harness's sampler reads the run's memory.stat every second
 * (harness/lib/run.c SAMPLE_NS) when the run is in a memory cgroup, and
 * the v1 read flushes that memcg's statistics (memory_stat_show ->
 * memcg1_stat_format -> mem_cgroup_flush_stats; seen on 6.18.44 with
 * the memcg:memcg_flush_stats tracepoint: the cachepressure process
 * flushing the run's memcg once a second, between the periodic root
 * flushes). Part of the measured system, so the model does it too.
 * SIMPLIFIED: from the start of the model's run, not from its measured
 * phase. */
#define HARNESS_SAMPLE_NS CP_NSEC_PER_SEC

static const struct cp_actor_ops harness_memory_stat_ops = {
	.name = "harness_memory_stat",
	.step = memcg_stats_flush_step,
};

struct cp_daemons {
	struct kswapd kswapd;
	struct kcompactd kcompactd;
	struct xfs_daemon xfsaild, reclaim_worker, log_worker, cil;
	struct kworker kworker;
	struct timer_worker vmstat, memcg_stats_flush, harness_memory_stat;
};

void cp_kworker_queue(struct cp_world *w, uint64_t cpu_ns)
{
	if (!cpu_ns || !w->daemons)
		return;
	w->daemons->kworker.backlog_ns += cpu_ns;
	cp_engine_wake(w->e, w->daemons->kworker.task.id);
}

static void task_setup(struct cp_task *t, struct cp_world *w, const char *name, int cpu)
{
	*t = (struct cp_task){ .w = w, .name = name };
	t->ctx.gfp = CP_GFP_KERNEL;
	t->ctx.cpu = cpu;
	t->ctx.work = &t->rwork;
}

/* A daemon that sleeps until woken (kswapd, kcompactd): its task on
 * CPU 0, its actor started blocked, and the waker the model calls. */
static int add_sleeper(struct cp_world *w, const struct cp_actor_ops *ops, void *priv,
		       struct cp_task *t, const char *name, struct cp_engine_waker *waker)
{
	int rc;

	task_setup(t, w, name, 0);
	rc = cp_engine_add_actor(w->e, ops, priv,
				 CP_ACTOR_DAEMON | CP_ACTOR_START_BLOCKED | CP_ACTOR_KTHREAD, &t->id);
	if (rc)
		return rc;
	waker->e = w->e;
	waker->id = t->id;
	return 0;
}

/* The statistics flushes reclaim's heuristics depend on (memcg_stats.c):
 * the periodic flusher, and in a memory cgroup the harness's reads. */
static int memcg_stats_start(struct cp_world *w, struct cp_daemons *d)
{
	uint64_t period = w->cfg->kernel->memcg_stats_flush_ns;
	int rc;

	if (!period)
		return 0;
	task_setup(&d->memcg_stats_flush.task, w, "memcg_stats_flush", 0);
	rc = cp_engine_add_timer(w->e, &memcg_stats_flush_ops, &d->memcg_stats_flush, period,
				 CP_ACTOR_KTHREAD, &d->memcg_stats_flush.task.id);
	if (rc || w->cfg->confine != CP_CONFINE_MEMCG)
		return rc;
	task_setup(&d->harness_memory_stat.task, w, "harness_memory_stat", 0);
	/* the harness is a task of the run's session, not a kernel thread */
	return cp_engine_add_timer(w->e, &harness_memory_stat_ops, &d->harness_memory_stat,
				   HARNESS_SAMPLE_NS, 0, &d->harness_memory_stat.task.id);
}

/* The vmstat_update timer, when the per-CPU lists auto-tune (6.7+). */
static int vmstat_start(struct cp_world *w, struct cp_daemons *d)
{
	if (!cp_mem_pcp_auto_tune(&w->mem))
		return 0;
	task_setup(&d->vmstat.task, w, "vmstat_update", 0);
	return cp_engine_add_timer(w->e, &vmstat_update_ops, &d->vmstat, CP_NSEC_PER_SEC,
				   CP_ACTOR_KTHREAD, &d->vmstat.task.id);
}

int cp_daemons_start(struct cp_world *w)
{
	struct cp_daemons *d = cp_calloc(1, sizeof(*d));
	int rc;

	if (!d)
		return -CP_ENOMEM;
	w->daemons = d;
	rc = add_sleeper(w, &kswapd_ops, &d->kswapd, &d->kswapd.task, "kswapd0",
			 &w->kswapd_waker);
	if (rc)
		return rc;
	/* kswapd() starts with highest_zoneidx MAX_NR_ZONES - 1: the top */
	d->kswapd.o.highest_zoneidx = cp_reclaim_top_zone(&w->reclaim);
	w->reclaim.wake_kswapd = cp_engine_waker_wake;
	w->reclaim.wake_priv = &w->kswapd_waker;
	rc = add_sleeper(w, &kcompactd_ops, &d->kcompactd, &d->kcompactd.task, "kcompactd0",
			 &w->kcompactd_waker);
	if (rc)
		return rc;
	w->compaction.wake = cp_engine_waker_wake;
	w->compaction.wake_priv = &w->kcompactd_waker;
	/* the proactive check's timer runs from the start */
	w->compaction.proactiveness = w->cfg->kernel->compaction_proactiveness;
	if (w->compaction.proactiveness) {
		w->compaction.kcompactd_sleeping = false;
		cp_engine_wake(w->e, d->kcompactd.task.id);
	}
	if (w->reclaim.kswapd_wanted) {
		w->reclaim.kswapd_sleeping = false;
		cp_engine_wake(w->e, d->kswapd.task.id);
	}
	task_setup(&d->kworker.task, w, "kworker", 0);
	rc = cp_engine_add_actor(w->e, &kworker_ops, &d->kworker,
				 CP_ACTOR_DAEMON | CP_ACTOR_START_BLOCKED | CP_ACTOR_KTHREAD,
				 &d->kworker.task.id);
	if (rc)
		return rc;
	rc = vmstat_start(w, d);
	if (rc)
		return rc;
	rc = memcg_stats_start(w, d);
	if (rc)
		return rc;
	if (w->fs.fsp->kind != CP_FS_XFS)
		return 0;
	task_setup(&d->xfsaild.task, w, "xfsaild", 1);
	rc = cp_engine_add_actor(w->e, &xfsaild_ops, &d->xfsaild,
				 CP_ACTOR_DAEMON | CP_ACTOR_START_BLOCKED | CP_ACTOR_KTHREAD,
				 &w->xfsaild_id);
	if (rc)
		return rc;
	w->has_xfsaild = true;
	if (w->fs.cil.ready) {
		task_setup(&d->cil.task, w, "xfs-cil", 1);
		rc = cp_engine_add_actor(w->e, &cil_ops, &d->cil,
					 CP_ACTOR_DAEMON | CP_ACTOR_START_BLOCKED | CP_ACTOR_KTHREAD,
					 &w->cil_id);
		if (rc)
			return rc;
		w->has_cil = true;
	}
	task_setup(&d->reclaim_worker.task, w, "xfs-reclaim", 1);
	rc = cp_engine_add_timer(w->e, &reclaim_worker_ops, &d->reclaim_worker,
				 5 * CP_NSEC_PER_SEC, CP_ACTOR_KTHREAD, &d->reclaim_worker.task.id);
	if (rc)
		return rc;
	task_setup(&d->log_worker.task, w, "xfs-log", 1);
	return cp_engine_add_timer(w->e, &log_worker_ops, &d->log_worker,
				   30 * CP_NSEC_PER_SEC, CP_ACTOR_KTHREAD, &d->log_worker.task.id);
}

void cp_daemons_release(struct cp_world *w)
{
	cp_free(w->daemons);
	w->daemons = NULL;
}
