/*
 * memory.c - physical memory by owner, watermarks, allocation with
 * reclaim, memcg charging.
 *
 * Mechanism (Linux 4.11 and 6.1, mm/page_alloc.c, mm/memcontrol.c):
 * an allocation first checks the low watermark (get_page_from_freelist
 * with ALLOC_WMARK_LOW). Below it the allocator wakes kswapd and retries
 * against the min watermark; below min a task that may block reclaims in
 * its own context (__alloc_pages_direct_reclaim -> try_to_free_pages) and
 * retries, giving up (OOM) after max_reclaim_retries rounds without
 * progress. A memory cgroup charge over its limit reclaims from that
 * cgroup (try_charge -> try_to_free_mem_cgroup_pages) up to
 * memcg_reclaim_retries times before failing.
 *
 * SIMPLIFIED: one node, one zone holding every managed page (the sums of
 * per-zone watermarks equal the single-zone values); no lowmem reserves,
 * no fragmentation or high-order failures; memcg charges are exact (no
 * per-CPU charge stock of MEMCG_CHARGE_BATCH pages); the OOM killer is
 * not modelled: an allocation that cannot be satisfied fails with
 * -CP_ENOSPC and the caller reports it.
 */
#include "model/memory.h"

#include <cachepressure/error.h>
#include <stdio.h>
#include <string.h>

#include "core/bug.h"
#include "core/intmath.h"
#include "model/gfp.h"

static const char *const fixed_owner_names[CP_NR_FIXED_OWNERS] = {
	[CP_OWNER_RESERVE] = "reserve",
	[CP_OWNER_PROCESS] = "process",
	[CP_OWNER_PAGECACHE] = "pagecache",
	[CP_OWNER_FSBUF] = "fs_buffers",
};

uint64_t cp_min_free_kbytes_default(uint64_t lowmem_kbytes, uint64_t max_kbytes)
{
	uint64_t v = cp_int_sqrt(lowmem_kbytes * 16);

	if (v < 128)
		v = 128;
	if (v > max_kbytes)
		v = max_kbytes;
	return v;
}

uint64_t cp_min_free_kbytes_thp(uint64_t lowmem_kbytes, unsigned nr_zones)
{
	/* pageblock_nr_pages (512 on x86-64 with 2 MiB huge pages) per zone
	 * for MIGRATE_RESERVE-style headroom, times (2 + 3 * MIGRATE_PCPTYPES). */
	uint64_t pages = 512ULL * nr_zones * (2 + 3 * 3);
	uint64_t cap = lowmem_kbytes / 4 / 20; /* 5 % of lowmem, in pages */

	if (pages > cap)
		pages = cap;
	return pages * 4;
}

struct cp_watermarks cp_watermarks_compute(uint64_t managed_pages, uint64_t min_free_kbytes,
					   unsigned watermark_scale_factor)
{
	struct cp_watermarks w;
	uint64_t pages_min = min_free_kbytes / 4; /* KiB -> 4 KiB pages */
	uint64_t tmp = managed_pages * watermark_scale_factor / 10000;

	if (tmp < pages_min / 4)
		tmp = pages_min / 4;
	w.min = pages_min;
	w.low = pages_min + tmp;
	w.high = pages_min + 2 * tmp;
	return w;
}

int cp_mem_init(struct cp_mem *m, const struct cp_mem_params *p, struct cp_vmstat *vmstat,
		struct cp_diag *diag)
{
	uint64_t managed, lowmem_kbytes, mfk;
	unsigned i;

	memset(m, 0, sizeof(*m));
	if (p->total_pages == 0)
		return cp_diag_set(diag, -CP_EINVAL, "memory: total_pages is 0");
	if (p->reserve_pages >= p->total_pages)
		return cp_diag_set(diag, -CP_EINVAL,
				   "memory: reserve of %llu pages does not fit in %llu pages",
				   (unsigned long long)p->reserve_pages,
				   (unsigned long long)p->total_pages);
	managed = p->total_pages - p->reserve_pages;
	lowmem_kbytes = managed * 4;
	mfk = p->min_free_kbytes;
	if (mfk == 0) {
		mfk = cp_min_free_kbytes_default(lowmem_kbytes, p->min_free_kbytes_max);
		if (p->thp_enabled) {
			uint64_t thp = cp_min_free_kbytes_thp(lowmem_kbytes, p->nr_zones);

			if (thp > mfk)
				mfk = thp;
		}
	}
	m->total_pages = p->total_pages;
	m->free_pages = p->total_pages;
	m->min_free_kbytes = mfk;
	m->wmark = cp_watermarks_compute(managed, mfk, p->watermark_scale_factor);
	if (m->wmark.high >= managed)
		return cp_diag_set(diag, -CP_EINVAL,
				   "memory: high watermark %llu pages leaves nothing of %llu managed pages",
				   (unsigned long long)m->wmark.high, (unsigned long long)managed);
	m->memcg_reclaim_retries = p->memcg_reclaim_retries;
	m->max_reclaim_retries = p->max_reclaim_retries ? p->max_reclaim_retries : 16;
	m->vmstat = vmstat;
	for (i = 0; i < CP_NR_FIXED_OWNERS; i++)
		snprintf(m->owner_name[i], CP_OWNER_NAME_LEN, "%s", fixed_owner_names[i]);
	m->nr_owners = CP_NR_FIXED_OWNERS;
	m->nr_owner[CP_OWNER_RESERVE] = p->reserve_pages;
	m->free_pages -= p->reserve_pages;
	return 0;
}

int cp_mem_register_owner(struct cp_mem *m, const char *name)
{
	if (m->nr_owners >= CP_MAX_OWNERS)
		return -CP_ENOSPC;
	snprintf(m->owner_name[m->nr_owners], CP_OWNER_NAME_LEN, "%s", name);
	return (int)m->nr_owners++;
}

void cp_mem_set_hooks(struct cp_mem *m, const struct cp_mem_hooks *hooks)
{
	m->hooks = *hooks;
}

static void take_pages(struct cp_mem *m, unsigned owner, uint64_t nr)
{
	CP_BUG_ON(m->free_pages < nr);
	m->free_pages -= nr;
	m->nr_owner[owner] += nr;
}

int cp_mem_take(struct cp_mem *m, unsigned owner, uint64_t nr)
{
	if (owner >= m->nr_owners || m->free_pages < nr)
		return -CP_ENOSPC;
	take_pages(m, owner, nr);
	return 0;
}

void cp_memcg_init(struct cp_memcg *memcg, int id, uint64_t limit_pages)
{
	memset(memcg, 0, sizeof(*memcg));
	memcg->id = id;
	memcg->limit_pages = limit_pages;
}

int cp_memcg_try_charge_nowait(struct cp_memcg *memcg, unsigned owner, uint64_t nr)
{
	if (memcg->usage_pages + nr > memcg->limit_pages)
		return -CP_ENOSPC;
	memcg->usage_pages += nr;
	memcg->nr_owner[owner] += nr;
	return 0;
}

void cp_memcg_uncharge(struct cp_memcg *memcg, unsigned owner, uint64_t nr)
{
	CP_BUG_ON(memcg->nr_owner[owner] < nr || memcg->usage_pages < nr);
	memcg->usage_pages -= nr;
	memcg->nr_owner[owner] -= nr;
}

/* try_charge(): over the limit, reclaim from the memcg and retry; each
 * round counts against the retry budget whatever it reclaimed. */
static int memcg_try_charge(struct cp_mem *m, struct cp_memcg *memcg, unsigned owner,
			    uint64_t nr, struct cp_alloc_ctx *ctx)
{
	unsigned retries = m->memcg_reclaim_retries;

	for (;;) {
		if (cp_memcg_try_charge_nowait(memcg, owner, nr) == 0)
			return 0;
		if (!(ctx->gfp & CP_GFP_DIRECT_RECLAIM) || !m->hooks.memcg_reclaim)
			break;
		if (ctx->work)
			ctx->work->nr_stalls++;
		m->hooks.memcg_reclaim(m->hooks.priv, memcg, ctx, nr);
		/* __GFP_NORETRY: one reclaim round, then give up */
		if (cp_memcg_try_charge_nowait(memcg, owner, nr) == 0)
			return 0;
		if ((ctx->gfp & CP_GFP_NORETRY) || retries-- == 0)
			break;
	}
	memcg->failcnt++;
	return -CP_ENOSPC;
}

/* __alloc_pages_slowpath() for one zone. */
static int alloc_slowpath(struct cp_mem *m, unsigned owner, uint64_t nr,
			  struct cp_alloc_ctx *ctx)
{
	unsigned no_progress = 0;

	if ((ctx->gfp & CP_GFP_KSWAPD_RECLAIM) && m->hooks.wake_kswapd)
		m->hooks.wake_kswapd(m->hooks.priv);
	for (;;) {
		uint64_t progress;

		if (cp_mem_watermark_ok(m, m->wmark.min, nr)) {
			take_pages(m, owner, nr);
			return 0;
		}
		if (!(ctx->gfp & CP_GFP_DIRECT_RECLAIM) || !m->hooks.direct_reclaim)
			break;
		if (m->vmstat)
			cp_count(m->vmstat, CP_VM_ALLOCSTALL, 1);
		if (ctx->work)
			ctx->work->nr_stalls++;
		progress = m->hooks.direct_reclaim(m->hooks.priv, ctx, nr);
		if (cp_mem_watermark_ok(m, m->wmark.min, nr)) {
			take_pages(m, owner, nr);
			return 0;
		}
		if (ctx->gfp & CP_GFP_NORETRY)
			break;
		if (progress == 0 && ++no_progress >= m->max_reclaim_retries)
			break;
	}
	/* a __GFP_NORETRY caller (readahead) falls back on its own */
	if (m->vmstat && !(ctx->gfp & CP_GFP_NORETRY))
		cp_count(m->vmstat, CP_VM_OOM, 1);
	return -CP_ENOSPC;
}

int cp_mem_alloc(struct cp_mem *m, unsigned owner, uint64_t nr, struct cp_alloc_ctx *ctx)
{
	int rc;

	CP_BUG_ON(owner >= m->nr_owners);
	if (ctx->memcg) {
		rc = memcg_try_charge(m, ctx->memcg, owner, nr, ctx);
		if (rc)
			return rc;
	}
	if (cp_mem_watermark_ok(m, m->wmark.low, nr)) {
		take_pages(m, owner, nr);
		return 0;
	}
	rc = alloc_slowpath(m, owner, nr, ctx);
	if (rc && ctx->memcg)
		cp_memcg_uncharge(ctx->memcg, owner, nr);
	CP_DEBUG_CHECK(cp_mem_check(m));
	return rc;
}

void cp_mem_free(struct cp_mem *m, unsigned owner, uint64_t nr, struct cp_memcg *memcg)
{
	CP_BUG_ON(owner >= m->nr_owners || m->nr_owner[owner] < nr);
	m->nr_owner[owner] -= nr;
	m->free_pages += nr;
	if (memcg)
		cp_memcg_uncharge(memcg, owner, nr);
}

bool cp_mem_check(const struct cp_mem *m)
{
	uint64_t sum = m->free_pages;
	unsigned i;

	for (i = 0; i < m->nr_owners; i++)
		sum += m->nr_owner[i];
	for (; i < CP_MAX_OWNERS; i++)
		if (m->nr_owner[i])
			return false;
	return sum == m->total_pages && m->wmark.min <= m->wmark.low &&
	       m->wmark.low <= m->wmark.high;
}

bool cp_memcg_check(const struct cp_memcg *memcg)
{
	uint64_t sum = 0;
	unsigned i;

	for (i = 0; i < CP_MAX_OWNERS; i++)
		sum += memcg->nr_owner[i];
	return sum == memcg->usage_pages;
}
