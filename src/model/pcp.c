/*
 * pcp.c - per-CPU page lists between the page allocator's callers and
 * the buddy.
 *
 * Mechanism (mm/page_alloc.c, Linux 6.1; 4.11 differences below). Each
 * CPU keeps lists of free blocks by (migratetype, order) for the orders
 * pcp_allowed_order() lets through (0..PAGE_ALLOC_COSTLY_ORDER). A freed
 * block goes to the head of the list of its pageblock's migratetype on
 * the freeing CPU (free_unref_page -> free_unref_page_commit); it stays
 * an allocated page for the buddy and is not counted in NR_FREE_PAGES.
 * When the CPU's count reaches pcp->high, free_pcppages_bulk() gives
 * nr_pcp_free() pages back to the buddy: batch << free_factor clamped to
 * [batch, high - batch], free_factor growing by one per bulk free (up to
 * CONFIG_PCP_BATCH_SCALE_MAX, 5) while it stays below high - batch, and
 * halved by every allocation (rmqueue_pcplist); a high-order free while
 * free_factor is set frees the whole list (free_high). While kswapd
 * reclaims the zone (ZONE_RECLAIM_ACTIVE, set and cleared around
 * balance_pgdat) high is at most 4 * batch (nr_pcp_high). The bulk free
 * starts at the list of the block just freed and goes round the lists,
 * emptying each from its tail (oldest first) until the count is met.
 * An allocation takes the head block of its CPU's (requested type,
 * order) list; an empty list is first refilled by rmqueue_bulk() with
 * max(batch >> order, 2) blocks, each from __rmqueue() - so a refill can
 * run the requested type's free lists dry and steal from another
 * pageblock type for the rest (fallbacks, watermark boosts), and leaves
 * the unused blocks on the list. drain_all_pages() (__drain_all_pages
 * -> drain_pages_zone) empties every CPU's lists, batch << 5 pages per
 * free_pcppages_bulk from list 0 on.
 * batch: zone_batchsize(), high: zone_highsize() with
 * percpu_pagelist_high_fraction 0 (the zone's low watermark split over
 * the CPUs, at least 4 * batch), set by pageset_update().
 *
 * 6.7+ (auto_tune; the linux-6.x profile; read in Debian's 6.12.117,
 * mm/page_alloc.c, which has Huang Ying's series, plus 6.16's free_high
 * threshold from the patch posting): high is per CPU and moves between
 * high_min (zone_highsize() with fraction 0, the 6.1 high) and high_max
 * (fraction 8: an eighth of the managed pages split over the CPUs);
 * it starts at the boot value 0 clamped to high_min. nr_pcp_alloc():
 * an order-0 refill is batch << alloc_factor, raised by one per refill
 * while it fits max(high - count - batch, batch) (to 5) and capped
 * there; high-order refills are batch; every refill raises high by its
 * size unless the zone is ZONE_BELOW_HIGH; then max(b >> order, 2)
 * blocks. free_unref_page_commit(): a free halves alloc_factor,
 * free_count grows by the pages freed (to batch << 5) and an allocation
 * halves it (rmqueue_pcplist); nr_pcp_high(): high-order frees after a
 * high-order free with free_count >= batch + high_min / 2 (6.16) spill
 * at once (free_high) and lower high by batch << 5; ZONE_RECLAIM_ACTIVE
 * lowers high by max(free_count, batch) per free and spills at
 * min(4 * batch, high); ZONE_BELOW_HIGH lowers it the same way and
 * spills at max(count, high_min); otherwise a free at count >= high
 * raises high to free_count + batch (need_high) and spills;
 * nr_pcp_free(): clamp(free_count, batch, high - batch), or
 * min(count, batch << 5) for free_high. decay_pcp_high() (vmstat
 * worker, 1 s): high = max3(count - (batch << 5), high - high / 8,
 * high_min), the excess freed batch at a time. ZONE_BELOW_HIGH is the
 * caller's flag (memory.c: get_page_from_freelist sets it, a bulk free
 * that leaves the zone above high clears it).
 *
 * 4.11 (kernel_4_11): order 0 only, one list per migratetype;
 * zone_batchsize() caps at 512 KiB (128 pages) before the / 4, and
 * pageset_set_batch() sets high = 6 * batch. free_hot_cold_page() frees
 * exactly batch pages when count >= high; buffered_rmqueue() refills
 * batch pages (rmqueue_bulk); free_pcppages_bulk() goes round the three
 * lists from MOVABLE, taking up to one page per visit plus one per
 * empty list skipped (batch_free, carried over between rounds), all of
 * the count from the last non-empty list; drain_pages_zone() frees the
 * whole count. The 4.11 rules come from quoted copies of those
 * functions, not from a 4.11 tree.
 *
 * SIMPLIFIED:
 * - One zone: batch and high from the model's single zone (the kernel
 *   has one pcp per zone and CPU; high splits each zone's own low
 *   watermark).
 * - ZONE_RECLAIM_ACTIVE is the caller's (memory.c
 *   cp_mem_set_reclaim_active): set as kswapd's balance_pgdat starts,
 *   cleared when kswapd goes to sleep (the kernel clears it at the end
 *   of each balance_pgdat pass). No THP pageblock_order lists (orders above 3 never
 *   use pcp), no cold frees at the tail (4.11 free_hot_cold_page(page,
 *   true) for reclaimed pages): every free goes to the head.
 * - Only reclaim and XFS buffers free a folio whole (memory.c
 *   cp_mem_free_folio, its own order's list); truncation frees its pages
 *   one by one to the order-0 list.
 * - A block given back by a bulk free or drain goes to the buddy list of
 *   its pageblock's current migratetype (cp_buddy_free); the kernel uses
 *   the migratetype recorded when it entered the pcp list.
 * - The refill stops before it would take pages an allocation already
 *   decided on the page counts still needs (keep_free_pages): memory.c
 *   decides a multi-page allocation at once, the kernel page by page;
 *   with the min watermark far above batch this never binds in a run.
 * - No vmstat refresh draining (drain_zone_pages), no trylock failures,
 *   no CPU hotplug; drain_all_pages runs at once.
 * - auto_tune: PCPF_FREE_HIGH_BATCH (set when a CPU's cache slice
 *   exceeds 3 * batch) is taken as clear; no 6.15 FPI_TRYLOCK frees;
 *   decay runs for every CPU on one 1 s tick (the caller's), where each
 *   CPU's vmstat worker decays its own lists when it runs.
 */
#include "model/pcp.h"

#include <cachepressure/error.h>
#include <string.h>

#include "core/alloc.h"
#include "core/bug.h"
#include "core/intmath.h"

uint32_t cp_pcp_zone_batchsize(uint64_t managed_pages, bool kernel_4_11)
{
	uint64_t cap = kernel_4_11 ? 128 : 256; /* 512 KiB (4.11) or 1 MiB (6.1) of pages */
	uint64_t batch = managed_pages >> 10;

	if (batch > cap)
		batch = cap;
	batch /= 4;
	if (batch < 1)
		batch = 1;
	return (uint32_t)cp_rounddown_pow_of_two(batch + batch / 2) - 1;
}

uint32_t cp_pcp_zone_highsize(uint32_t batch, uint64_t low_wmark_pages, unsigned nr_cpus,
			      bool kernel_4_11)
{
	uint64_t high;

	if (kernel_4_11)
		return 6 * batch;
	high = nr_cpus ? low_wmark_pages / nr_cpus : low_wmark_pages;
	if (high < 4ull * batch)
		high = 4ull * batch;
	return (uint32_t)high;
}

uint32_t cp_pcp_zone_highsize_max(uint32_t batch, uint64_t managed_pages, unsigned nr_cpus)
{
	/* MIN_PERCPU_PAGELIST_HIGH_FRACTION: an eighth of the zone */
	uint64_t high = managed_pages / 8 / (nr_cpus ? nr_cpus : 1);

	if (high < 4ull * batch)
		high = 4ull * batch;
	if (high > UINT32_MAX)
		high = UINT32_MAX;
	return (uint32_t)high;
}

int cp_pcp_init(struct cp_pcp *p, const struct cp_pcp_params *pp, struct cp_diag *diag)
{
	unsigned c, l;

	memset(p, 0, sizeof(*p));
	if (pp->nr_cpus == 0 || pp->nr_cpus > CP_PCP_MAX_CPUS)
		return cp_diag_set(diag, -CP_EINVAL, "pcp: nr_cpus %u is not in 1..%u", pp->nr_cpus,
				   CP_PCP_MAX_CPUS);
	if (pp->nr_pages == 0)
		return cp_diag_set(diag, -CP_EINVAL, "pcp: nr_pages is 0");
	p->next = cp_calloc(pp->nr_pages, sizeof(*p->next));
	p->prev = cp_calloc(pp->nr_pages, sizeof(*p->prev));
	p->cpus = cp_calloc(pp->nr_cpus, sizeof(*p->cpus));
	if (!p->next || !p->prev || !p->cpus) {
		cp_pcp_release(p);
		return -CP_ENOMEM;
	}
	p->nr_cpus = pp->nr_cpus;
	p->nr_pages = pp->nr_pages;
	p->kernel_4_11 = pp->kernel_4_11;
	p->max_order = pp->kernel_4_11 ? 0 : CP_PCP_COSTLY_ORDER;
	/* zone_set_pageset_high_and_batch() (4.11 pageset_set_batch()):
	 * at least 1 - a tiny zone's zone_batchsize() is 0 */
	p->batch = cp_pcp_zone_batchsize(pp->managed_pages, pp->kernel_4_11);
	if (p->batch < 1)
		p->batch = 1;
	p->high = cp_pcp_zone_highsize(p->batch, pp->low_wmark_pages, pp->nr_cpus,
				       pp->kernel_4_11);
	/* 6.7+ zone_set_pageset_high_and_batch() with
	 * percpu_pagelist_high_fraction 0: high_min is the 6.1 high, high_max
	 * the fraction-8 size; pcp->high starts at BOOT_PAGESET_HIGH (0),
	 * clamped up to high_min at its first use */
	p->auto_tune = pp->auto_tune && !pp->kernel_4_11;
	p->high_min = p->high_max = p->high;
	if (p->auto_tune)
		p->high_max = cp_pcp_zone_highsize_max(p->batch, pp->managed_pages, pp->nr_cpus);
	if (p->high_max < p->high_min)
		p->high_max = p->high_min;
	for (c = 0; c < p->nr_cpus; c++) {
		p->cpus[c].high = p->high_min;
		for (l = 0; l < CP_PCP_NR_LISTS; l++)
			p->cpus[c].lists[l].head = p->cpus[c].lists[l].tail = CP_BUDDY_NONE;
	}
	return 0;
}

void cp_pcp_release(struct cp_pcp *p)
{
	cp_free(p->next);
	cp_free(p->prev);
	cp_free(p->cpus);
	memset(p, 0, sizeof(*p));
}

bool cp_pcp_allowed_order(const struct cp_pcp *p, unsigned order)
{
	return p->nr_cpus && order <= p->max_order;
}

/* order_to_pindex() */
static unsigned pindex(enum cp_migratetype mt, unsigned order)
{
	return order * CP_MIGRATE_TYPES + (unsigned)mt;
}

static unsigned pindex_order(unsigned pi)
{
	return pi / CP_MIGRATE_TYPES;
}

static struct cp_pcp_cpu *pcp_cpu(struct cp_pcp *p, int cpu)
{
	CP_BUG_ON(cpu < 0 || (unsigned)cpu >= p->nr_cpus);
	return &p->cpus[cpu];
}

/* ---- lists ------------------------------------------------------------- */

static void list_add_head(struct cp_pcp *p, struct cp_pcp_list *l, uint32_t pfn)
{
	p->prev[pfn] = CP_BUDDY_NONE;
	p->next[pfn] = l->head;
	if (l->head != CP_BUDDY_NONE)
		p->prev[l->head] = pfn;
	else
		l->tail = pfn;
	l->head = pfn;
	l->nr++;
}

static void list_add_tail(struct cp_pcp *p, struct cp_pcp_list *l, uint32_t pfn)
{
	p->next[pfn] = CP_BUDDY_NONE;
	p->prev[pfn] = l->tail;
	if (l->tail != CP_BUDDY_NONE)
		p->next[l->tail] = pfn;
	else
		l->head = pfn;
	l->tail = pfn;
	l->nr++;
}

static void list_del(struct cp_pcp *p, struct cp_pcp_list *l, uint32_t pfn)
{
	uint32_t n = p->next[pfn], pr = p->prev[pfn];

	if (pr != CP_BUDDY_NONE)
		p->next[pr] = n;
	else
		l->head = n;
	if (n != CP_BUDDY_NONE)
		p->prev[n] = pr;
	else
		l->tail = pr;
	l->nr--;
}

/* The tail block of list pi goes back to the buddy; returns its pages. */
static uint64_t free_tail(struct cp_pcp *p, struct cp_buddy *b, struct cp_pcp_cpu *pc,
			  unsigned pi)
{
	struct cp_pcp_list *l = &pc->lists[pi];
	uint32_t pfn = l->tail;
	unsigned order = pindex_order(pi);
	int rc;

	CP_BUG_ON(pfn == CP_BUDDY_NONE);
	list_del(p, l, pfn);
	pc->count -= 1ull << order;
	p->nr_held_pages -= 1ull << order;
	rc = cp_buddy_free(b, pfn, order, NULL);
	CP_BUG_ON(rc);
	(void)rc;
	return 1ull << order;
}

/* free_pcppages_bulk() of 6.1: from list pi on, round robin over the
 * non-empty lists, each emptied from the tail until count pages went. */
static uint64_t bulk_free_6_1(struct cp_pcp *p, struct cp_buddy *b, struct cp_pcp_cpu *pc,
			      int64_t count, unsigned pi)
{
	uint64_t freed = 0;

	if (count > (int64_t)pc->count)
		count = (int64_t)pc->count;
	pi = (pi + CP_PCP_NR_LISTS - 1) % CP_PCP_NR_LISTS;
	while (count > 0) {
		do
			pi = (pi + 1) % CP_PCP_NR_LISTS;
		while (pc->lists[pi].nr == 0);
		do {
			uint64_t n = free_tail(p, b, pc, pi);

			freed += n;
			count -= (int64_t)n;
		} while (count > 0 && pc->lists[pi].nr);
	}
	return freed;
}

/* free_pcppages_bulk() of 4.11: order-0 lists 0..2 by migratetype. */
static uint64_t bulk_free_4_11(struct cp_pcp *p, struct cp_buddy *b, struct cp_pcp_cpu *pc,
			       uint64_t count)
{
	uint64_t freed = 0, batch_free = 0;
	unsigned mt = 0;

	if (count > pc->count)
		count = pc->count;
	while (count) {
		do {
			batch_free++;
			mt = (mt + 1) % CP_MIGRATE_TYPES;
		} while (pc->lists[mt].nr == 0);
		/* the only non-empty list gives all of the rest */
		if (batch_free == CP_MIGRATE_TYPES)
			batch_free = count;
		do {
			freed += free_tail(p, b, pc, mt);
			--count;
		} while (count && --batch_free && pc->lists[mt].nr);
	}
	return freed;
}

/* nr_pcp_free() (6.1). */
static int64_t nr_pcp_free(struct cp_pcp_cpu *pc, uint32_t high, uint32_t batch, bool free_high)
{
	int64_t min_nr, max_nr, n;

	if (free_high)
		return (int64_t)pc->count;
	if (high < batch)
		return 1;
	min_nr = batch;
	max_nr = (int64_t)high - batch;
	n = (int64_t)batch << pc->free_factor;
	if (n < max_nr && pc->free_factor < CP_PCP_BATCH_SCALE_MAX)
		pc->free_factor++;
	if (n < min_nr)
		n = min_nr;
	if (n > max_nr)
		n = max_nr;
	return n;
}

/* ---- 6.7+ auto-tuning (auto_tune) -------------------------------------- */

static uint32_t clamp_high(const struct cp_pcp *p, int64_t high)
{
	if (high < (int64_t)p->high_min)
		return p->high_min;
	if (high > (int64_t)p->high_max)
		return p->high_max;
	return (uint32_t)high;
}

/* nr_pcp_high() of 6.7+: the spill threshold of this free, and the
 * stored high lowered under reclaim or below the high watermark, or
 * raised to hold free_count + batch. */
static uint64_t nr_pcp_high_tuned(struct cp_pcp *p, struct cp_pcp_cpu *pc, bool free_high)
{
	int64_t batch = p->batch, high, fc;

	high = pc->high = clamp_high(p, pc->high);
	if (high == 0)
		return 0;
	if (free_high) {
		pc->high = clamp_high(p, high - (batch << CP_PCP_BATCH_SCALE_MAX));
		return 0;
	}
	fc = (int64_t)pc->free_count > batch ? (int64_t)pc->free_count : batch;
	if (p->reclaim_active) {
		pc->high = clamp_high(p, high - fc);
		return pc->high < 4 * batch ? pc->high : (uint64_t)(4 * batch);
	}
	if (p->high_min == p->high_max)
		return (uint64_t)high;
	if (p->below_high) {
		pc->high = clamp_high(p, high - fc);
		return pc->count > p->high_min ? pc->count : p->high_min;
	}
	if (pc->count >= (uint64_t)high && (int64_t)pc->high < (int64_t)pc->free_count + batch)
		pc->high = clamp_high(p, (int64_t)pc->free_count + batch);
	return (uint64_t)high;
}

/* nr_pcp_free() of 6.7+: the pages freed since the last allocation,
 * leaving at least batch; free_high: up to batch << 5. */
static int64_t nr_pcp_free_tuned(const struct cp_pcp *p, const struct cp_pcp_cpu *pc,
				 uint64_t high, bool free_high)
{
	int64_t batch = p->batch, n = pc->free_count;

	if (free_high)
		return (int64_t)pc->count < (batch << CP_PCP_BATCH_SCALE_MAX)
			       ? (int64_t)pc->count
			       : batch << CP_PCP_BATCH_SCALE_MAX;
	if ((int64_t)high < batch)
		return 1;
	if (n < batch)
		n = batch;
	if (n > (int64_t)high - batch)
		n = (int64_t)high - batch;
	return n;
}

/* free_unref_page_commit() of 6.7+ (6.16's free_high threshold), after
 * the block went on its list. */
static void free_commit_tuned(struct cp_pcp *p, struct cp_buddy *b, struct cp_pcp_cpu *pc,
			      unsigned order, unsigned pi)
{
	uint32_t batch = p->batch;
	bool free_high = false;
	uint64_t high;

	if (order && order <= CP_PCP_COSTLY_ORDER) {
		/* SIMPLIFIED: PCPF_FREE_HIGH_BATCH (a CPU's cache slice
		 * above 3 * batch) is taken as clear */
		free_high = pc->free_count >= batch + p->high_min / 2 && pc->prev_free_high_order;
		pc->prev_free_high_order = true;
	} else {
		pc->prev_free_high_order = false;
	}
	if (pc->free_count < batch << CP_PCP_BATCH_SCALE_MAX)
		pc->free_count += 1u << order;
	high = nr_pcp_high_tuned(p, pc, free_high);
	if (pc->count >= high) {
		p->nr_bulk_frees++;
		p->nr_bulk_free_pages +=
			bulk_free_6_1(p, b, pc, nr_pcp_free_tuned(p, pc, high, free_high), pi);
	}
}

/* nr_pcp_alloc() of 6.7+: the refill of an empty list, in blocks;
 * grows high and alloc_factor. */
static uint32_t nr_pcp_alloc_tuned(struct cp_pcp *p, struct cp_pcp_cpu *pc, unsigned order)
{
	int64_t base = p->batch, batch, high, max_nr;

	high = pc->high = clamp_high(p, pc->high);
	if (high < base)
		return 1;
	batch = order ? base : base << pc->alloc_factor;
	if (p->high_min != p->high_max && !p->below_high)
		high = pc->high = clamp_high(p, high + batch);
	if (order == 0) {
		max_nr = high - (int64_t)pc->count - base;
		if (max_nr < base)
			max_nr = base;
		if (batch <= max_nr && pc->alloc_factor < CP_PCP_BATCH_SCALE_MAX)
			pc->alloc_factor++;
		if (batch > max_nr)
			batch = max_nr;
	}
	if (batch > 1) {
		batch >>= order;
		if (batch < 2)
			batch = 2;
	}
	return (uint32_t)batch;
}

uint64_t cp_pcp_decay_high(struct cp_pcp *p, struct cp_buddy *b)
{
	uint64_t freed = 0;
	unsigned c;

	if (!p->auto_tune)
		return 0;
	for (c = 0; c < p->nr_cpus; c++) {
		struct cp_pcp_cpu *pc = &p->cpus[c];
		int64_t high = pc->high, to_drain;

		if (high > (int64_t)p->high_min) {
			int64_t a = (int64_t)pc->count - ((int64_t)p->batch << CP_PCP_BATCH_SCALE_MAX);
			int64_t d = high - (high >> 3);

			high = a > d ? a : d;
			if (high < (int64_t)p->high_min)
				high = p->high_min;
			pc->high = (uint32_t)high;
		}
		to_drain = (int64_t)pc->count - (int64_t)pc->high;
		while (to_drain > 0) {
			int64_t n = to_drain < p->batch ? to_drain : p->batch;
			uint64_t got = bulk_free_6_1(p, b, pc, n, 0);

			freed += got;
			to_drain -= n;
		}
	}
	p->nr_decay_pages += freed;
	return freed;
}

uint32_t cp_pcp_high(const struct cp_pcp *p, int cpu)
{
	if (cpu < 0 || (unsigned)cpu >= p->nr_cpus)
		return 0;
	return p->auto_tune ? p->cpus[cpu].high : p->high;
}

uint64_t cp_pcp_high_sum(const struct cp_pcp *p)
{
	uint64_t sum = 0;
	unsigned c;

	for (c = 0; c < p->nr_cpus; c++)
		sum += cp_pcp_high(p, (int)c);
	return sum;
}

void cp_pcp_free(struct cp_pcp *p, struct cp_buddy *b, int cpu, uint32_t pfn, unsigned order)
{
	struct cp_pcp_cpu *pc = pcp_cpu(p, cpu);
	enum cp_migratetype mt = cp_buddy_pageblock_migratetype(b, pfn);
	unsigned pi = pindex(mt, order);
	bool free_high;
	uint64_t high;

	CP_BUG_ON(!cp_pcp_allowed_order(p, order) || pfn >= p->nr_pages ||
		  cp_buddy_free_block_order(b, pfn) >= 0);
	list_add_head(p, &pc->lists[pi], pfn);
	pc->count += 1ull << order;
	p->nr_held_pages += 1ull << order;
	if (p->kernel_4_11) {
		if (pc->count >= p->high) {
			p->nr_bulk_frees++;
			p->nr_bulk_free_pages += bulk_free_4_11(p, b, pc, p->batch);
		}
		return;
	}
	if (p->auto_tune) {
		/* free_unref_page_commit(): a free shrinks the next refill */
		pc->alloc_factor >>= 1;
		free_commit_tuned(p, b, pc, order, pi);
		return;
	}
	/* nr_pcp_high(): 0 when freeing high-order pages without allocating;
	 * while kswapd reclaims (ZONE_RECLAIM_ACTIVE) at most 4 * batch */
	free_high = pc->free_factor && order && order <= CP_PCP_COSTLY_ORDER;
	high = free_high ? 0 : p->high;
	if (!free_high && p->reclaim_active && high > 4ull * p->batch)
		high = 4ull * p->batch;
	if (pc->count >= high) {
		p->nr_bulk_frees++;
		p->nr_bulk_free_pages +=
			bulk_free_6_1(p, b, pc, nr_pcp_free(pc, (uint32_t)high, p->batch, free_high), pi);
	}
}

int cp_pcp_alloc(struct cp_pcp *p, struct cp_buddy *b, int cpu, unsigned order,
		 enum cp_migratetype mt, unsigned alloc_flags, uint64_t keep_free_pages,
		 uint32_t *pfn)
{
	struct cp_pcp_cpu *pc = pcp_cpu(p, cpu);
	struct cp_pcp_list *l = &pc->lists[pindex(mt, order)];

	CP_BUG_ON(!cp_pcp_allowed_order(p, order) || (unsigned)mt >= CP_MIGRATE_TYPES);
	if (p->auto_tune)
		pc->free_count >>= 1; /* rmqueue_pcplist() (6.7+) */
	else
		pc->free_factor >>= 1;
	if (l->nr == 0) {
		uint32_t batch = p->batch, i;

		if (p->auto_tune) {
			batch = nr_pcp_alloc_tuned(p, pc, order);
		} else if (!p->kernel_4_11 && batch > 1) {
			batch >>= order;
			if (batch < 2)
				batch = 2;
		}
		/* rmqueue_bulk(): one rmqueue mode for the batch (6.15+) */
		enum cp_buddy_rmqueue_mode mode = CP_RMQUEUE_NORMAL;

		p->nr_refills++;
		for (i = 0; i < batch; i++) {
			uint32_t got;

			if (i > 0 && b->nr_free_pages < keep_free_pages + (1ull << order))
				break;
			if (cp_buddy_alloc_mode(b, order, mt, alloc_flags, &mode, &got))
				break;
			list_add_tail(p, l, got);
			pc->count += 1ull << order;
			p->nr_held_pages += 1ull << order;
			p->nr_refill_pages += 1ull << order;
		}
		if (l->nr == 0)
			return -CP_ENOSPC;
	}
	*pfn = l->head;
	list_del(p, l, *pfn);
	pc->count -= 1ull << order;
	p->nr_held_pages -= 1ull << order;
	return 0;
}

uint64_t cp_pcp_drain_all(struct cp_pcp *p, struct cp_buddy *b)
{
	uint64_t freed = 0;
	unsigned c;

	p->nr_drains++;
	for (c = 0; c < p->nr_cpus; c++) {
		struct cp_pcp_cpu *pc = &p->cpus[c];

		if (p->kernel_4_11) {
			freed += bulk_free_4_11(p, b, pc, pc->count);
			continue;
		}
		/* drain_pages_zone(): batch << CONFIG_PCP_BATCH_SCALE_MAX at a time */
		while (pc->count) {
			uint64_t n = (uint64_t)p->batch << CP_PCP_BATCH_SCALE_MAX;

			freed += bulk_free_6_1(p, b, pc, (int64_t)(n < pc->count ? n : pc->count), 0);
		}
	}
	return freed;
}

uint64_t cp_pcp_count(const struct cp_pcp *p, int cpu)
{
	if (cpu < 0 || (unsigned)cpu >= p->nr_cpus)
		return 0;
	return p->cpus[cpu].count;
}

uint32_t cp_pcp_nr_blocks(const struct cp_pcp *p, int cpu, enum cp_migratetype mt,
			  unsigned order)
{
	if (cpu < 0 || (unsigned)cpu >= p->nr_cpus || (unsigned)mt >= CP_MIGRATE_TYPES ||
	    order > CP_PCP_COSTLY_ORDER)
		return 0;
	return p->cpus[cpu].lists[pindex(mt, order)].nr;
}

bool cp_pcp_check(const struct cp_pcp *p, const struct cp_buddy *b)
{
	uint64_t total = 0;
	unsigned c, pi;

	for (c = 0; c < p->nr_cpus; c++) {
		const struct cp_pcp_cpu *pc = &p->cpus[c];
		uint64_t pages = 0;

		for (pi = 0; pi < CP_PCP_NR_LISTS; pi++) {
			const struct cp_pcp_list *l = &pc->lists[pi];
			uint32_t pfn = l->head, prev = CP_BUDDY_NONE, n = 0;

			if (l->nr && pindex_order(pi) > p->max_order)
				return false;
			while (pfn != CP_BUDDY_NONE) {
				if (pfn >= p->nr_pages || p->prev[pfn] != prev || n >= l->nr ||
				    cp_buddy_free_block_order(b, pfn) >= 0 ||
				    (pfn & ((1u << pindex_order(pi)) - 1)))
					return false;
				prev = pfn;
				pfn = p->next[pfn];
				n++;
			}
			if (n != l->nr || l->tail != prev)
				return false;
			pages += (uint64_t)n << pindex_order(pi);
		}
		if (pages != pc->count ||
		    (p->auto_tune && (pc->high < p->high_min || pc->high > p->high_max)))
			return false;
		total += pages;
	}
	return total == p->nr_held_pages;
}
