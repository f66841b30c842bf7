/*
 * walker.c - read-dir: readdir() a directory and stat() every entry, in
 * a loop until stopped (josefbacik/debug-scripts, the reverse test of
 * the seed commit: its files-in-cache experiment). Each stat() is a path
 * lookup: a cached dentry costs a dcache hit; otherwise a new dentry is
 * allocated and the inode found in the icache, recycled from XFS's
 * reclaimable inodes, or read from disk (a new inode: an icache miss,
 * the quantity that experiment counts).
 *
 * A step stats up to 64 entries.
 *
 * SIMPLIFIED: readdir's own cost and directory block I/O are not
 * modelled; an inode read from disk costs the profile's inode_read_ns of
 * CPU, and one inode cluster read per inodes_per_cluster misses (a
 * directory walk in creation order reads inodes cluster by cluster; the
 * XFS buffer cache is not modelled).
 */
#include "workloads/walker.h"

#include <cachepressure/error.h>

#include "model/fs_profile.h"
#include "workloads/creator.h"

#define WALK_BATCH 64

static int walker_step(struct cp_engine *e, void *priv, uint64_t now_ns, struct cp_step *out)
{
	struct cp_walker *wk = priv;
	struct cp_world *w = wk->task.w;
	struct cp_work work = { 0 };
	uint64_t cluster_reads = 0, cluster = w->fs.fsp->inodes_per_cluster;
	unsigned i;

	(void)e;
	if (cp_task_gate(&wk->task, out))
		return 0;
	if (wk->nr_entries == 0) {
		out->next = CP_STEP_SLEEP_FOR;
		out->sleep_ns = CP_NSEC_PER_SEC;
		return 0;
	}
	cp_task_begin(&wk->task);
	for (i = 0; i < WALK_BATCH; i++) {
		enum cp_lookup_result res;
		int rc;

		if (wk->pos >= wk->nr_entries) {
			wk->pos = 0;
			wk->nr_passes++;
			wk->nr_misses_pass = 0;
		}
		rc = cp_fs_stat(&w->fs, wk->dir, cp_creator_name_id(wk->creator_worker, wk->pos),
				&wk->task.ctx, &res);
		if (rc) {
			cp_world_fail(w, wk->task.name, rc);
			out->next = CP_STEP_STOP;
			return 0;
		}
		wk->pos++;
		work.nr_stats++;
		if (res == CP_LOOKUP_ICACHE_MISS) {
			wk->nr_misses++;
			wk->nr_misses_pass++;
			work.nr_inode_reads++;
			if (cluster && ++wk->nr_since_cluster >= cluster) {
				wk->nr_since_cluster = 0;
				cluster_reads++;
			}
		}
	}
	cp_task_end(&wk->task, &work, now_ns, out);
	if (cluster_reads) {
		uint64_t done = cp_world_read(w, now_ns, cluster_reads * cluster * 512);

		if (done > out->io_until_ns)
			out->io_until_ns = done;
	}
	return 0;
}

static void walker_stopped(struct cp_engine *e, void *priv, uint64_t now_ns)
{
	(void)now_ns;
	cp_task_stopped(e, &((struct cp_walker *)priv)->task);
}

const struct cp_actor_ops cp_walker_ops = {
	.name = "read-dir",
	.step = walker_step,
	.stopped = walker_stopped,
};
