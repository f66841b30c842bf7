/*
 * test_startfree.c - the real harness's start_free counters to the
 * model's start layout: the mean over the runs that carry all 33,
 * rounded to the nearest block.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <cachepressure/result.h>

#include "report/startfree.h"

static void set_all(struct cp_run_result *r, int64_t base)
{
	char name[64];
	unsigned t, o;

	for (t = 0; t < CP_MIGRATE_TYPES; t++)
		for (o = 0; o < CP_BUDDY_MAX_ORDER; o++) {
			cp_start_free_counter_name(t, o, name, sizeof(name));
			assert_int_equal(cp_run_result_set_counter(r, name, base + t * 100 + o), 0);
		}
}

static void counter_names_follow_the_harness(void **state)
{
	char name[64];

	(void)state;
	cp_start_free_counter_name(CP_MIGRATE_RECLAIMABLE, 10, name, sizeof(name));
	assert_string_equal(name, "start_free_reclaimable_order_10");
	cp_start_free_counter_name(CP_MIGRATE_UNMOVABLE, 0, name, sizeof(name));
	assert_string_equal(name, "start_free_unmovable_order_0");
}

/* Two complete runs (base 10 and 13: mean base 11.5 -> 12 after
 * rounding half up), one run missing a counter (left out). */
static void mean_of_complete_runs_rounded(void **state)
{
	struct cp_run_result runs[3];
	struct cp_mem_start_free sf;
	unsigned i;

	(void)state;
	for (i = 0; i < 3; i++)
		cp_run_result_init(&runs[i]);
	set_all(&runs[0], 10);
	set_all(&runs[1], 13);
	assert_int_equal(cp_run_result_set_counter(&runs[2], "start_free_movable_order_3", 999), 0);
	assert_int_equal(cp_start_free_from_runs(runs, 3, &sf), 2);
	assert_int_equal(sf.blocks[CP_MIGRATE_UNMOVABLE][0], 12);
	assert_int_equal(sf.blocks[CP_MIGRATE_MOVABLE][3], 12 + 100 + 3);
	assert_int_equal(sf.blocks[CP_MIGRATE_RECLAIMABLE][10], 12 + 200 + 10);
	for (i = 0; i < 3; i++)
		cp_run_result_release(&runs[i]);
}

static void no_run_with_counters_gives_nothing(void **state)
{
	struct cp_run_result r;
	struct cp_mem_start_free sf = { .blocks = { { 7 } } };

	(void)state;
	cp_run_result_init(&r);
	assert_int_equal(cp_start_free_from_runs(&r, 1, &sf), 0);
	assert_int_equal(sf.blocks[0][0], 7); /* untouched */
	cp_run_result_release(&r);
}

/* Per-zone counters: start_free_<zone>_<type>_order_<o> for DMA32 and
 * Normal (base 1 and 2, + type * 100 + order) and the zones' managed
 * pages; DMA's absent (0). One run: the means are the values. */
static void set_zones(struct cp_run_result *r)
{
	char name[64];
	unsigned z, t, o;

	for (z = CP_ZONE_DMA32; z <= CP_ZONE_NORMAL; z++) {
		cp_zone_managed_counter_name(z, name, sizeof(name));
		assert_int_equal(cp_run_result_set_counter(r, name, z == CP_ZONE_DMA32 ? 772915
										 : 5394266), 0);
		for (t = 0; t < CP_MIGRATE_TYPES; t++)
			for (o = 0; o < CP_BUDDY_MAX_ORDER; o++) {
				cp_start_free_zone_counter_name(z, t, o, name, sizeof(name));
				assert_int_equal(cp_run_result_set_counter(r, name,
									   (int64_t)z + t * 100 + o),
						 0);
			}
	}
}

static void per_zone_counters_give_per_zone_layout(void **state)
{
	struct cp_run_result r;
	struct cp_mem_start_free sf;
	char name[64];

	(void)state;
	cp_start_free_zone_counter_name(CP_ZONE_DMA32, CP_MIGRATE_MOVABLE, 3, name, sizeof(name));
	assert_string_equal(name, "start_free_dma32_movable_order_3");
	cp_zone_managed_counter_name(CP_ZONE_NORMAL, name, sizeof(name));
	assert_string_equal(name, "zone_normal_managed_pages");
	cp_run_result_init(&r);
	set_all(&r, 10);
	set_zones(&r);
	assert_int_equal(cp_start_free_from_runs(&r, 1, &sf), 1);
	assert_true(sf.has_zones);
	assert_int_equal(sf.zone_managed_pages[CP_ZONE_DMA32], 772915);
	assert_int_equal(sf.zone_managed_pages[CP_ZONE_NORMAL], 5394266);
	assert_int_equal(sf.zone_managed_pages[CP_ZONE_DMA], 0);
	assert_int_equal(sf.zone_blocks[CP_ZONE_DMA32][CP_MIGRATE_MOVABLE][3], 1 + 100 + 3);
	assert_int_equal(sf.zone_blocks[CP_ZONE_NORMAL][CP_MIGRATE_UNMOVABLE][10], 2 + 10);
	cp_run_result_release(&r);
}

/* A run with only the summed counters (older harness): no zones. */
static void summed_counters_only_give_one_zone(void **state)
{
	struct cp_run_result r;
	struct cp_mem_start_free sf;

	(void)state;
	cp_run_result_init(&r);
	set_all(&r, 10);
	assert_int_equal(cp_start_free_from_runs(&r, 1, &sf), 1);
	assert_false(sf.has_zones);
	assert_false(sf.zone_free_measured);
	cp_run_result_release(&r);
}

/* The start_pageblocks counters of DMA32 and Normal: two runs, Normal
 * RECLAIMABLE 87 and 90 -> mean 88.5, rounded half up to 89. */
static void set_pageblocks(struct cp_run_result *r, int64_t normal_reclaimable)
{
	char name[64];
	unsigned z, t;

	for (z = CP_ZONE_DMA32; z <= CP_ZONE_NORMAL; z++)
		for (t = 0; t < CP_MIGRATE_TYPES; t++) {
			cp_pageblocks_counter_name("start", z, t, name, sizeof(name));
			assert_int_equal(cp_run_result_set_counter(r, name, 5 + z * 10 + t), 0);
		}
	assert_int_equal(cp_run_result_set_counter(r, "start_pageblocks_normal_reclaimable",
						   normal_reclaimable),
			 0);
}

/* The zone's watermark boost when the measured phase starts: one name
 * for the real harness (/proc/zoneinfo "boost") and the model. */
static void measured_boost_counter_names_the_zone(void **state)
{
	char name[64];

	(void)state;
	cp_measured_boost_counter_name(CP_ZONE_NORMAL, name, sizeof(name));
	assert_string_equal(name, "measured_boost_normal_pages");
	cp_measured_boost_counter_name(CP_ZONE_DMA32, name, sizeof(name));
	assert_string_equal(name, "measured_boost_dma32_pages");
}

/* The free blocks at the readers' start by order, named as the harness
 * writes them (harness/lib/sample.c measured_free()). */
static void measured_free_order_counter_names_zone_type_order(void **state)
{
	char name[64];

	(void)state;
	cp_measured_free_order_counter_name(CP_ZONE_NORMAL, CP_MIGRATE_RECLAIMABLE, 2, name,
					    sizeof(name));
	assert_string_equal(name, "measured_free_normal_reclaimable_order_2");
	cp_measured_free_order_counter_name(CP_ZONE_DMA32, CP_MIGRATE_MOVABLE, 10, name,
					    sizeof(name));
	assert_string_equal(name, "measured_free_dma32_movable_order_10");
}

static void pageblock_counters_give_each_zones_pageblocks(void **state)
{
	struct cp_run_result runs[2];
	struct cp_mem_start_free sf;
	char name[64];
	unsigned i;

	(void)state;
	cp_pageblocks_counter_name("measured", CP_ZONE_DMA32, CP_MIGRATE_UNMOVABLE, name,
				   sizeof(name));
	assert_string_equal(name, "measured_pageblocks_dma32_unmovable");
	for (i = 0; i < 2; i++) {
		cp_run_result_init(&runs[i]);
		set_all(&runs[i], 10);
		set_zones(&runs[i]);
		set_pageblocks(&runs[i], i ? 90 : 87);
	}
	assert_int_equal(cp_start_free_from_runs(runs, 2, &sf), 2);
	assert_true(sf.has_pageblocks);
	assert_int_equal(sf.zone_pageblocks[CP_ZONE_NORMAL][CP_MIGRATE_RECLAIMABLE], 89);
	assert_int_equal(sf.zone_pageblocks[CP_ZONE_DMA32][CP_MIGRATE_MOVABLE], 5 + 10 + 1);
	assert_int_equal(sf.zone_pageblocks[CP_ZONE_DMA][CP_MIGRATE_MOVABLE], 0);
	for (i = 0; i < 2; i++)
		cp_run_result_release(&runs[i]);
}

/* One of the runs without them (a harness before they were recorded):
 * no pageblocks, the per-zone layout still. */
static void pageblocks_need_every_run(void **state)
{
	struct cp_run_result runs[2];
	struct cp_mem_start_free sf;
	unsigned i;

	(void)state;
	for (i = 0; i < 2; i++) {
		cp_run_result_init(&runs[i]);
		set_all(&runs[i], 10);
		set_zones(&runs[i]);
	}
	set_pageblocks(&runs[0], 87);
	assert_int_equal(cp_start_free_from_runs(runs, 2, &sf), 2);
	assert_true(sf.has_zones);
	assert_false(sf.has_pageblocks);
	for (i = 0; i < 2; i++)
		cp_run_result_release(&runs[i]);
}

/* The per-CPU lists at the start (start_pcp_<zone>_pages), which the
 * model adds to the measured free memory: two runs with Normal 372 and
 * 785 -> mean 578.5, rounded half up to 579; one run without the DMA32
 * counter counts 0 there: (0 + 621) / 2 -> 311 (310.5 rounded up). A
 * per-zone start is whole: zone_free_measured. */
static void start_pcp_pages_are_the_runs_mean(void **state)
{
	struct cp_run_result runs[2];
	struct cp_mem_start_free sf;
	char name[64];
	size_t i;

	(void)state;
	for (i = 0; i < 2; i++) {
		cp_run_result_init(&runs[i]);
		set_all(&runs[i], 10);
		set_zones(&runs[i]);
		cp_pcp_counter_name("start", CP_ZONE_NORMAL, name, sizeof(name));
		assert_int_equal(cp_run_result_set_counter(&runs[i], name, i ? 785 : 372), 0);
	}
	cp_pcp_counter_name("start", CP_ZONE_DMA32, name, sizeof(name));
	assert_string_equal(name, "start_pcp_dma32_pages");
	assert_int_equal(cp_run_result_set_counter(&runs[1], name, 621), 0);
	assert_int_equal(cp_start_free_from_runs(runs, 2, &sf), 2);
	assert_true(sf.zone_free_measured);
	assert_int_equal(sf.zone_pcp_pages[CP_ZONE_NORMAL], 579);
	assert_int_equal(sf.zone_pcp_pages[CP_ZONE_DMA32], 311);
	for (i = 0; i < 2; i++)
		cp_run_result_release(&runs[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(counter_names_follow_the_harness),
		cmocka_unit_test(mean_of_complete_runs_rounded),
		cmocka_unit_test(no_run_with_counters_gives_nothing),
		cmocka_unit_test(per_zone_counters_give_per_zone_layout),
		cmocka_unit_test(summed_counters_only_give_one_zone),
		cmocka_unit_test(measured_boost_counter_names_the_zone),
		cmocka_unit_test(measured_free_order_counter_names_zone_type_order),
		cmocka_unit_test(pageblock_counters_give_each_zones_pageblocks),
		cmocka_unit_test(pageblocks_need_every_run),
		cmocka_unit_test(start_pcp_pages_are_the_runs_mean),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
