/*
 * test_slab.c - SLUB granularity: memory returns only when a slab
 * empties, partial slabs are reused (most recently freed into first),
 * SLAB_ACCOUNT caches charge per memcg (slab pages, or objects through
 * the byte stock), re-entrant reclaim is safe, and SLUB's partial lists
 * keep some emptied slabs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <string.h>

#include <cachepressure/error.h>

#include "core/alloc.h"
#include "model/gfp.h"
#include "model/memory.h"
#include "model/slab.h"

struct fixture {
	struct cp_vmstat vs;
	struct cp_mem mem;
	struct cp_slab_cache dentry;  /* 21 per order-0 slab, accounted */
	struct cp_slab_cache inode;   /* 16 per order-2 slab, accounted */
	struct cp_slab_cache ili;     /* 23 per order-0 slab, not accounted */
	struct cp_alloc_ctx ctx;
};

static const struct cp_slab_geometry dentry_geo = { "dentry", 192, 21, 0, true,
						    CP_MIGRATE_RECLAIMABLE };
static const struct cp_slab_geometry inode_geo = { "xfs_inode", 960, 16, 2, true,
						   CP_MIGRATE_RECLAIMABLE };
static const struct cp_slab_geometry ili_geo = { "xfs_ili", 176, 23, 0, false,
						 CP_MIGRATE_UNMOVABLE };

static void mem_setup(struct fixture *f, uint64_t total_pages)
{
	struct cp_mem_params mp = {
		.total_pages = total_pages,
		.min_free_kbytes = 128, /* min = 32 pages */
		.watermark_scale_factor = 10,
		.min_free_kbytes_max = 65536,
		.memcg_reclaim_retries = 5,
		.max_reclaim_retries = 16,
	};

	memset(f, 0, sizeof(*f));
	assert_int_equal(cp_mem_init(&f->mem, &mp, &f->vs, NULL), 0);
	assert_int_equal(cp_slab_cache_init(&f->dentry, &f->mem, &dentry_geo), 0);
	assert_int_equal(cp_slab_cache_init(&f->inode, &f->mem, &inode_geo), 0);
	assert_int_equal(cp_slab_cache_init(&f->ili, &f->mem, &ili_geo), 0);
	f->ctx.gfp = CP_GFP_KERNEL;
}

static int setup(void **state)
{
	struct fixture *f = cp_malloc(sizeof(*f));

	mem_setup(f, 100000);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	cp_slab_cache_release(&f->dentry);
	cp_slab_cache_release(&f->inode);
	cp_slab_cache_release(&f->ili);
	cp_mem_release(&f->mem);
	cp_free(f);
	return 0;
}

static void check_all(struct fixture *f)
{
	assert_true(cp_slab_check(&f->dentry));
	assert_true(cp_slab_check(&f->inode));
	assert_true(cp_slab_check(&f->ili));
	assert_true(cp_mem_check(&f->mem));
}

/* 22 dentries need 2 slabs (21 per order-0 slab) = 2 pages. Freeing 20
 * of the first slab's objects returns nothing; the 21st does (1 page). */
static void memory_returns_only_when_slab_empties(void **state)
{
	struct fixture *f = *state;
	struct cp_slab_obj o[22];
	uint64_t free0 = f->mem.free_pages;
	int i;

	for (i = 0; i < 22; i++)
		assert_int_equal(cp_slab_alloc(&f->dentry, &f->ctx, &o[i]), 0);
	assert_int_equal(f->dentry.nr_slabs, 2);
	assert_int_equal(cp_slab_pages(&f->dentry), 2);
	assert_int_equal(f->mem.free_pages, free0 - 2);
	assert_int_equal(o[0].slab, o[20].slab);
	assert_true(o[21].slab != o[0].slab);
	for (i = 0; i < 20; i++) {
		cp_slab_free(&f->dentry, o[i]);
		assert_int_equal(f->mem.free_pages, free0 - 2);
	}
	cp_slab_free(&f->dentry, o[20]);
	assert_int_equal(f->mem.free_pages, free0 - 1);
	assert_int_equal(f->dentry.nr_slabs, 1);
	assert_int_equal(f->dentry.nr_objects, 1);
	check_all(f);
	cp_slab_free(&f->dentry, o[21]);
	assert_int_equal(f->mem.free_pages, free0);
	check_all(f);
}

/* An order-2 cache takes and returns 4 pages per slab. */
static void order_two_slab_is_four_pages(void **state)
{
	struct fixture *f = *state;
	struct cp_slab_obj o[17];
	uint64_t free0 = f->mem.free_pages;
	int i;

	for (i = 0; i < 17; i++)
		assert_int_equal(cp_slab_alloc(&f->inode, &f->ctx, &o[i]), 0);
	/* 17 objects, 16 per slab -> 2 slabs -> 8 pages */
	assert_int_equal(cp_slab_pages(&f->inode), 8);
	assert_int_equal(f->mem.free_pages, free0 - 8);
	cp_slab_free(&f->inode, o[16]);
	assert_int_equal(f->mem.free_pages, free0 - 4);
	for (i = 0; i < 16; i++)
		cp_slab_free(&f->inode, o[i]);
	assert_int_equal(f->mem.free_pages, free0);
	check_all(f);
}

/* Two full slabs A and B (42 objects). Free one object of A, then one of
 * B: the next allocation goes to B (most recently freed into), the one
 * after to A; no new slab is taken. */
static void partial_slab_most_recently_freed_into_is_reused_first(void **state)
{
	struct fixture *f = *state;
	struct cp_slab_obj o[42], n1, n2;
	uint32_t a, b;
	int i;

	for (i = 0; i < 42; i++)
		assert_int_equal(cp_slab_alloc(&f->dentry, &f->ctx, &o[i]), 0);
	a = o[0].slab;
	b = o[21].slab;
	assert_true(a != b);
	cp_slab_free(&f->dentry, o[3]);  /* A partial */
	cp_slab_free(&f->dentry, o[30]); /* B partial, more recent */
	assert_int_equal(cp_slab_alloc(&f->dentry, &f->ctx, &n1), 0);
	assert_int_equal(n1.slab, b);
	assert_int_equal(cp_slab_alloc(&f->dentry, &f->ctx, &n2), 0);
	assert_int_equal(n2.slab, a);
	assert_int_equal(f->dentry.nr_slabs, 2);
	check_all(f);
}

/* SLAB_ACCOUNT: a memcg's objects live in slabs of their own, charged to
 * it; the root's objects do not share them. An unaccounted cache charges
 * nothing even when the task is in a memcg. */
static void accounted_cache_charges_slab_pages_per_memcg(void **state)
{
	struct fixture *f = *state;
	struct cp_memcg cg;
	struct cp_alloc_ctx in_cg = f->ctx;
	struct cp_slab_obj r, c1, c2, i1;

	cp_memcg_init(&cg, 1, UINT64_MAX);
	in_cg.memcg = &cg;
	assert_int_equal(cp_slab_alloc(&f->dentry, &f->ctx, &r), 0);
	assert_int_equal(cp_slab_alloc(&f->dentry, &in_cg, &c1), 0);
	assert_int_equal(cp_slab_alloc(&f->dentry, &in_cg, &c2), 0);
	/* root slab has 20 free objects, but the memcg gets its own slab */
	assert_true(c1.slab != r.slab);
	assert_int_equal(c1.slab, c2.slab);
	assert_int_equal(cp_slab_obj_memcg_id(&f->dentry, c1), 1);
	assert_int_equal(cp_slab_obj_memcg_id(&f->dentry, r), 0);
	assert_int_equal(cg.nr_owner[f->dentry.owner], 1);
	assert_int_equal(cg.usage_pages, 1);
	/* xfs_ili is not SLAB_ACCOUNT */
	assert_int_equal(cp_slab_alloc(&f->ili, &in_cg, &i1), 0);
	assert_int_equal(cp_slab_obj_memcg_id(&f->ili, i1), 0);
	assert_int_equal(cg.usage_pages, 1);
	/* the charge goes away with the memcg's last object */
	cp_slab_free(&f->dentry, c1);
	assert_int_equal(cg.usage_pages, 1);
	cp_slab_free(&f->dentry, c2);
	assert_int_equal(cg.usage_pages, 0);
	assert_true(cp_memcg_check(&cg));
	check_all(f);
}

/* A memcg at its limit: the charge of a new slab fails (no reclaim hook
 * installed) with -CP_ENOSPC and nothing is allocated. */
static void charge_over_memcg_limit_fails_cleanly(void **state)
{
	struct fixture *f = *state;
	struct cp_memcg cg;
	struct cp_alloc_ctx in_cg = f->ctx;
	struct cp_slab_obj o, keep;

	cp_memcg_init(&cg, 2, 4); /* one order-2 slab fits */
	in_cg.memcg = &cg;
	assert_int_equal(cp_slab_alloc(&f->inode, &in_cg, &keep), 0);
	for (int i = 1; i < 16; i++)
		assert_int_equal(cp_slab_alloc(&f->inode, &in_cg, &o), 0);
	o.slab = 12345;
	assert_int_equal(cp_slab_alloc(&f->inode, &in_cg, &o), -CP_ENOSPC);
	assert_int_equal(o.slab, 12345);
	assert_int_equal(f->inode.nr_objects, 16);
	assert_int_equal(cg.usage_pages, 4);
	check_all(f);
}

/* The fixture's xfs_inode cache with 6.18's 1024-byte slots, charged
 * object by object (+ 8 B), and a task context in memcg cg (id 1). */
static void inode_objects_charged_in(struct fixture *f, struct cp_memcg *cg, uint64_t limit,
				     struct cp_alloc_ctx *in_cg)
{
	cp_memcg_init(cg, 1, limit);
	*in_cg = f->ctx;
	in_cg->memcg = cg;
	f->inode.object_size = 1024; /* as 6.18's slabinfo gives it */
	cp_slab_cache_charge_objects(&f->inode, 8);
}

/* 5.9+ obj_cgroup accounting (mm/slab.h obj_full_size, mm/memcontrol.c
 * obj_cgroup_charge): an xfs_inode object is charged 1024 + 8 = 1032 B,
 * a whole page at a time with the rest stocked, and the order-2 slab's
 * four pages are not charged. By hand: objects 1, 4, 8, 12 and 16 find
 * less than 1032 B in the stock (0, 1000, 968, 936, 904) and charge a
 * page each, so 3 objects hold 1 page and 16 objects 5 (16 x 1032 =
 * 16512 B; 4.11's slab charging would give 4 and 4). */
static void objects_charged_slot_size_plus_pointer_a_page_at_a_time(void **state)
{
	struct fixture *f = *state;
	struct cp_memcg cg;
	struct cp_alloc_ctx in_cg;
	struct cp_slab_obj o;
	int i;

	cp_slab_cache_charge_objects(&f->inode, 8);
	assert_int_equal(f->inode.obj_charge, 968); /* 960 + 8: the fixture's slot */
	inode_objects_charged_in(f, &cg, UINT64_MAX, &in_cg);
	assert_int_equal(f->inode.obj_charge, 1032);
	for (i = 1; i <= 16; i++) {
		assert_int_equal(cp_slab_alloc(&f->inode, &in_cg, &o), 0);
		if (i == 3)
			assert_int_equal(cg.usage_pages, 1);
	}
	assert_int_equal(cg.usage_pages, 5);
	assert_int_equal(cg.nr_owner[f->inode.owner], 5);
	assert_int_equal(f->inode.parts[1].stock_bytes, 3968);
	assert_int_equal(cp_slab_pages(&f->inode), 4); /* one slab, uncharged */
	assert_true(cp_memcg_check(&cg));
	check_all(f);
}

/* refill_obj_stock(): freed bytes return to the stock, which gives back
 * its whole pages only once it holds more than a page. From 5 pages and
 * a 3968 B stock (above), freeing the 16 objects one by one uncharges a
 * page at frees 1, 5, 9 and 13 (stock 5000, 5032, 5064, 5096 B) and
 * leaves one page charged with no object: 4096 B is not more than a
 * page. The slab's pages go back to the buddy with its last object. */
static void freed_objects_return_pages_once_the_stock_exceeds_a_page(void **state)
{
	struct fixture *f = *state;
	struct cp_memcg cg;
	struct cp_alloc_ctx in_cg;
	struct cp_slab_obj o[16];
	int i;

	inode_objects_charged_in(f, &cg, UINT64_MAX, &in_cg);
	for (i = 0; i < 16; i++)
		assert_int_equal(cp_slab_alloc(&f->inode, &in_cg, &o[i]), 0);
	cp_slab_free(&f->inode, o[0]);
	assert_int_equal(cg.usage_pages, 4);
	assert_int_equal(f->inode.parts[1].stock_bytes, 904);
	for (i = 1; i < 13; i++)
		cp_slab_free(&f->inode, o[i]);
	assert_int_equal(cg.usage_pages, 1);
	for (i = 13; i < 16; i++)
		cp_slab_free(&f->inode, o[i]);
	assert_int_equal(cg.usage_pages, 1);
	assert_int_equal(f->inode.parts[1].stock_bytes, 4096);
	assert_int_equal(f->mem.nr_owner[f->inode.owner], 0);
	assert_true(cp_memcg_check(&cg));
	check_all(f);
}

/* A charge over the limit fails (no reclaim hook) and allocates nothing;
 * objects the stock still covers need no charge. Limit 1 page: objects
 * 1-3 fit (1032 x 3 = 3096 B), the 4th needs a second page. */
static void object_charge_over_limit_fails_cleanly(void **state)
{
	struct fixture *f = *state;
	struct cp_memcg cg;
	struct cp_alloc_ctx in_cg;
	struct cp_slab_obj o;
	int i;

	inode_objects_charged_in(f, &cg, 1, &in_cg);
	for (i = 0; i < 3; i++)
		assert_int_equal(cp_slab_alloc(&f->inode, &in_cg, &o), 0);
	assert_int_equal(cp_slab_alloc(&f->inode, &in_cg, &o), -CP_ENOSPC);
	assert_int_equal(f->inode.nr_objects, 3);
	assert_int_equal(f->inode.parts[1].stock_bytes, 1000);
	assert_int_equal(cg.usage_pages, 1);
	assert_int_equal(cg.failcnt, 1);
	assert_true(cp_memcg_check(&cg));
	check_all(f);
}

/* Re-entrancy: the direct reclaim hook frees objects of the very cache
 * that is allocating (the dcache shrinker during d_alloc). */
struct reentry {
	struct fixture *f;
	struct cp_slab_obj *victims;
	int nr_victims;
};

static uint64_t reclaim_frees_same_cache(void *priv, struct cp_alloc_ctx *ctx, uint64_t nr)
{
	struct reentry *r = priv;
	uint64_t before = r->f->mem.free_pages;

	(void)ctx;
	(void)nr;
	while (r->nr_victims > 0)
		cp_slab_free(&r->f->dentry, r->victims[--r->nr_victims]);
	return r->f->mem.free_pages - before;
}

static void allocation_survives_reclaim_freeing_the_same_cache(void **state)
{
	struct fixture *f = *state;
	struct cp_slab_obj o[64], n;
	struct reentry r;
	struct cp_mem_hooks hooks = { .direct_reclaim = reclaim_frees_same_cache, .priv = &r };
	uint64_t i, got;

	teardown(state);
	f = cp_malloc(sizeof(*f));
	*state = f;
	mem_setup(f, 2000);
	/* 63 objects = 3 full slabs; then fill memory down to the min mark
	 * so the next slab must reclaim */
	for (i = 0; i < 63; i++)
		assert_int_equal(cp_slab_alloc(&f->dentry, &f->ctx, &o[i]), 0);
	got = f->mem.free_pages - f->mem.wmark.min;
	assert_int_equal(cp_mem_take(&f->mem, CP_OWNER_PROCESS, got), 0);
	r.f = f;
	r.victims = o;
	r.nr_victims = 63; /* frees all three slabs: 3 pages */
	cp_mem_set_hooks(&f->mem, &hooks);
	assert_int_equal(cp_slab_alloc(&f->dentry, &f->ctx, &n), 0);
	assert_int_equal(f->dentry.nr_objects, 1);
	assert_int_equal(f->dentry.nr_slabs, 1);
	check_all(f);
	cp_slab_free(&f->dentry, n);
	check_all(f);
}

/* Host allocation failure while growing the slot array: -CP_ENOMEM, no
 * pages taken. */
static void host_failure_takes_no_pages(void **state)
{
	struct fixture *f = *state;
	struct cp_slab_obj o;
	uint64_t free0 = f->mem.free_pages;
	long n;
	int rc = -1;

	for (n = 0; rc != 0; n++) {
		cp_alloc_fail_after(n);
		rc = cp_slab_alloc(&f->dentry, &f->ctx, &o);
		cp_alloc_fail_after(-1);
		if (rc) {
			assert_int_equal(rc, -CP_ENOMEM);
			assert_int_equal(f->mem.free_pages, free0);
			assert_int_equal(f->dentry.nr_objects, 0);
		}
		check_all(f);
	}
	assert_true(n > 1);
	assert_int_equal(f->dentry.nr_objects, 1);
}

static void expect_keep(enum cp_slub_partial kind, unsigned cpus, uint32_t size, uint32_t per_slab,
			uint32_t min_partial, uint32_t cpu_slabs)
{
	uint32_t mp, cpu;

	cp_slub_keep(kind, cpus, size, per_slab, &mp, &cpu);
	assert_int_equal(mp, min_partial);
	assert_int_equal(cpu, cpu_slabs);
}

/* mm/slub.c set_min_partial() and set_cpu_partial() /
 * slub_set_cpu_partial() (5.16+), checked against this 6.18.44 VM's
 * /sys/kernel/slab: kmalloc-512 min_partial 5, cpu_partial 52 objects ->
 * DIV_ROUND_UP(2 x 52, 16) = 7 slabs a CPU; kmalloc-8k 6 and 6 ->
 * DIV_ROUND_UP(12, 4) = 3; dentry (192 B slots) 5 and 120 -> 12 of 21;
 * xfs_inode (1024 B slots) 5 and 24 -> 3 of 16. min_partial is
 * ilog2(size) / 2 within [5, 10]. 4.11: 13 free objects for 512 B
 * slots, 16 to a slab: one slab a CPU. */
static void slub_keep_follows_set_min_partial_and_set_cpu_partial(void **state)
{
	(void)state;
	expect_keep(CP_SLUB_PARTIAL_SLABS, 2, 512, 16, 5, 14);
	expect_keep(CP_SLUB_PARTIAL_SLABS, 2, 8192, 4, 6, 6);
	expect_keep(CP_SLUB_PARTIAL_SLABS, 1, 192, 21, 5, 12);
	expect_keep(CP_SLUB_PARTIAL_SLABS, 1, 1024, 16, 5, 3);
	/* ilog2 22 / 2 = 11 -> MAX_PARTIAL 10; 6 objects, one a slab: 12 */
	expect_keep(CP_SLUB_PARTIAL_SLABS, 1, 1u << 22, 1, 10, 12);
	expect_keep(CP_SLUB_PARTIAL_OBJECTS, 4, 512, 16, 5, 4);
	expect_keep(CP_SLUB_PARTIAL_NONE, 4, 512, 16, 0, 0);
}

/* A cache made after cp_mem_set_slub() in f's memory. */
static void slub_cache(struct fixture *f, struct cp_slab_cache *c,
		       const struct cp_slab_geometry *g, unsigned nr_cpus)
{
	cp_mem_set_slub(&f->mem, CP_SLUB_PARTIAL_SLABS, nr_cpus);
	assert_int_equal(cp_slab_cache_init(c, &f->mem, g), 0);
}

/* kmalloc-8k on one CPU (5.16+): room for 3 slabs on the CPU's partial
 * list, min_partial 6 on the node. 40 objects fill 10 slabs of 8 pages;
 * freed slab by slab, each emptied slab is kept while the partial list
 * (only kept slabs here) is shorter than 3 + 6 = 9: nine stay (72
 * pages), the tenth goes back. Four new objects take a kept slab: no
 * page is allocated. (__slab_free, put_cpu_partial, __put_partials.) */
static void emptied_slabs_stay_on_the_partial_lists(void **state)
{
	static const struct cp_slab_geometry k8 = { "kmalloc-8k", 8192, 4, 3, false,
						    CP_MIGRATE_UNMOVABLE };
	struct fixture *f = *state;
	struct cp_slab_cache c;
	struct cp_slab_obj o[40];
	uint64_t free0;
	int i;

	slub_cache(f, &c, &k8, 1);
	free0 = f->mem.free_pages;
	for (i = 0; i < 40; i++)
		assert_int_equal(cp_slab_alloc(&c, &f->ctx, &o[i]), 0);
	assert_int_equal(f->mem.free_pages, free0 - 80);
	for (i = 0; i < 40; i++)
		cp_slab_free(&c, o[i]);
	assert_int_equal(c.nr_objects, 0);
	assert_int_equal(c.nr_slabs, 9);
	assert_int_equal(f->mem.free_pages, free0 - 72);
	assert_true(cp_slab_check(&c));
	for (i = 0; i < 4; i++)
		assert_int_equal(cp_slab_alloc(&c, &f->ctx, &o[i]), 0);
	assert_int_equal(f->mem.free_pages, free0 - 72);
	assert_int_equal(c.nr_slabs, 9);
	assert_true(cp_slab_check(&c));
	cp_slab_cache_release(&c);
}

/* dentry on one CPU: room for 12 slabs on the CPU's list, min_partial
 * 5. With 20 partly used slabs on the partial list (more than 12 + 5),
 * only the CPU's room holds emptied slabs: of 15 slabs emptied, 12 stay
 * and 3 go back (40 pages -> 37). */
static void many_partial_slabs_leave_only_the_cpu_lists_room(void **state)
{
	struct fixture *f = *state;
	struct cp_slab_cache c;
	struct cp_slab_obj o[40 * 21];
	uint64_t free0;
	int i, k;

	slub_cache(f, &c, &dentry_geo, 1);
	free0 = f->mem.free_pages;
	for (i = 0; i < 40 * 21; i++)
		assert_int_equal(cp_slab_alloc(&c, &f->ctx, &o[i]), 0);
	assert_int_equal(f->mem.free_pages, free0 - 40);
	for (k = 0; k < 20; k++)
		cp_slab_free(&c, o[k * 21]); /* slabs 0-19 partly used */
	for (k = 20; k < 35; k++)
		for (i = 0; i < 21; i++)
			cp_slab_free(&c, o[k * 21 + i]); /* slabs 20-34 emptied */
	assert_int_equal(c.nr_slabs, 37);
	assert_int_equal(f->mem.free_pages, free0 - 37);
	assert_true(cp_slab_check(&c));
	cp_slab_cache_release(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(memory_returns_only_when_slab_empties, setup, teardown),
		cmocka_unit_test_setup_teardown(order_two_slab_is_four_pages, setup, teardown),
		cmocka_unit_test_setup_teardown(partial_slab_most_recently_freed_into_is_reused_first,
						setup, teardown),
		cmocka_unit_test_setup_teardown(accounted_cache_charges_slab_pages_per_memcg, setup,
						teardown),
		cmocka_unit_test_setup_teardown(charge_over_memcg_limit_fails_cleanly, setup, teardown),
		cmocka_unit_test_setup_teardown(objects_charged_slot_size_plus_pointer_a_page_at_a_time,
						setup, teardown),
		cmocka_unit_test_setup_teardown(freed_objects_return_pages_once_the_stock_exceeds_a_page,
						setup, teardown),
		cmocka_unit_test_setup_teardown(object_charge_over_limit_fails_cleanly, setup, teardown),
		cmocka_unit_test_setup_teardown(allocation_survives_reclaim_freeing_the_same_cache,
						setup, teardown),
		cmocka_unit_test_setup_teardown(host_failure_takes_no_pages, setup, teardown),
		cmocka_unit_test(slub_keep_follows_set_min_partial_and_set_cpu_partial),
		cmocka_unit_test_setup_teardown(emptied_slabs_stay_on_the_partial_lists, setup,
						teardown),
		cmocka_unit_test_setup_teardown(many_partial_slabs_leave_only_the_cpu_lists_room,
						setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
