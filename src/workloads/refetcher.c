/*
 * refetcher.c - the real harness's read-back of what reclaim took while
 * the cached data files were written (harness/lib/resident.c
 * cp_refetch_missing, called by harness/lib/run.c after the writers).
 *
 * For each file, up to three rounds: mmap() and mincore() say which
 * pages are resident (once, at the round's start), then one pread() per
 * run of pages that were not, at most 1 MiB, on one descriptor opened
 * for the round - one readahead state, fresh each round, whose windows
 * bring in pages the snapshot still calls missing, so the next pread()
 * finds them cached, hits the window's marker and reads the next window
 * asynchronously, ramping the folio order as a reader's reads do. A
 * round that read nothing ends the file's rounds.
 *
 * A step is one pread(): it costs what a reader's read() of the same
 * pages does (reader.c cp_read_work) and waits for its device reads
 * (cp_read_submit). On the engine's clock, kswapd, kcompactd and the
 * writers' last writeback run while it reads, as on the real machine:
 * its allocations wake kswapd at their orders and meet what it has
 * reclaimed, instead of taking everything from the free lists at once.
 *
 * SIMPLIFIED: mincore() and the mmap() around it cost nothing (one
 * byte a page, ~0.1 ms for a 400 MiB file); the harness process runs on
 * CPU 0.
 */
#include "workloads/refetcher.h"

#include <cachepressure/error.h>
#include <string.h>

#include "core/alloc.h"
#include "model/pagecache.h"
#include "workloads/reader.h"

#define PREAD_PAGES 256u /* the harness's 1 MiB chunk */

int cp_refetcher_setup(struct cp_refetcher *rf, const struct cp_writer *writers, size_t n)
{
	uint32_t most = 1;
	size_t i;

	for (i = 0; i < n; i++)
		if (writers[i].nr_pages > most)
			most = writers[i].nr_pages;
	rf->files = writers;
	rf->nr_files = n;
	rf->missing = cp_malloc(most);
	return rf->missing ? 0 : -CP_ENOMEM;
}

void cp_refetcher_release(struct cp_refetcher *rf)
{
	cp_free(rf->missing);
	rf->missing = NULL;
}

/* mincore() of the file at the round's start, and a fresh open(). */
static void round_begin(struct cp_refetcher *rf)
{
	struct cp_world *w = rf->task.w;
	const struct cp_writer *f = &rf->files[rf->file];
	uint32_t j;

	for (j = 0; j < f->nr_pages; j++)
		rf->missing[j] = !(w->pc.pages[cp_mapping_slot(&w->pc, f->mapping, j)].flags &
				   CP_PG_RESIDENT);
	memset(&rf->ra, 0, sizeof(rf->ra));
	rf->ra.markers = w->cfg->kernel->readahead_markers;
	rf->pos = 0;
	rf->round_bytes = 0;
	rf->in_round = true;
}

/* The round is over: another round of the same file if this one read
 * something and rounds are left, else the next file. */
static void round_end(struct cp_refetcher *rf)
{
	rf->in_round = false;
	if (rf->round_bytes && ++rf->round < CP_REFETCH_ROUNDS)
		return;
	rf->round = 0;
	rf->file++;
}

/* The next run of pages the snapshot calls missing, from rf->pos: true
 * with [*first, *end) (at most PREAD_PAGES), false at the end of file. */
static bool next_missing_run(struct cp_refetcher *rf, uint32_t *first, uint32_t *end)
{
	uint32_t nr = rf->files[rf->file].nr_pages, p = rf->pos, j;

	while (p < nr && !rf->missing[p])
		p++;
	if (p >= nr)
		return false;
	for (j = p; j < nr && j - p < PREAD_PAGES && rf->missing[j]; j++)
		;
	*first = p;
	*end = j;
	return true;
}

static int refetcher_step(struct cp_engine *e, void *priv, uint64_t now_ns, struct cp_step *out)
{
	struct cp_refetcher *rf = priv;
	struct cp_world *w = rf->task.w;
	struct cp_read_result res;
	struct cp_work work = { 0 };
	uint32_t first = 0, end = 0;
	int rc;

	(void)e;
	if (!rf->task.started) {
		rf->task.started = true;
		rf->started_ns = now_ns;
		/* what the writers left in per-CPU add batches is on the LRU */
		cp_lru_add_drain_all(&w->pc);
	}
	for (;;) {
		if (rf->file >= rf->nr_files) {
			out->next = CP_STEP_STOP;
			return 0;
		}
		if (!rf->in_round)
			round_begin(rf);
		if (next_missing_run(rf, &first, &end))
			break;
		round_end(rf);
	}
	cp_task_begin(&rf->task);
	rc = cp_filemap_read(&w->pc, rf->files[rf->file].mapping, first, end - first, w->ra_pages,
			     false, &rf->ra, &rf->task.ctx, &res);
	if (rc) {
		rf->rc = rc;
		out->next = CP_STEP_STOP;
		return 0;
	}
	rf->pos = end;
	rf->round_bytes += (uint64_t)(end - first) * CP_PAGE_SIZE;
	rf->bytes += (uint64_t)(end - first) * CP_PAGE_SIZE;
	cp_read_work(&work, end - first, &res);
	cp_task_end(&rf->task, &work, now_ns, out);
	cp_read_submit(w, now_ns, &res, out);
	return 0;
}

static void refetcher_stopped(struct cp_engine *e, void *priv, uint64_t now_ns)
{
	struct cp_refetcher *rf = priv;

	cp_task_stopped(e, &rf->task);
	if (rf->done)
		rf->done(rf->done_priv, now_ns);
}

const struct cp_actor_ops cp_refetcher_ops = {
	.name = "refetcher",
	.step = refetcher_step,
	.stopped = refetcher_stopped,
};
