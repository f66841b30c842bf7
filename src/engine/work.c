/*
 * work.c - the cost model: counts of work -> CPU nanoseconds.
 *
 * Each kind of work has a fixed cost per unit (the machine and
 * filesystem profiles give them, with their sources); copying is priced
 * by bandwidth. The page cache's work is priced per folio, as the kernel
 * does it: a read() looks up and marks each folio it copies from once
 * (filemap_get_read_batch(), folio_mark_accessed()), readahead allocates,
 * charges, inserts and completes each folio once (filemap_add_folio(),
 * folio_end_read()), with a small cost for each further page of a large
 * folio (scripts/measure-read-cost.sh). Order-0 pages are one-page
 * folios, so 4.11's costs are per page. The sum is the time the work
 * takes on one CPU that nothing else wants; the engine stretches it
 * when CPUs are shared.
 *
 * SIMPLIFIED: costs are linear in the counts. No cache effects (a page
 * copied twice costs the same both times), no per-CPU differences, no
 * frequency scaling. Kernel functions whose cost each unit stands for:
 * filemap_read()/copy_page_to_iter() (copy, cached folio),
 * page_cache_ra_order()/page_cache_ra_unbounded() + filemap_add_folio()
 * (insert, per folio and per page),
 * shrink_folio_list()/__remove_mapping() (LRU eviction, per folio and
 * per page), shrink_active_list() and isolate_lru_folios()'s skips (LRU
 * move, the same), list_lru_walk_one() (slab scan),
 * __dentry_kill()/destroy_inode() (object free).
 */
#include "engine/work.h"

#include "core/bug.h"
#include "engine/machine.h"

/* 64x64 -> 128 bit product as hi:lo, from 32-bit halves. */
static void mul_64x64(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo)
{
	uint64_t a_lo = a & 0xffffffffu, a_hi = a >> 32;
	uint64_t b_lo = b & 0xffffffffu, b_hi = b >> 32;
	uint64_t p0 = a_lo * b_lo, p1 = a_lo * b_hi, p2 = a_hi * b_lo, p3 = a_hi * b_hi;
	uint64_t mid = (p0 >> 32) + (p1 & 0xffffffffu) + (p2 & 0xffffffffu);

	*lo = (mid << 32) | (p0 & 0xffffffffu);
	*hi = p3 + (p1 >> 32) + (p2 >> 32) + (mid >> 32);
}

/* floor(a * b / c); *inexact says whether a remainder was dropped.
 * UINT64_MAX when the quotient does not fit. */
static uint64_t mul_div(uint64_t a, uint64_t b, uint64_t c, int *inexact)
{
	uint64_t hi, lo, q = 0, r;
	int i;

	CP_BUG_ON(c == 0);
	if (b == 0 || a <= UINT64_MAX / b) {
		*inexact = (a * b) % c != 0;
		return a * b / c;
	}
	mul_64x64(a, b, &hi, &lo);
	if (hi >= c) {
		*inexact = 0;
		return UINT64_MAX; /* the quotient needs more than 64 bits */
	}
	/* Restoring long division of hi:lo by c; hi < c keeps q in 64 bits. */
	r = hi;
	for (i = 63; i >= 0; i--) {
		uint64_t carry = r >> 63;

		r = (r << 1) | ((lo >> i) & 1);
		if (carry || r >= c) {
			r -= c;
			q |= 1ULL << i;
		}
	}
	*inexact = r != 0;
	return q;
}

uint64_t cp_mul_div_u64(uint64_t a, uint64_t b, uint64_t c)
{
	int inexact;

	return mul_div(a, b, c, &inexact);
}

uint64_t cp_transfer_ns(uint64_t bytes, uint64_t bps)
{
	int inexact;
	uint64_t q = mul_div(bytes, 1000000000ULL, bps, &inexact);

	return inexact && q != UINT64_MAX ? q + 1 : q;
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
	return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

/* Folios handled whole: a fixed cost per folio and a smaller one per
 * page beyond each folio's first (measured: scripts/measure-reclaim-cost.sh
 * - a 35-page folio costs about five order-0 ones to evict, not 35;
 * scripts/measure-read-cost.sh - a 140-page readahead folio costs about
 * 25 order-0 ones to read in). */
static uint64_t folio_cost(uint64_t folios, uint64_t pages, uint64_t folio_ns,
			   uint64_t page_ns)
{
	CP_BUG_ON(pages < folios);
	return sat_add(sat_mul(folios, folio_ns), sat_mul(pages - folios, page_ns));
}

void cp_work_cost_from_machine(struct cp_work_cost *c, const struct cp_machine *m)
{
	*c = (struct cp_work_cost){
		.copy_bandwidth_bps = m->copy_bandwidth_bps,
		.memory_bandwidth_bps = m->memory_bandwidth_bps,
		.buffered_write_bandwidth_bps = m->buffered_write_bandwidth_bps,
		.read_syscall_ns = m->read_syscall_ns,
		.page_cached_ns = m->page_cached_ns,
		.page_insert_ns = m->page_insert_ns,
		.page_insert_page_ns = m->page_insert_page_ns,
		.lru_evict_ns = m->lru_evict_ns,
		.lru_evict_page_ns = m->lru_evict_page_ns,
		.lru_move_ns = m->lru_move_ns,
		.lru_move_page_ns = m->lru_move_page_ns,
		.slab_scan_ns = m->slab_scan_ns,
		.object_free_ns = m->object_free_ns,
	};
}

uint64_t cp_copy_bandwidth(const struct cp_work_cost *c, unsigned nr_copying,
			   unsigned nr_runnable, unsigned nr_cpus)
{
	uint64_t n = nr_runnable > nr_cpus ? nr_runnable : nr_cpus;
	uint64_t on_cpu = (uint64_t)nr_copying * nr_cpus, share;

	CP_BUG_ON(nr_copying == 0 || nr_copying > nr_runnable || nr_cpus == 0);
	if (!c->memory_bandwidth_bps)
		return c->copy_bandwidth_bps;
	/* m = on_cpu / n copies in flight, at least one: bw / max(1, m) */
	share = on_cpu <= n ? c->memory_bandwidth_bps
			    : cp_mul_div_u64(c->memory_bandwidth_bps, n, on_cpu);
	return share < c->copy_bandwidth_bps ? share : c->copy_bandwidth_bps;
}

uint64_t cp_work_cpu_ns(const struct cp_work_cost *c, const struct cp_work *w)
{
	uint64_t ns = 0;

	if (w->nr_copied_bytes)
		ns = cp_transfer_ns(w->nr_copied_bytes, c->copy_bandwidth_bps);
	ns = sat_add(ns, sat_mul(w->nr_read_calls, c->read_syscall_ns));
	ns = sat_add(ns, sat_mul(w->nr_cached_folios, c->page_cached_ns));
	ns = sat_add(ns, folio_cost(w->nr_inserted_folios, w->nr_inserted_pages,
				    c->page_insert_ns, c->page_insert_page_ns));
	ns = sat_add(ns, folio_cost(w->nr_lru_evicted_folios, w->nr_lru_evicted_pages,
				    c->lru_evict_ns, c->lru_evict_page_ns));
	ns = sat_add(ns, folio_cost(w->nr_lru_moved_folios, w->nr_lru_moved_pages,
				    c->lru_move_ns, c->lru_move_page_ns));
	ns = sat_add(ns, sat_mul(w->nr_slab_scanned_objects, c->slab_scan_ns));
	ns = sat_add(ns, sat_mul(w->nr_freed_objects, c->object_free_ns));
	ns = sat_add(ns, sat_mul(w->nr_created_files, c->create_cpu_ns));
	ns = sat_add(ns, sat_mul(w->nr_mkdir_lookups, c->mkdir_lookup_ns));
	ns = sat_add(ns, sat_mul(w->nr_stats, c->stat_cpu_ns));
	ns = sat_add(ns, sat_mul(w->nr_inode_reads, c->inode_read_ns));
	if (w->nr_written_bytes) {
		CP_BUG_ON(!c->buffered_write_bandwidth_bps);
		ns = sat_add(ns, cp_transfer_ns(w->nr_written_bytes,
						c->buffered_write_bandwidth_bps));
	}
	return ns;
}

void cp_work_add(struct cp_work *dst, const struct cp_work *src)
{
	dst->nr_copied_bytes += src->nr_copied_bytes;
	dst->nr_read_calls += src->nr_read_calls;
	dst->nr_cached_folios += src->nr_cached_folios;
	dst->nr_inserted_folios += src->nr_inserted_folios;
	dst->nr_inserted_pages += src->nr_inserted_pages;
	dst->nr_lru_evicted_folios += src->nr_lru_evicted_folios;
	dst->nr_lru_evicted_pages += src->nr_lru_evicted_pages;
	dst->nr_lru_moved_folios += src->nr_lru_moved_folios;
	dst->nr_lru_moved_pages += src->nr_lru_moved_pages;
	dst->nr_slab_scanned_objects += src->nr_slab_scanned_objects;
	dst->nr_freed_objects += src->nr_freed_objects;
	dst->nr_created_files += src->nr_created_files;
	dst->nr_mkdir_lookups += src->nr_mkdir_lookups;
	dst->nr_stats += src->nr_stats;
	dst->nr_inode_reads += src->nr_inode_reads;
	dst->nr_written_bytes += src->nr_written_bytes;
}
