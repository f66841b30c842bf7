/*
 * writer.c - the real harness's writer of a data file: one child per
 * file, write()s of 1 MiB of zeros from the start to the end, as
 * `dd if=/dev/zero bs=1M` does; the harness then waits for all and
 * syncs the filesystem before the measured phase starts (and drops the
 * files with cached = no from the page cache: sim.c writer_done).
 *
 * A step is one write() (generic_perform_write / iomap_write_iter): the
 * file's next 1 MiB enters the page cache, in large folios where the
 * kernel and filesystem make them (6.6+ XFS: cp_filemap_write_folios,
 * each __filemap_get_folio trying the write's order first with
 * __GFP_NORETRY, then smaller), else page by page with their buffer
 * heads. It costs the copy from user space and the page insertions, and
 * submits the 1 MiB to the device, not waited for: the pages are under
 * writeback (PG_writeback) until that write completes, and compaction
 * does not move them meanwhile. The last step waits for the writer's
 * device writes (syncfs). Running on the engine's clock, the writer's
 * allocations meet kswapd and kcompactd as the kernel's do: a write that
 * finds no free block of its order wakes them, and what they reclaim and
 * compact is there for the next write.
 *
 * A write() costs its bytes at the machine's buffered_write_bandwidth
 * (calibrate's timing of one task's buffered writes of a new file: the
 * whole write path), so memory fills at the writers' pace (6.18: two
 * writers, 1 625 MiB in 1.17 - 1.75 s at 2G, docs/fidelity.md session
 * 46). Before each write() the writer meets balance_dirty_pages()
 * (page_writeback.c): once its pages not yet on the device pass the
 * dirty setpoint, it waits for the device, as a dd faster than its
 * device does.
 *
 * SIMPLIFIED: no dirty state before writeback (the kernel's flusher
 * starts at the dirty background threshold; the model submits at once,
 * so every page counted dirty is under writeback and compaction cannot
 * move it); reclaim takes a page under writeback as a clean one, where
 * the kernel activates it (PG_reclaim) and takes it when the write
 * completes.
 */
#include "workloads/writer.h"

#include <cachepressure/error.h>

#include "core/alloc.h"

#include "model/buffer_head.h"
#include "model/filemap.h"
#include "model/lru.h"
#include "model/page_writeback.h"
#include "model/pagecache.h"

#define WRITE_PAGES 256u /* 1 MiB per write() */

int cp_write_one_page(struct cp_world *w, uint32_t mapping, uint32_t index,
		      struct cp_alloc_ctx *ctx)
{
	struct cp_slab_obj bh;
	int rc;

	if (!w->use_bh)
		return cp_add_to_page_cache_lru(&w->pc, mapping, index, ctx);
	rc = cp_create_empty_buffers(&w->bh, ctx, &bh);
	if (rc)
		return rc;
	rc = cp_add_to_page_cache_lru(&w->pc, mapping, index, ctx);
	if (rc) {
		cp_try_to_free_buffers(&w->bh, bh);
		return rc;
	}
	cp_page_attach_private(&w->pc, cp_mapping_slot(&w->pc, mapping, index), bh.slab);
	return 0;
}

int cp_writer_setup(struct cp_writer *wr, uint32_t mapping, uint32_t nr_pages)
{
	wr->mapping = mapping;
	wr->nr_pages = nr_pages;
	wr->started_ns = wr->written_ns = UINT64_MAX;
	/* one entry a write() (at least one: an empty file) */
	wr->chunk_done_ns = cp_calloc((nr_pages + WRITE_PAGES - 1) / WRITE_PAGES + 1,
				      sizeof(*wr->chunk_done_ns));
	return wr->chunk_done_ns ? 0 : -CP_ENOMEM;
}

void cp_writer_release(struct cp_writer *wr)
{
	cp_free(wr->chunk_done_ns);
	wr->chunk_done_ns = NULL;
}

/* folio_end_writeback() of the chunks whose device write has completed
 * by now_ns (all written chunks when now_ns is UINT64_MAX). */
static void end_writeback(struct cp_writer *wr, uint64_t now_ns)
{
	uint32_t written = (wr->pos + WRITE_PAGES - 1) / WRITE_PAGES;

	while (wr->wb_next < written && wr->chunk_done_ns[wr->wb_next] <= now_ns) {
		uint32_t first = wr->wb_next * WRITE_PAGES;
		uint32_t n = wr->nr_pages - first < WRITE_PAGES ? wr->nr_pages - first : WRITE_PAGES;

		cp_pagecache_set_writeback(&wr->task.w->pc, wr->mapping, first, n, false);
		wr->wb_next++;
	}
}

/* One write() of n pages at the writer's position; *folios counts the
 * folios it inserts. */
static int write_chunk(struct cp_writer *wr, uint32_t n, uint32_t *folios)
{
	struct cp_world *w = wr->task.w;
	uint32_t p;
	int rc;

	*folios = 0;
	if (w->write_large_folios)
		return cp_filemap_write_folios(&w->pc, wr->mapping, wr->pos, n, &wr->task.ctx,
					       folios);
	*folios = n;
	for (p = wr->pos; p < wr->pos + n; p++) {
		rc = cp_write_one_page(w, wr->mapping, p, &wr->task.ctx);
		if (rc)
			return rc;
	}
	return 0;
}

/* balance_dirty_pages() of the global domain (page_writeback.c): the
 * time to wait until before the next write(), or 0. */
static uint64_t balance_dirty_pages(struct cp_world *w, uint64_t now_ns)
{
	const struct cp_kernel_profile *k = w->cfg->kernel;
	uint64_t dirtyable;
	struct cp_dirty_limits l;

	dirtyable = cp_global_dirtyable_memory(w->mem.free_pages, w->mem.totalreserve_pages,
					       cp_lru_size(&w->pc, CP_LRU_ACTIVE_FILE) +
						       cp_lru_size(&w->pc, CP_LRU_INACTIVE_FILE));
	cp_domain_dirty_limits(dirtyable, k->dirty_ratio, k->dirty_background_ratio, &l);
	return cp_balance_dirty_pages(&w->wb, cp_dirty_setpoint(&l), now_ns);
}

static int writer_step(struct cp_engine *e, void *priv, uint64_t now_ns, struct cp_step *out)
{
	struct cp_writer *wr = priv;
	struct cp_world *w = wr->task.w;
	struct cp_work work = { 0 };
	uint32_t n, folios;
	uint64_t pause;
	int rc;

	(void)e;
	end_writeback(wr, now_ns);
	if (wr->pos >= wr->nr_pages) {
		/* syncfs(): every write on the device */
		if (wr->written_ns == UINT64_MAX)
			wr->written_ns = now_ns;
		out->io_until_ns = wr->io_done_ns;
		out->next = CP_STEP_STOP;
		return 0;
	}
	if (wr->started_ns == UINT64_MAX)
		wr->started_ns = now_ns;
	pause = balance_dirty_pages(w, now_ns);
	if (pause) {
		out->next = CP_STEP_SLEEP_UNTIL;
		out->until_ns = pause;
		return 0;
	}
	cp_task_begin(&wr->task);
	n = wr->nr_pages - wr->pos < WRITE_PAGES ? wr->nr_pages - wr->pos : WRITE_PAGES;
	rc = write_chunk(wr, n, &folios);
	if (rc) {
		cp_world_fail(w, wr->task.name, rc);
		out->next = CP_STEP_STOP;
		return 0;
	}
	/* the write path as calibrate timed it (buffered_write_bandwidth:
	 * the system call, the delayed allocation, the copy from user space,
	 * the new folios and their dirtying); not measured, a write() costs
	 * what a read() of the same pages does (system call, copy, folio
	 * insertions) */
	if (w->cost.buffered_write_bandwidth_bps) {
		work.nr_written_bytes = (uint64_t)n * CP_PAGE_SIZE;
	} else {
		work.nr_read_calls = 1;
		work.nr_copied_bytes = (uint64_t)n * CP_PAGE_SIZE;
		work.nr_inserted_folios = folios;
		work.nr_inserted_pages = n;
	}
	cp_task_end(&wr->task, &work, now_ns, out);
	wr->io_done_ns = cp_world_write(w, now_ns, (uint64_t)n * CP_PAGE_SIZE);
	rc = cp_wb_domain_add(&w->wb, wr->io_done_ns, n);
	if (rc) {
		cp_world_fail(w, wr->task.name, rc);
		out->next = CP_STEP_STOP;
		return 0;
	}
	/* set_page_writeback(): until that write completes */
	cp_pagecache_set_writeback(&w->pc, wr->mapping, wr->pos, n, true);
	wr->chunk_done_ns[wr->pos / WRITE_PAGES] = wr->io_done_ns;
	wr->pos += n;
	return 0;
}

static void writer_stopped(struct cp_engine *e, void *priv, uint64_t now_ns)
{
	struct cp_writer *wr = priv;

	end_writeback(wr, UINT64_MAX); /* syncfs waited for them (or a failed run) */
	cp_task_stopped(e, &wr->task);
	if (wr->done)
		wr->done(wr->done_priv, now_ns);
}

const struct cp_actor_ops cp_writer_ops = {
	.name = "writer",
	.step = writer_step,
	.stopped = writer_stopped,
};
