/*
 * page_writeback.c - the global dirty limits and the pause a task that
 * dirties pages meets in balance_dirty_pages() (mm/page-writeback.c; the
 * parts modelled are the same from 4.11 to 6.18).
 *
 * Mechanism. The pages a task may have dirty or under writeback are a
 * share of the dirtyable memory (global_dirtyable_memory(): the free
 * pages less totalreserve_pages, plus the file LRU pages):
 * domain_dirty_limits() sets thresh at vm.dirty_ratio (20 %) of it and
 * bg_thresh, where the flusher starts writing, at
 * vm.dirty_background_ratio (10 %). After each write() the writer calls
 * balance_dirty_pages_ratelimited(); while the dirty and writeback pages
 * stay below the freerun ceiling, (thresh + bg_thresh) / 2, it runs
 * free, above it the pauses of balance_dirty_pages() pace it so that the
 * dirty pages hover at the setpoint (freerun + limit) / 2
 * (wb_position_ratio(), pos_ratio 1 there) and the task dirties at the
 * rate its device writes (the bdi's write bandwidth). So a dd faster
 * than its device runs at the device's speed once it has dirtied the
 * setpoint. (On the 6.18 VM the seed's writers were not paced: their
 * write path, about 0.6 GB/s each, is slower than the device's
 * writeback, 1.3 GB/s, and the dirty pages stayed near the background
 * threshold; docs/fidelity.md session 46.)
 *
 * SIMPLIFIED: the pacing is a wait until enough of the device's writes
 * complete to bring the pages back to the setpoint (the kernel's pauses
 * spread it over each write; the rate and level are the same); the hard
 * limit is thresh (hard_dirty_limit() follows thresh slowly); the device
 * is one bdi with the whole domain (wb_thresh = thresh); no memcg
 * writeback domain (cgroup v1, the VMs of docs/fidelity.md: a memory
 * cgroup's writer meets the global limits alone). The pages counted are
 * the writers' own; the model writes a page to the device at once, so
 * it has no dirty page that is not under writeback (writer.c).
 */
#include "model/page_writeback.h"

#include <cachepressure/error.h>
#include <string.h>

#include "core/alloc.h"
#include "core/bug.h"

uint64_t cp_global_dirtyable_memory(uint64_t free_pages, uint64_t totalreserve_pages,
				    uint64_t file_lru_pages)
{
	uint64_t x = free_pages;

	x -= x < totalreserve_pages ? x : totalreserve_pages;
	return x + file_lru_pages + 1;
}

void cp_domain_dirty_limits(uint64_t dirtyable, unsigned dirty_ratio, unsigned bg_ratio,
			    struct cp_dirty_limits *out)
{
	out->thresh = dirtyable * dirty_ratio / 100;
	out->bg_thresh = dirtyable * bg_ratio / 100;
	if (out->bg_thresh >= out->thresh)
		out->bg_thresh = out->thresh / 2;
}

uint64_t cp_dirty_freerun_ceiling(const struct cp_dirty_limits *l)
{
	return (l->thresh + l->bg_thresh) / 2;
}

uint64_t cp_dirty_setpoint(const struct cp_dirty_limits *l)
{
	return (cp_dirty_freerun_ceiling(l) + l->thresh) / 2;
}

void cp_wb_domain_init(struct cp_wb_domain *d)
{
	memset(d, 0, sizeof(*d));
}

void cp_wb_domain_release(struct cp_wb_domain *d)
{
	cp_free(d->q);
	memset(d, 0, sizeof(*d));
}

int cp_wb_domain_add(struct cp_wb_domain *d, uint64_t done_ns, uint64_t pages)
{
	struct cp_wb_entry *q;

	CP_BUG_ON(d->n && done_ns < d->q[d->head + d->n - 1].done_ns);
	if (d->head + d->n == d->cap && d->head) {
		memmove(d->q, d->q + d->head, d->n * sizeof(*d->q));
		d->head = 0;
	}
	q = cp_grow(d->q, &d->cap, d->n + 1, sizeof(*q), 64);
	if (!q)
		return -CP_ENOMEM;
	d->q = q;
	d->q[d->head + d->n].done_ns = done_ns;
	d->q[d->head + d->n].pages = pages;
	d->n++;
	d->nr_pages += pages;
	return 0;
}

uint64_t cp_wb_domain_pages(struct cp_wb_domain *d, uint64_t now_ns)
{
	while (d->n && d->q[d->head].done_ns <= now_ns) {
		d->nr_pages -= d->q[d->head].pages;
		d->head++;
		d->n--;
	}
	if (!d->n)
		d->head = 0;
	return d->nr_pages;
}

uint64_t cp_balance_dirty_pages(struct cp_wb_domain *d, uint64_t setpoint, uint64_t now_ns)
{
	uint64_t left = cp_wb_domain_pages(d, now_ns);
	size_t i;

	if (left <= setpoint)
		return 0;
	/* the first completion that brings them to the setpoint */
	for (i = d->head; i < d->head + d->n; i++) {
		left -= d->q[i].pages;
		if (left <= setpoint)
			return d->q[i].done_ns;
	}
	CP_BUG_ON(1); /* the last completion leaves none */
	return 0;
}
