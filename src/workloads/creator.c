/*
 * creator.c - fs_mark -d DIR... -n N -L L -s 0 -S S -D D [-N n].
 *
 * fs_mark 3.3 (ref §1): one worker process per -d directory; each loop a
 * worker creates N files and the main process waits for all workers
 * before the next loop; files are kept (-L). Per file a worker calls
 * mkdir() of its current subdirectory (EEXIST after the first: only the
 * path lookup), then open(O_CREAT|O_TRUNC), write() of 0 bytes and
 * close(); -S0 never syncs, -S1 fsyncs each file before close. With -D
 * and without -N fs_mark uses the time-hash policy: a worker starts in
 * subdirectory (now in seconds) % D and moves to the next one every
 * secs_per_dir (180 s); with -N it moves after n files. Names are 40
 * characters (16 of time, 24 random), so every dentry needs an external
 * name.
 *
 * A step creates one file. Its CPU cost is the filesystem profile's
 * create cost plus the reclaim the allocations triggered.
 *
 * Each worker is a new process each loop (fork per -d directory, exit at
 * the loop's end; strace of fs_mark 3.3 shows a clone and exit_group per
 * directory per loop) whose table of names, -n entries of struct
 * name_entry (208 bytes), is an anonymous mapping it fills as it
 * creates: every 4 KiB of entries is a page fault, an order-0 movable
 * page charged to the memcg with GFP_HIGHUSER_MOVABLE (do_anonymous_page)
 * - in a memory cgroup at its limit that charge reclaims with __GFP_FS,
 * so the superblock shrinker may run, which the readers' NOFS page-cache
 * charges and XFS's transactions never allow. The worker's exit frees
 * the table. The fault's CPU time is in create_cpu_ns (fs_mark's
 * measured create rate includes it).
 *
 * SIMPLIFIED: fs_mark's per-loop fork and the parent's bookkeeping take
 * no time; the random part of each name is a unique id; the workers'
 * other memory (stack, libc) is the machine profile's static `process`.
 */
#include "workloads/creator.h"

#include <cachepressure/error.h>

#include "core/intmath.h"
#include "core/list.h"
#include "model/gfp.h"

uint64_t cp_creator_name_id(unsigned worker, uint64_t i)
{
	return ((uint64_t)(worker + 1) << 40) | i;
}

uint64_t cp_creator_subdir_id(uint64_t i)
{
	return (1ULL << 60) | i;
}

static void put_subdir(struct cp_creator_worker *cw)
{
	if (cw->subdir) {
		cp_fs_put(&cw->task.w->fs, cw->subdir);
		cw->subdir = NULL;
	}
}

/* Which subdirectory the next file goes to; returns true if it changed. */
static bool pick_subdir(struct cp_creator_worker *cw, uint64_t now_ns)
{
	struct cp_creator_group *g = cw->group;
	uint64_t next = cw->subdir_index;

	if (g->subdirs == 0)
		return false;
	if (g->files_per_subdir) {
		next = (cw->nr_files / g->files_per_subdir) % g->subdirs;
	} else if (!cw->subdir) {
		next = (now_ns / CP_NSEC_PER_SEC) % g->subdirs;
		cw->subdir_since_ns = now_ns;
	} else if (now_ns - cw->subdir_since_ns >= g->secs_per_dir_ns) {
		next = (cw->subdir_index + 1) % g->subdirs;
		cw->subdir_since_ns = now_ns;
	}
	if (cw->subdir && next == cw->subdir_index)
		return false;
	cw->subdir_index = next;
	return true;
}

/* The worker writes the name of its next file into its names[] table:
 * fault in the page that entry reaches (do_anonymous_page), charged to
 * the worker's memcg. Returns 0 or the allocation's error. */
static int touch_name_entry(struct cp_creator_worker *cw)
{
	struct cp_world *w = cw->task.w;
	uint64_t need = cp_div_round_up((cw->files_in_loop + 1) * CP_FS_MARK_NAME_ENTRY_BYTES,
					CP_PAGE_SIZE);
	struct cp_alloc_ctx ctx = cw->task.ctx;
	int rc;

	ctx.gfp = CP_GFP_HIGHUSER_MOVABLE;
	while (cw->names_pages < need) {
		rc = cp_mem_alloc(&w->mem, CP_OWNER_PROCESS, 1, &ctx);
		if (rc)
			return rc;
		cw->names_pages++;
		cw->group->nr_names_faults++;
	}
	return 0;
}

/* exit(): the worker's names[] table goes back (uncharged). */
static void free_names(struct cp_creator_worker *cw)
{
	struct cp_world *w = cw->task.w;

	if (cw->names_pages)
		cp_mem_free(&w->mem, CP_OWNER_PROCESS, cw->names_pages, cw->task.ctx.memcg);
	cw->names_pages = 0;
}

/* One loop finished by this worker: the last one to finish starts the
 * next loop for everybody. Returns true when fs_mark is done. */
static bool loop_done(struct cp_creator_worker *cw, struct cp_engine *e, struct cp_step *out)
{
	struct cp_creator_group *g = cw->group;
	unsigned i;

	cw->in_loop = false;
	cw->loops_done++;
	put_subdir(cw); /* the worker process exits */
	free_names(cw);
	if (++g->nr_done_loop < g->nr_workers) {
		out->next = CP_STEP_BLOCK;
		return false;
	}
	g->nr_done_loop = 0;
	g->loop++;
	for (i = 0; i < g->nr_workers; i++)
		if (&g->workers[i] != cw)
			cp_engine_wake(e, g->workers[i].task.id);
	if (g->loop >= g->loops) {
		cp_engine_wake(e, g->main_task.id);
		out->next = CP_STEP_STOP;
		return true;
	}
	return false;
}

static int main_step(struct cp_engine *e, void *priv, uint64_t now_ns, struct cp_step *out)
{
	struct cp_creator_group *g = cp_container_of(priv, struct cp_creator_group, main_task);
	unsigned i;

	if (cp_task_gate(&g->main_task, out))
		return 0;
	if (!g->workers_started) {
		/* fs_mark starts: fork one worker per directory */
		g->workers_started = true;
		g->start_ns = now_ns;
		for (i = 0; i < g->nr_workers; i++)
			cp_engine_wake(e, g->workers[i].task.id);
	}
	out->next = g->loop >= g->loops ? CP_STEP_STOP : CP_STEP_BLOCK;
	return 0;
}

static void main_stopped(struct cp_engine *e, void *priv, uint64_t now_ns)
{
	struct cp_creator_group *g = cp_container_of(priv, struct cp_creator_group, main_task);

	g->stopped = true;
	g->stop_ns = now_ns;
	cp_task_stopped(e, priv);
}

const struct cp_actor_ops cp_creator_main_ops = {
	.name = "fs_mark",
	.step = main_step,
	.stopped = main_stopped,
};

static int creator_step(struct cp_engine *e, void *priv, uint64_t now_ns, struct cp_step *out)
{
	struct cp_creator_worker *cw = priv;
	struct cp_creator_group *g = cw->group;
	struct cp_world *w = cw->task.w;
	struct cp_work work = { 0 };
	int rc;

	if (g->loop >= g->loops) {
		out->next = CP_STEP_STOP;
		return 0;
	}
	if (!cw->in_loop) {
		if (cw->loops_done > g->loop) { /* woken early: wait for the others */
			out->next = CP_STEP_BLOCK;
			return 0;
		}
		cw->in_loop = true;
		cw->files_in_loop = 0;
	}
	cp_task_begin(&cw->task);
	/* a charge's reclaim in progress goes on a level first; once it is
	 * over, the file the charge was for is tried again */
	if (cw->stepped.in_reclaim && cp_memcg_reclaim_continue(&w->mem, &cw->task.ctx))
		goto stalled;
	if (g->subdirs) {
		bool existed = true;

		/* mkdir(subdir) for every file: a lookup, EEXIST after the first */
		if (pick_subdir(cw, now_ns))
			put_subdir(cw);
		rc = cp_fs_mkdir(&w->fs, cw->dir, cp_creator_subdir_id(cw->subdir_index), 8,
				 &cw->task.ctx, cw->subdir ? NULL : &cw->subdir, &existed);
		if (rc)
			goto fail;
		if (!existed)
			g->nr_subdirs_made++;
		work.nr_mkdir_lookups = 1;
	}
	rc = touch_name_entry(cw);
	if (rc)
		goto fail;
	rc = cp_fs_create(&w->fs, g->subdirs ? cw->subdir : cw->dir,
			  cp_creator_name_id(cw->index, cw->nr_files), (unsigned)g->name_len,
			  &cw->task.ctx, NULL);
	if (rc)
		goto fail;
	cw->nr_files++;
	cw->files_in_loop++;
	work.nr_created_files = 1;
	cp_task_end(&cw->task, &work, now_ns, out);
	cp_kworker_queue(w, w->create_kworker_ns);
	if (g->sync) {
		/* -S1: fsync before close forces the log: one small write */
		uint64_t done = cp_world_write(w, now_ns, CP_PAGE_SIZE);

		if (done > out->io_until_ns)
			out->io_until_ns = done;
	}
	if (cw->files_in_loop >= g->files_per_loop)
		loop_done(cw, e, out);
	return 0;
fail:
	if (rc == -CP_EAGAIN) /* the charge's reclaim has levels left */
		goto stalled;
	cp_world_fail(w, cw->task.name, rc);
	out->next = CP_STEP_STOP;
	return 0;
stalled:
	/* the step priced as the reclaim level it ran; the file is not made
	 * yet (what its attempt allocated was given back) */
	work = (struct cp_work){ 0 };
	cp_task_end(&cw->task, &work, now_ns, out);
	return 0;
}

static void creator_stopped(struct cp_engine *e, void *priv, uint64_t now_ns)
{
	(void)e;
	(void)now_ns;
	put_subdir(priv);
	free_names(priv);
}

const struct cp_actor_ops cp_creator_ops = {
	.name = "fs_mark",
	.step = creator_step,
	.stopped = creator_stopped,
};
