/*
 * test_shrinker.c - do_shrink_slab() scan targets for the 4.11
 * proportional rule and the >= 4.16 priority rule, hand-computed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <string.h>

#include "model/gfp.h"
#include "model/profile.h"
#include "model/shrinker.h"

struct fake {
	uint64_t freeable;
	uint64_t scanned;   /* sum of nr_to_scan handed to ->scan */
	unsigned calls;
};

static uint64_t fake_count(void *priv, struct cp_shrink_control *sc)
{
	(void)sc;
	return ((struct fake *)priv)->freeable;
}

/* Like super_cache_scan: refuses without __GFP_FS. */
static uint64_t fake_scan(void *priv, struct cp_shrink_control *sc)
{
	struct fake *f = priv;

	if (!(sc->gfp & CP_GFP_FS))
		return CP_SHRINK_STOP;
	f->calls++;
	f->scanned += sc->nr_to_scan;
	return 0;
}

static const struct cp_shrinker_ops fake_ops = { "fake", fake_count, fake_scan };

struct rig {
	struct cp_vmstat vs;
	struct cp_shrinker_registry reg;
	struct cp_shrinker s;
	struct fake f;
	struct cp_shrink_control sc;
};

static void rig_init(struct rig *r, const char *profile, uint64_t freeable, uint64_t deferred)
{
	memset(r, 0, sizeof(*r));
	cp_shrinker_registry_init(&r->reg, cp_kernel_profile_find(profile), &r->vs);
	r->s.ops = &fake_ops;
	r->s.priv = &r->f;
	r->s.batch = 1024;
	r->s.memcg_aware = true;
	assert_int_equal(cp_register_shrinker(&r->reg, &r->s), 0);
	r->f.freeable = freeable;
	r->s.nr_deferred[0] = deferred;
	r->sc.gfp = CP_GFP_KERNEL;
}

static void run(struct rig *r, uint64_t nr_scanned, uint64_t nr_eligible, int priority)
{
	struct cp_shrink_pressure p = { nr_scanned, nr_eligible, priority };

	cp_do_shrink_slab(&r->reg, &r->s, &r->sc, &p);
}

/* 4.11 #1 (ref §12.3): nr_scanned 73, eligible 3,300,000, freeable 1M:
 * delta = (4*73/2) * 1e6 / 3300001 = 146e6 / 3300001 = 44 -> below one
 * batch: nothing scanned, 44 deferred. */
static void v411_small_delta_is_deferred(void **state)
{
	struct rig r;

	(void)state;
	rig_init(&r, "linux-4.11", 1000000, 0);
	run(&r, 73, 3300000, 12);
	assert_int_equal(r.f.scanned, 0);
	assert_int_equal(r.s.nr_deferred[0], 44);
	assert_int_equal(r.vs.v[CP_VM_SLABS_SCANNED], 0);
}

/* 4.11 #2: deferred 1000 + delta 44 = 1044 >= batch: one batch of 1024,
 * remainder 20 deferred. */
static void v411_deferred_work_completes_a_batch(void **state)
{
	struct rig r;

	(void)state;
	rig_init(&r, "linux-4.11", 1000000, 1000);
	run(&r, 73, 3300000, 12);
	assert_int_equal(r.f.scanned, 1024);
	assert_int_equal(r.s.nr_deferred[0], 20);
	assert_int_equal(r.vs.v[CP_VM_SLABS_SCANNED], 1024);
}

/* 4.11 #3: a GFP_NOFS reclaimer: ->scan says SHRINK_STOP, the whole
 * 5000 + 44 is deferred. */
static void v411_nofs_defers_everything(void **state)
{
	struct rig r;

	(void)state;
	rig_init(&r, "linux-4.11", 1000000, 5000);
	r.sc.gfp = CP_GFP_NOFS;
	run(&r, 73, 3300000, 12);
	assert_int_equal(r.f.scanned, 0);
	assert_int_equal(r.s.nr_deferred[0], 5044);
}

/* 4.11 #4: anti-windup clamp: deferred 900000 + 44, delta 44 < 1e6/4, so
 * total = min(900044, 500000) = 500000: 488 batches = 499712 scanned,
 * 288 left; deferred = 900044 - 499712 = 400332. */
static void v411_small_delta_clamps_backlog_to_half_freeable(void **state)
{
	struct rig r;

	(void)state;
	rig_init(&r, "linux-4.11", 1000000, 900000);
	run(&r, 73, 3300000, 12);
	assert_int_equal(r.f.scanned, 499712);
	assert_int_equal(r.f.calls, 488);
	assert_int_equal(r.s.nr_deferred[0], 400332);
}

/* 4.11 #5: freeable below a batch: nr_scanned = eligible = 1000,
 * freeable 500: delta = 2000 * 500 / 1001 = 999 >= freeable, so one call
 * of 999 objects, nothing deferred. */
static void v411_total_above_freeable_scans_less_than_a_batch(void **state)
{
	struct rig r;

	(void)state;
	rig_init(&r, "linux-4.11", 500, 0);
	run(&r, 1000, 1000, 12);
	assert_int_equal(r.f.scanned, 999);
	assert_int_equal(r.f.calls, 1);
	assert_int_equal(r.s.nr_deferred[0], 0);
}

/* 4.11 #6: whole-LRU pressure (drop_slab-like): freeable 10000,
 * delta = 2000 * 10000 / 1001 = 19980 <= 2 * freeable: 19 batches =
 * 19456, 524 deferred. */
static void v411_full_pressure_scans_twice_freeable(void **state)
{
	struct rig r;

	(void)state;
	rig_init(&r, "linux-4.11", 10000, 0);
	run(&r, 1000, 1000, 12);
	assert_int_equal(r.f.scanned, 19456);
	assert_int_equal(r.s.nr_deferred[0], 524);
}

/* 4.11 #7: shrink_slab() replaces nr_scanned 0 by SWAP_CLUSTER_MAX:
 * delta = 64 * 100000 / 1001 = 6393; 6 batches = 6144, 249 deferred. */
static void v411_shrink_slab_uses_swap_cluster_max_for_zero_scan(void **state)
{
	struct rig r;
	struct cp_shrink_pressure p = { 0, 1000, 12 };

	(void)state;
	rig_init(&r, "linux-4.11", 100000, 0);
	cp_shrink_slab(&r.reg, &r.sc, &p);
	assert_int_equal(r.f.scanned, 6144);
	assert_int_equal(r.s.nr_deferred[0], 249);
}

/* 6.1 #1: priority 12, freeable 1M: delta = (1e6 >> 12) * 4 / 2 =
 * 244 * 2 = 488 -> deferred. */
static void v61_priority_12_scans_freeable_over_2048(void **state)
{
	struct rig r;

	(void)state;
	rig_init(&r, "linux-6.1", 1000000, 0);
	run(&r, 73, 3300000, 12);
	assert_int_equal(r.f.scanned, 0);
	assert_int_equal(r.s.nr_deferred[0], 488);
}

/* 6.1 #2: fewer than 4096 objects are invisible at priority 12:
 * 1000 >> 12 = 0, so delta 0, nothing scanned, nothing deferred. */
static void v61_small_cache_invisible_at_default_priority(void **state)
{
	struct rig r;

	(void)state;
	rig_init(&r, "linux-6.1", 1000, 0);
	run(&r, 0, 0, 12);
	assert_int_equal(r.f.scanned, 0);
	assert_int_equal(r.s.nr_deferred[0], 0);
}

/* 6.1 #3: backlog 100000 at priority 12, freeable 50000: total =
 * (100000 >> 12) + (50000 >> 12) * 2 = 24 + 24 = 48 -> nothing; the new
 * backlog 100024 is capped at 2 * freeable = 100000. */
static void v61_backlog_applied_one_4096th_and_capped(void **state)
{
	struct rig r;

	(void)state;
	rig_init(&r, "linux-6.1", 50000, 100000);
	run(&r, 0, 0, 12);
	assert_int_equal(r.f.scanned, 0);
	assert_int_equal(r.s.nr_deferred[0], 100000);
}

/* 6.1 #4: the same backlog at priority 0 is released: total = 100000 +
 * 100000 capped to 100000: 97 batches = 99328 scanned in one call;
 * next = 200000 - 99328 = 100672, capped at 100000. */
static void v61_low_priority_releases_backlog(void **state)
{
	struct rig r;

	(void)state;
	rig_init(&r, "linux-6.1", 50000, 100000);
	run(&r, 0, 0, 0);
	assert_int_equal(r.f.scanned, 99328);
	assert_int_equal(r.s.nr_deferred[0], 100000);
}

/* 6.1 #5: GFP_NOFS at priority 0: STOP; backlog 1000 + 6000 capped at
 * 2 * 3000 = 6000. */
static void v61_nofs_defers_capped(void **state)
{
	struct rig r;

	(void)state;
	rig_init(&r, "linux-6.1", 3000, 1000);
	r.sc.gfp = CP_GFP_NOFS;
	run(&r, 0, 0, 0);
	assert_int_equal(r.f.scanned, 0);
	assert_int_equal(r.s.nr_deferred[0], 6000);
}

/* 6.1 #6: priority 6, freeable 100000, backlog 6400: delta =
 * (100000 >> 6) * 2 = 3124; total = 100 + 3124 = 3224: 3 batches, next =
 * 6400 + 3124 - 3072 = 6452. */
static void v61_mid_priority_mixes_delta_and_backlog(void **state)
{
	struct rig r;

	(void)state;
	rig_init(&r, "linux-6.1", 100000, 6400);
	run(&r, 0, 0, 6);
	assert_int_equal(r.f.scanned, 3072);
	assert_int_equal(r.s.nr_deferred[0], 6452);
}

/* The deep calls, as trace_mm_shrink_slab_start() reports them
 * (freeable 100000, batch 1024): at priority 4, total (100000 >> 4) * 2 =
 * 12500, 12 batches scanned, 212 deferred: not deep; at priority 3,
 * total (212 >> 3) + (100000 >> 3) * 2 = 26 + 25000 = 25026: one call;
 * 24 batches, 212 + 25000 - 24576 = 636 deferred; at priority 0, 636 +
 * 200000 capped at 2 * freeable = 200000: two calls, 225026. Both with
 * GFP_KERNEL: two with __GFP_FS; a third at priority 0 with GFP_NOFS
 * (the scan stops at once, all deferred) is deep without it. */
static void v61_counts_the_calls_at_priority_3_and_below(void **state)
{
	struct rig r;

	(void)state;
	rig_init(&r, "linux-6.1", 100000, 0);
	run(&r, 0, 0, 4);
	assert_int_equal(r.s.nr_deep_calls, 0);
	run(&r, 0, 0, 3);
	assert_int_equal(r.s.nr_deep_calls, 1);
	assert_int_equal(r.s.nr_deep_scan, 25026);
	run(&r, 0, 0, 0);
	assert_int_equal(r.s.nr_deep_calls, 2);
	assert_int_equal(r.s.nr_deep_scan, 225026);
	assert_int_equal(r.s.nr_deep_fs_calls, 2);
	r.sc.gfp = CP_GFP_NOFS;
	run(&r, 0, 0, 0);
	assert_int_equal(r.s.nr_deep_calls, 3);
	assert_int_equal(r.s.nr_deep_fs_calls, 2);
}

/* 6.1 keeps a memcg-aware shrinker's backlog per memcg; 4.11 per node. */
static void v61_deferred_work_is_per_memcg(void **state)
{
	struct rig r;

	(void)state;
	rig_init(&r, "linux-6.1", 1000000, 0);
	r.sc.memcg_id = 2;
	run(&r, 0, 0, 12);
	assert_int_equal(r.s.nr_deferred[2], 488);
	assert_int_equal(r.s.nr_deferred[0], 0);
	rig_init(&r, "linux-4.11", 1000000, 0);
	r.sc.memcg_id = 2;
	run(&r, 73, 3300000, 12);
	assert_int_equal(r.s.nr_deferred[0], 44);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(v411_small_delta_is_deferred),
		cmocka_unit_test(v411_deferred_work_completes_a_batch),
		cmocka_unit_test(v411_nofs_defers_everything),
		cmocka_unit_test(v411_small_delta_clamps_backlog_to_half_freeable),
		cmocka_unit_test(v411_total_above_freeable_scans_less_than_a_batch),
		cmocka_unit_test(v411_full_pressure_scans_twice_freeable),
		cmocka_unit_test(v411_shrink_slab_uses_swap_cluster_max_for_zero_scan),
		cmocka_unit_test(v61_priority_12_scans_freeable_over_2048),
		cmocka_unit_test(v61_small_cache_invisible_at_default_priority),
		cmocka_unit_test(v61_backlog_applied_one_4096th_and_capped),
		cmocka_unit_test(v61_low_priority_releases_backlog),
		cmocka_unit_test(v61_nofs_defers_capped),
		cmocka_unit_test(v61_mid_priority_mixes_delta_and_backlog),
		cmocka_unit_test(v61_deferred_work_is_per_memcg),
		cmocka_unit_test(v61_counts_the_calls_at_priority_3_and_below),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
