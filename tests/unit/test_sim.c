/*
 * test_sim.c - whole runs of small scenarios: the workloads' accounting
 * (read-file's per-pass bytes, fs_mark's files and directories),
 * determinism, and the two confinement regimes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>
#include <string.h>

#include <cachepressure/error.h>
#include <cachepressure/result.h>

#include "engine/machine.h"
#include "model/fs_profile.h"
#include "scenario/scenario.h"
#include "sim/sim.h"

#define MACHINE CP_SOURCE_DIR "/tests/data/machine-test.ini"

/* 256 MiB machine-test box; a 16 MiB file that is NOT cached at start;
 * fs_mark: 2 dirs, 1500 files per loop, 3 loops, -D 10 -N 100. */
static const char *const scenario_text =
	"[scenario]\nname = t\nram = 256M\nfs = xfs\nmount = /mnt/t\nseed = 7\n"
	"[file f]\npath = /mnt/t/f\nsize = 16M\ncached = no\n"
	"[reader f]\nfile = f\nread_size = 1M\nstop_with = mark\n"
	"[creator mark]\ndirs = /mnt/t/a, /mnt/t/b\nfiles_per_loop = 1500\nloops = 3\n"
	"file_size = 0\nsync = 0\nsubdirs = 10\nfiles_per_subdir = 100\nname_len = 40\n";

struct rig {
	struct cp_scenario *sc;
	struct cp_machine m;
	struct cp_sim_config cfg;
	struct cp_run_result res;
};

/* The rig set up for a run, not yet run (a test may change the machine
 * first). */
static void rig_load(struct rig *g, const char *text, enum cp_ref_policy policy,
		     enum cp_confine confine, const char *kernel, const char *fs)
{
	struct cp_diag d = { { 0 } };

	memset(g, 0, sizeof(*g));
	assert_int_equal(cp_scenario_load_string(text, "test", &g->sc, &d), 0);
	assert_int_equal(cp_machine_load(MACHINE, &g->m, &d), 0);
	g->cfg.scenario = g->sc;
	g->cfg.machine = &g->m;
	g->cfg.kernel = cp_kernel_profile_find(kernel);
	g->cfg.fs = cp_fs_profile_find(fs);
	assert_non_null(g->cfg.kernel);
	assert_non_null(g->cfg.fs);
	g->cfg.fs_costs.create_cpu_ns = 20000;
	g->cfg.fs_costs.mkdir_lookup_ns = 1000;
	g->cfg.fs_costs.stat_cpu_ns = 2000;
	g->cfg.fs_costs.inode_read_ns = 10000;
	g->cfg.policy = policy;
	g->cfg.confine = confine;
	g->cfg.seed = 7;
	cp_run_result_init(&g->res);
}

static void rig_start(struct rig *g)
{
	struct cp_diag d = { { 0 } };

	assert_int_equal(cp_sim_run(&g->cfg, &g->res, &d), 0);
}

static void rig_run_on(struct rig *g, const char *text, enum cp_ref_policy policy,
		       enum cp_confine confine, const char *kernel, const char *fs)
{
	rig_load(g, text, policy, confine, kernel, fs);
	rig_start(g);
}

static void rig_run(struct rig *g, const char *text, enum cp_ref_policy policy,
		    enum cp_confine confine)
{
	rig_run_on(g, text, policy, confine, "linux-4.11", "xfs");
}

static void rig_free(struct rig *g)
{
	cp_run_result_release(&g->res);
	cp_scenario_destroy(g->sc);
}

/* read-file counts, per completed pass, the bytes its reads sent to the
 * device: the first pass over an uncached 16 MiB file reads all of it
 * (16777216 bytes), later passes find it cached (it fits) and read 0;
 * the total is the sum; pass ends are in time order. */
static void reader_counts_device_bytes_per_completed_pass(void **state)
{
	struct rig g;
	const struct cp_reader_result *rd;
	size_t i;

	(void)state;
	rig_run(&g, scenario_text, CP_POLICY_PATCHED, CP_CONFINE_GLOBAL);
	assert_false(g.res.failed);
	assert_int_equal(g.res.nr_readers, 1);
	rd = &g.res.readers[0];
	assert_true(rd->nr_passes >= 2);
	assert_int_equal(rd->passes[0].read_bytes, 16777216);
	for (i = 1; i < rd->nr_passes; i++) {
		assert_int_equal(rd->passes[i].read_bytes, 0);
		assert_true(rd->passes[i].end_ns > rd->passes[i - 1].end_ns);
	}
	assert_int_equal(rd->total_read_bytes, 16777216);
	rig_free(&g);
}

/* The device's counters are the loop device's /sys/block/loopN/stat
 * deltas (engine/blockdev.c): the 16 MiB the reader reads go out in
 * requests of at most max_request (128 KiB: at least 128 of them), and
 * the device is busy at least their transfer at read_bandwidth (1000M:
 * 1000 MiB/s, 16 ms for 16 MiB) plus one request's latency (20 us), and
 * at most the run's time. */
static void device_counters_are_requests_and_busy_time(void **state)
{
	struct rig g;
	int64_t bytes, rq, busy;

	(void)state;
	rig_run(&g, scenario_text, CP_POLICY_PATCHED, CP_CONFINE_GLOBAL);
	assert_false(g.res.failed);
	bytes = cp_run_result_counter(&g.res, "cp_device_read_bytes", -1);
	rq = cp_run_result_counter(&g.res, "cp_device_read_requests", -1);
	busy = cp_run_result_counter(&g.res, "cp_device_busy_ns", -1);
	assert_true(bytes >= 16777216);
	assert_true(rq >= bytes / (128 * 1024));
	assert_true(busy >= bytes * 1000 / 1048576 + 20000); /* 1000 MiB/s: 1.048576 B/ns */
	assert_true((uint64_t)busy <= g.res.duration_ns);
	assert_true(cp_run_result_counter(&g.res, "cp_device_write_requests", -1) >= 0);
	rig_free(&g);
}

/* fs_mark -d a -d b -n 1500 -L 3 -D 10 -N 100: each worker makes 4500
 * files, moving to the next subdirectory every 100 files, so it uses all
 * 10 subdirectories: inodes = 2 x 10 subdirs + 2 x 4500 files = 20 +
 * 9000 = 9020. The root, the data file and the -d directories (made as
 * the model sets fs_mark up) are older: the counters count from the
 * measured phase on (the data file written), as the real harness's
 * /proc/vmstat deltas do. */
static void fsmark_creates_files_and_subdirectories(void **state)
{
	struct rig g;

	(void)state;
	rig_run(&g, scenario_text, CP_POLICY_PATCHED, CP_CONFINE_GLOBAL);
	assert_int_equal(cp_run_result_counter(&g.res, "cp_inodes_allocated", -1), 9020);
	rig_free(&g);
}

/* fs_mark's workers fill their names[] tables (fs_mark.h struct
 * name_entry, 208 B a file) as they create: each loop a worker faults in
 * ceil(1500 x 208 / 4096) = ceil(76.2) = 77 pages, 2 workers x 3 loops =
 * 462 faults; each worker's exit frees its table, so the processes hold
 * only the machine profile's static memory at the end (machine-test.ini
 * process = 16M: 4096 pages). */
static void fsmark_workers_fault_in_and_free_their_names(void **state)
{
	struct rig g;

	(void)state;
	rig_run(&g, scenario_text, CP_POLICY_PATCHED, CP_CONFINE_GLOBAL);
	assert_int_equal(cp_run_result_counter(&g.res, "cp_fsmark_names_faults", -1), 462);
	assert_int_equal(cp_run_result_counter(&g.res, "cp_end_process_pages", -1), 4096);
	rig_free(&g);
}

/* fs_mark's run time, files and rate under the real harness's names: 2
 * workers x 1500 files x 3 loops = 9000 files; the run time covers at
 * least their create CPU work spread over the box's 2 CPUs, 9000 x
 * 20 000 ns / 2 = 90 ms; the rate is files over that time. */
static void fsmark_run_time_and_rate_as_the_harness_reports_them(void **state)
{
	struct rig g;
	int64_t ns, files;

	(void)state;
	rig_run(&g, scenario_text, CP_POLICY_PATCHED, CP_CONFINE_GLOBAL);
	files = cp_run_result_counter(&g.res, "fs_mark_files", -1);
	ns = cp_run_result_counter(&g.res, "fs_mark_ns", -1);
	assert_int_equal(files, 9000);
	assert_true(ns >= 90000000);
	assert_int_equal(cp_run_result_counter(&g.res, "fs_mark_files_per_sec", -1),
			 files * 1000000000 / ns);
	rig_free(&g);
}

/* fs_mark's CPU time as wait4() gives the real harness (its workers'):
 * every create costs the fs profile's create_cpu_ns (20 000 ns) and
 * more for its allocations, so at least 9000 x 20 000 ns = 180 ms; and
 * each of the 2 workers runs on at most one CPU at a time, so at most 2
 * x fs_mark_ns. */
static void fsmark_cpu_time_is_its_workers(void **state)
{
	struct rig g;
	int64_t cpu, ns;

	(void)state;
	rig_run(&g, scenario_text, CP_POLICY_PATCHED, CP_CONFINE_GLOBAL);
	cpu = cp_run_result_counter(&g.res, "fs_mark_cpu_ns", -1);
	ns = cp_run_result_counter(&g.res, "fs_mark_ns", -1);
	assert_true(cpu >= 9000LL * 20000);
	assert_true(cpu <= 2 * ns);
	rig_free(&g);
}

/* A machine profile's calibrated xfs_create_ns reaches fs_mark's creates:
 * each of the 9 000 costs 40 000 - 1 000 (the lookup, charged apart) +
 * 1 000 ns at least, so its workers' CPU is at least 9 000 x 40 000 ns -
 * twice what the rig's create_cpu_ns of 20 000 would give. */
static void fsmark_creates_cost_the_machines_calibrated_xfs_create(void **state)
{
	struct rig g;

	(void)state;
	rig_load(&g, scenario_text, CP_POLICY_PATCHED, CP_CONFINE_GLOBAL, "linux-4.11", "xfs");
	g.m.xfs_create_ns = 40000;
	rig_start(&g);
	assert_true(cp_run_result_counter(&g.res, "fs_mark_cpu_ns", -1) >= 9000LL * 40000);
	rig_free(&g);
}

/* The calibrated create's kworker part (xfs_create_kworker_ns) leaves
 * fs_mark for a kworker: of 40 000 ns a create, 10 000 run in the
 * kworker, so fs_mark's workers are charged 30 000 a file and less than
 * 40 000 (their allocations add a little), and the CPUs' busy time holds
 * the kworker's 9 000 x 10 000 ns beside the readers' and fs_mark's. */
static void the_creates_kworker_part_runs_outside_fs_mark(void **state)
{
	struct rig g;
	int64_t fsm, busy, readers;

	(void)state;
	rig_load(&g, scenario_text, CP_POLICY_PATCHED, CP_CONFINE_GLOBAL, "linux-4.11", "xfs");
	g.m.xfs_create_ns = 40000;
	g.m.xfs_create_kworker_ns = 10000;
	rig_start(&g);
	fsm = cp_run_result_counter(&g.res, "fs_mark_cpu_ns", -1);
	busy = cp_run_result_counter(&g.res, "cpu_busy_ns", -1);
	readers = cp_run_result_counter(&g.res, "readers_cpu_ns", -1);
	assert_true(fsm >= 9000LL * 30000);
	assert_true(fsm < 9000LL * 40000);
	assert_true(busy - readers - fsm >= 9000LL * 10000);
	rig_free(&g);
}

/* /proc/pagetypeinfo's view when the measured phase starts: the free
 * pages by zone and migratetype (measured_free_*) are the free lists of
 * that moment, so over the zones and types they add up to the free blocks
 * of /proc/buddyinfo then (buddyinfo_start_order_N, 2^N pages each), and
 * their part in blocks of order 8 or more (measured_free_*_order8_pages)
 * to buddyinfo's orders 8..10; and
 * pgalloc_* count from that moment on, so a file that is not cached at
 * the start is in them: its 16 MiB (4096 pages) at least. */
static void measured_free_adds_up_to_buddyinfo_start(void **state)
{
	static const char *const names[] = {
		"measured_free_normal_unmovable_pages", "measured_free_normal_movable_pages",
		"measured_free_normal_reclaimable_pages", "measured_free_dma32_unmovable_pages",
		"measured_free_dma32_movable_pages", "measured_free_dma32_reclaimable_pages",
	};
	struct rig g;
	int64_t by_type = 0, by_order = 0, half_by_type = 0, half_by_order = 0;
	size_t i;

	(void)state;
	rig_run_on(&g, scenario_text, CP_POLICY_PATCHED, CP_CONFINE_GLOBAL, "linux-6.x", "xfs");
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char half[64];
		int64_t v = cp_run_result_counter(&g.res, names[i], 0), h;

		/* "..._pages" -> "..._order8_pages" */
		snprintf(half, sizeof(half), "%.*s_order8_pages",
			 (int)(strlen(names[i]) - strlen("_pages")), names[i]);
		h = cp_run_result_counter(&g.res, half, v ? -1 : 0);
		assert_true(v >= 0);
		assert_true(h >= 0 && h <= v);
		by_type += v;
		half_by_type += h;
	}
	for (i = 0; i < 11; i++) {
		char name[48];
		int64_t pages;

		snprintf(name, sizeof(name), "buddyinfo_start_order_%zu", i);
		pages = cp_run_result_counter(&g.res, name, -1) << i;
		by_order += pages;
		if (i >= 8)
			half_by_order += pages;
	}
	assert_true(by_type > 0);
	assert_int_equal(by_type, by_order);
	assert_int_equal(half_by_type, half_by_order);
	assert_true(cp_run_result_counter(&g.res, "pgalloc_normal", 0) +
			    cp_run_result_counter(&g.res, "pgalloc_dma32", 0) >=
		    4096);
	rig_free(&g);
}

/* /proc/pagetypeinfo and /proc/buddyinfo count the same free blocks, the
 * one by zone and pageblock type, the other by zone alone: at the
 * measured phase's start the measured_free_*_order_N blocks of every
 * zone and type add up, order by order, to buddyinfo_start_order_N. */
static void measured_free_orders_add_up_to_buddyinfo_start(void **state)
{
	static const char *const zones[] = { "normal", "dma32" };
	static const char *const types[] = { "unmovable", "movable", "reclaimable" };
	struct rig g;
	int64_t all = 0;
	size_t z, t, o;

	(void)state;
	rig_run_on(&g, scenario_text, CP_POLICY_PATCHED, CP_CONFINE_GLOBAL, "linux-6.x", "xfs");
	for (o = 0; o < 11; o++) {
		char name[64];
		int64_t sum = 0, buddy;

		for (z = 0; z < 2; z++) {
			for (t = 0; t < 3; t++) {
				int64_t blocks;

				snprintf(name, sizeof(name), "measured_free_%s_%s_order_%zu", zones[z],
					 types[t], o);
				blocks = cp_run_result_counter(&g.res, name, 0);
				assert_true(blocks >= 0);
				sum += blocks;
			}
		}
		snprintf(name, sizeof(name), "buddyinfo_start_order_%zu", o);
		buddy = cp_run_result_counter(&g.res, name, -1);
		assert_int_equal(sum, buddy);
		all += sum;
	}
	assert_true(all > 0);
	rig_free(&g);
}

/* Same scenario, same seed: the same result, pass for pass. */
static void runs_are_deterministic(void **state)
{
	struct rig a, b;
	size_t i;

	(void)state;
	rig_run(&a, scenario_text, CP_POLICY_LEGACY, CP_CONFINE_GLOBAL);
	rig_run(&b, scenario_text, CP_POLICY_LEGACY, CP_CONFINE_GLOBAL);
	assert_int_equal(a.res.nr_counters, b.res.nr_counters);
	for (i = 0; i < a.res.nr_counters; i++)
		assert_int_equal(a.res.counters[i].value, b.res.counters[i].value);
	assert_int_equal(a.res.readers[0].nr_passes, b.res.readers[0].nr_passes);
	for (i = 0; i < a.res.readers[0].nr_passes; i++)
		assert_int_equal(a.res.readers[0].passes[i].end_ns,
				 b.res.readers[0].passes[i].end_ns);
	assert_int_equal(a.res.series.nr_rows, b.res.series.nr_rows);
	assert_memory_equal(a.res.series.values, b.res.series.values,
			    a.res.series.nr_rows * a.res.series.nr_columns * sizeof(int64_t));
	rig_free(&a);
	rig_free(&b);
}

/* A 24 MiB memcg around a 16 MiB file and 9000 files' metadata: limit
 * reclaim in the charging tasks (cp_pgscan_memcg), no kswapd, and the
 * global pgscan counters stay 0 as in the kernel's /proc/vmstat. */
static void memcg_confinement_reclaims_in_the_memcg(void **state)
{
	struct rig g;
	char text[2048];

	(void)state;
	snprintf(text, sizeof(text), "%s", scenario_text);
	memcpy(strstr(text, "ram = 256M"), "ram =  24M", 10);
	rig_run(&g, text, CP_POLICY_PATCHED, CP_CONFINE_MEMCG);
	assert_false(g.res.failed);
	assert_true(cp_run_result_counter(&g.res, "cp_pgscan_memcg", 0) > 0);
	assert_int_equal(cp_run_result_counter(&g.res, "pgscan_kswapd", -1), 0);
	assert_int_equal(cp_run_result_counter(&g.res, "pgscan_direct", -1), 0);
	rig_free(&g);
}

/* The result header says what ran. */
static void result_names_policy_kernel_and_confinement(void **state)
{
	struct rig g;

	(void)state;
	rig_run(&g, scenario_text, CP_POLICY_LEGACY, CP_CONFINE_GLOBAL);
	assert_string_equal(g.res.source, "model");
	assert_string_equal(g.res.policy, "legacy");
	assert_string_equal(g.res.kernel, "linux-4.11");
	assert_string_equal(g.res.confine, "global");
	assert_string_equal(g.res.scenario, "t");
	assert_int_equal(g.res.mem_bytes, 256 << 20);
	assert_true(g.res.series.nr_rows > 1);
	rig_free(&g);
}

/* read-dir after fs_mark, with memory to spare: every stat() finds its
 * dentry (the files' dentries are still cached), so no inode is read
 * (icache misses 0) and the walker makes whole passes over the 500
 * entries; the streamer (cat of a 64 MiB sparse file) makes exactly one
 * pass and, the file being a hole, reads nothing from the device. */
static void walker_and_streamer_accounting(void **state)
{
	static const char *const text =
		"[scenario]\nname = w\nram = 256M\nfs = xfs\nmount = /mnt/t\nseed = 3\n"
		"[file s]\npath = /mnt/t/s\nsize = 64M\ncached = no\nsparse = yes\n"
		"[creator mark]\ndirs = /mnt/t/a\nfiles_per_loop = 500\nloops = 1\n"
		"file_size = 0\nsync = 0\nsubdirs = 0\nname_len = 40\n"
		"[walker dir]\nroot = /mnt/t/a\nstart_after = mark\nstop_with = cat\n"
		"[streamer cat]\nfile = s\nread_size = 128K\nstart_after = mark\n";
	struct rig g;

	(void)state;
	rig_run(&g, text, CP_POLICY_PATCHED, CP_CONFINE_GLOBAL);
	assert_false(g.res.failed);
	assert_int_equal(cp_run_result_counter(&g.res, "cp_walker_dir_icache_misses", -1), 0);
	assert_true(cp_run_result_counter(&g.res, "cp_walker_dir_passes", -1) > 0);
	assert_int_equal(cp_run_result_counter(&g.res, "cp_device_read_bytes", -1), 0);
	/* 64 MiB of sparse pages went through the page cache: 16384 pages */
	assert_true(cp_run_result_counter(&g.res, "cp_pages_accessed", 0) >= 16384);
	rig_free(&g);
}

/* Large-folio readahead is decided per run: XFS mappings have
 * mapping_set_large_folios on 6.1 (fs/xfs/xfs_icache.c xfs_inode_alloc),
 * so the reader's uncached 16 MiB file is read in folios (the first
 * window alone is 32 pages of order-2 folios at read_ahead_kb 128);
 * ext4 on 6.1 and XFS on 4.11 read order-0 pages only. */
/* random_phase (sim.c reader_phase_ns): a reader starts after a seeded
 * delay uniform in [0, one cached pass) = [0, 16 MiB / copy_bandwidth
 * 1 GiB/s = 15 625 000 ns). Alone with a cached file its passes are
 * otherwise the same, so every pass end moves by that delay; the same
 * seed gives the same delay, another seed another one. */
static uint64_t first_pass_end(const char *random_phase, uint64_t seed)
{
	char text[512];
	struct rig g;
	uint64_t end;

	snprintf(text, sizeof(text),
		 "[scenario]\nname = t\nram = 256M\nfs = xfs\nmount = /mnt/t\n"
		 "time_limit = 100ms\n[file f]\npath = /mnt/t/f\nsize = 16M\ncached = yes\n"
		 "[reader f]\nfile = f\nrandom_phase = %s\n", random_phase);
	memset(&g, 0, sizeof(g));
	{
		struct cp_diag d = { { 0 } };

		assert_int_equal(cp_scenario_load_string(text, "test", &g.sc, &d), 0);
		assert_int_equal(cp_machine_load(MACHINE, &g.m, &d), 0);
		g.cfg.scenario = g.sc;
		g.cfg.machine = &g.m;
		g.cfg.kernel = cp_kernel_profile_find("linux-6.x");
		g.cfg.fs = cp_fs_profile_find("xfs");
		g.cfg.policy = CP_POLICY_PATCHED;
		g.cfg.confine = CP_CONFINE_GLOBAL;
		g.cfg.seed = seed;
		cp_run_result_init(&g.res);
		assert_int_equal(cp_sim_run(&g.cfg, &g.res, &d), 0);
	}
	assert_int_equal(g.res.nr_readers, 1);
	assert_true(g.res.readers[0].nr_passes >= 2);
	end = g.res.readers[0].passes[0].end_ns;
	rig_free(&g);
	return end;
}

static void random_phase_delays_a_reader_within_one_pass(void **state)
{
	uint64_t aligned = first_pass_end("no", 7), a7 = first_pass_end("yes", 7);
	uint64_t again = first_pass_end("yes", 7), a8 = first_pass_end("yes", 8);

	(void)state;
	assert_int_equal(first_pass_end("no", 8), aligned); /* no key: the seed does nothing */
	assert_true(a7 >= aligned && a7 - aligned < 15625000);
	assert_true(a8 >= aligned && a8 - aligned < 15625000);
	assert_int_equal(again, a7);
	assert_true(a8 != a7);
}

static void large_folio_readahead_only_for_xfs_on_6_1(void **state)
{
	struct rig g;

	(void)state;
	rig_run_on(&g, scenario_text, CP_POLICY_PATCHED, CP_CONFINE_GLOBAL, "linux-6.1", "xfs");
	assert_false(g.res.failed);
	assert_true(cp_run_result_counter(&g.res, "cp_ra_folio_alloc", 0) >= 8);
	assert_true(cp_run_result_counter(&g.res, "cp_ra_folio_pages", 0) >= 32);
	rig_free(&g);
	rig_run_on(&g, scenario_text, CP_POLICY_PATCHED, CP_CONFINE_GLOBAL, "linux-6.1", "ext4");
	assert_false(g.res.failed);
	assert_int_equal(cp_run_result_counter(&g.res, "cp_ra_folio_alloc", -1), 0);
	assert_int_equal(cp_run_result_counter(&g.res, "cp_ra_folio_fail", -1), 0);
	rig_free(&g);
	rig_run_on(&g, scenario_text, CP_POLICY_PATCHED, CP_CONFINE_GLOBAL, "linux-4.11", "xfs");
	assert_false(g.res.failed);
	assert_int_equal(cp_run_result_counter(&g.res, "cp_ra_folio_alloc", -1), 0);
	assert_int_equal(cp_run_result_counter(&g.res, "cp_ra_folio_fail", -1), 0);
	rig_free(&g);
}

/* A cached data file is written before the measured phase, on the
 * engine's clock (the harness's dd child, then syncfs): its 4096 pages
 * (16 MiB) are allocated in the set-up (setup_pgalloc_*), the
 * measured phase's counters hold only fs_mark's 9000 inodes, all the
 * file's pages fit (nothing read back), the
 * reader's first pass finds them cached (0 bytes from the device), and
 * the results' times count from the measured phase's start. */
static void cached_file_is_written_before_the_measured_phase(void **state)
{
	static const char *const text =
		"[scenario]\nname = t\nram = 256M\nfs = xfs\nmount = /mnt/t\nseed = 7\n"
		"[file f]\npath = /mnt/t/f\nsize = 16M\ncached = yes\n"
		"[reader f]\nfile = f\nread_size = 1M\nstop_with = mark\n"
		"[creator mark]\ndirs = /mnt/t/a\nfiles_per_loop = 3000\nloops = 3\n"
		"file_size = 0\nsync = 0\nsubdirs = 0\nname_len = 40\n";
	struct rig g;
	int64_t setup, measured;

	(void)state;
	rig_run(&g, text, CP_POLICY_PATCHED, CP_CONFINE_GLOBAL);
	assert_false(g.res.failed);
	setup = cp_run_result_counter(&g.res, "setup_pgalloc_normal", 0) +
		cp_run_result_counter(&g.res, "setup_pgalloc_dma32", 0);
	measured = cp_run_result_counter(&g.res, "cp_inodes_allocated", -1);
	assert_true(setup >= 4096);
	assert_int_equal(measured, 3 * 3000); /* fs_mark's files only */
	assert_int_equal(cp_run_result_counter(&g.res, "cp_setup_refetched_bytes", -1), 0);
	/* nothing to read back: the measured phase follows the writers */
	assert_int_equal(cp_run_result_counter(&g.res, "cp_setup_refetch_ns", -1), 0);
	assert_true(g.res.readers[0].nr_passes >= 1);
	assert_int_equal(g.res.readers[0].passes[0].read_bytes, 0);
	assert_int_equal(g.res.series.values[0], 0);
	rig_free(&g);
}

/* A data file with cached = no is written in the set-up all the same and
 * then dropped, as the harness does (every file written by a dd child;
 * after syncfs, POSIX_FADV_DONTNEED for the uncached ones): its 4096
 * pages (16 MiB) are allocated in the set-up (setup_pgalloc_*), nothing
 * is read back (the harness reads back cached files only), and the
 * drop - invalidate_mapping_pages(), which leaves no shadow entries -
 * leaves the reader's first pass to read all 16 MiB from the device
 * without one refault (workingset_refault_file 0: no shadow to find). */
static void uncached_file_is_written_then_dropped(void **state)
{
	struct rig g;
	int64_t setup;

	(void)state;
	rig_run(&g, scenario_text, CP_POLICY_PATCHED, CP_CONFINE_GLOBAL);
	assert_false(g.res.failed);
	setup = cp_run_result_counter(&g.res, "setup_pgalloc_normal", 0) +
		cp_run_result_counter(&g.res, "setup_pgalloc_dma32", 0);
	assert_true(setup >= 4096);
	assert_int_equal(cp_run_result_counter(&g.res, "cp_setup_refetched_bytes", -1), 0);
	assert_true(g.res.readers[0].nr_passes >= 1);
	assert_int_equal(g.res.readers[0].passes[0].read_bytes, 16777216);
	assert_int_equal(cp_run_result_counter(&g.res, "workingset_refault_file", -1), 0);
	rig_free(&g);
}

/* A 960 MiB cached file in a 1 GiB box (linux-6.x, xfs): reclaim takes
 * some of it while it is written, and the set-up reads that back. */
static const char *const refetch_scenario =
		"[scenario]\nname = t\nram = 1G\nfs = xfs\nmount = /mnt/t\nseed = 7\n"
		"[file f]\npath = /mnt/t/f\nsize = 960M\ncached = yes\n"
		"[reader f]\nfile = f\nread_size = 1M\nstop_with = mark\n"
		"[creator mark]\ndirs = /mnt/t/a\nfiles_per_loop = 1000\nloops = 1\n"
		"file_size = 0\nsync = 0\nsubdirs = 0\nname_len = 40\n";

/* The harness reads back what reclaim took while the cached files were
 * written (harness/lib/resident.c): mincore() once a round, then pread()
 * of the runs that were missing, 1 MiB at most, on one descriptor, so
 * one readahead state sees them: the first read is a sync miss (order 0
 * on 6.17+), its window brings in pages the snapshot still calls
 * missing, the next pread() finds them cached and the following window
 * is asynchronous, ra->order climbing by 2 (page_cache_async_ra ->
 * page_cache_ra_order), capped by ilog2 of the window: with
 * read_ahead_kb 2560 (640 pages, the 6.18 machine's loop device) it
 * reaches folios of order 6 within three windows. A 960 MiB file written
 * into the 1 GiB box (linux-6.x, xfs) loses its first pages to reclaim
 * and is read back so: the set-up's readahead puts pages in folios of
 * order 6 - 9. (Each run read as a fresh sync miss, as before session
 * 19, never gets past order 2: 0 such pages.) */
static void setup_refetch_ramps_the_readahead_order(void **state)
{
	struct rig g;

	(void)state;
	rig_load(&g, refetch_scenario, CP_POLICY_PATCHED, CP_CONFINE_GLOBAL, "linux-6.x", "xfs");
	g.m.read_ahead_kb = 2560;
	rig_start(&g);
	assert_false(g.res.failed);
	assert_true(cp_run_result_counter(&g.res, "cp_setup_refetched_bytes", -1) > 0);
	assert_true(cp_run_result_counter(&g.res, "setup_ra_pages_order_6to9", 0) > 0);
	rig_free(&g);
}

/* The read-back runs on the engine's clock (refetcher.c): each pread()
 * waits for its device reads, and the model's device has one channel
 * that moves read_bandwidth bytes a second (blockdev.c submit_one), so
 * reading back B bytes, each missing page read once, takes at least
 * B / read_bandwidth; the measured phase starts after it. */
static void setup_refetch_takes_device_time(void **state)
{
	struct rig g;
	int64_t bytes, ns;

	(void)state;
	rig_load(&g, refetch_scenario, CP_POLICY_PATCHED, CP_CONFINE_GLOBAL, "linux-6.x", "xfs");
	rig_start(&g);
	assert_false(g.res.failed);
	bytes = cp_run_result_counter(&g.res, "cp_setup_refetched_bytes", -1);
	ns = cp_run_result_counter(&g.res, "cp_setup_refetch_ns", -1);
	assert_true(bytes > 0);
	assert_true((double)ns >= (double)bytes * 1e9 / (double)g.m.read_bandwidth_bps);
	rig_free(&g);
}

/* balance_dirty_pages() (page_writeback.c): a 512 MiB cached file
 * written in a 1 GiB box (machine-test: copy 1 GiB/s, device writes 500
 * MiB/s). The dirty setpoint is (3 x 20 % + 10 %) / 4 = 17.5 % of the
 * dirtyable memory, at most 179.2 MiB of the 1 GiB, so the writers wait
 * for the device to write at least 512 - 179.2 = 332.8 MiB before their
 * last write(): 0.666 s at least, where copying alone takes 0.5 s. */
static void setup_writes_wait_for_the_device_past_the_dirty_setpoint(void **state)
{
	static const char *const text =
		"[scenario]\nname = t\nram = 1G\nfs = xfs\nmount = /mnt/t\nseed = 7\n"
		"[file f]\npath = /mnt/t/f\nsize = 512M\ncached = yes\n"
		"[reader f]\nfile = f\nread_size = 1M\nstop_with = mark\n"
		"[creator mark]\ndirs = /mnt/t/a\nfiles_per_loop = 1000\nloops = 1\n"
		"file_size = 0\nsync = 0\nsubdirs = 0\nname_len = 40\n";
	struct rig g;
	double paced;

	(void)state;
	rig_run_on(&g, text, CP_POLICY_PATCHED, CP_CONFINE_GLOBAL, "linux-6.x", "xfs");
	assert_false(g.res.failed);
	paced = (512.0 - 0.175 * 1024.0) * 1048576.0 * 1e9 / (double)g.m.write_bandwidth_bps;
	assert_true((double)cp_run_result_counter(&g.res, "cp_setup_write_ns", -1) >= paced);
	rig_free(&g);
}

/* A 16 MiB file is below the freerun ceiling of a 256 MiB box (15 % of
 * its dirtyable memory, over 30 MiB): its writer never waits, and its
 * write()s take their copies' time, less than the device's 16 MiB / 500
 * MiB/s = 32 ms. */
static void setup_writes_below_the_freerun_are_not_paced(void **state)
{
	struct rig g;
	int64_t ns;

	(void)state;
	rig_run(&g, scenario_text, CP_POLICY_PATCHED, CP_CONFINE_GLOBAL);
	assert_false(g.res.failed);
	ns = cp_run_result_counter(&g.res, "cp_setup_write_ns", -1);
	assert_true(ns > 0);
	assert_true((double)ns < 16.0 * 1048576.0 * 1e9 / (double)g.m.write_bandwidth_bps);
	rig_free(&g);
}

/* With the machine's buffered_write_bandwidth (calibrate's timing of a
 * new file's buffered writes) a write() costs its bytes at that rate: the
 * 16 MiB file of a 256 MiB box (below the freerun: never paced) at 100
 * MiB/s takes 0.16 s of its writer's CPU, 16 steps of 10 ms. */
static void setup_writes_cost_the_calibrated_write_rate(void **state)
{
	struct rig g;
	int64_t ns;

	(void)state;
	rig_load(&g, scenario_text, CP_POLICY_PATCHED, CP_CONFINE_GLOBAL, "linux-4.11", "xfs");
	g.m.buffered_write_bandwidth_bps = 100ULL << 20;
	rig_start(&g);
	assert_false(g.res.failed);
	ns = cp_run_result_counter(&g.res, "cp_setup_write_ns", -1);
	assert_true(ns >= 160000000);
	assert_true(ns < 170000000);
	rig_free(&g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reader_counts_device_bytes_per_completed_pass),
		cmocka_unit_test(device_counters_are_requests_and_busy_time),
		cmocka_unit_test(fsmark_creates_files_and_subdirectories),
		cmocka_unit_test(fsmark_workers_fault_in_and_free_their_names),
		cmocka_unit_test(runs_are_deterministic),
		cmocka_unit_test(fsmark_run_time_and_rate_as_the_harness_reports_them),
		cmocka_unit_test(fsmark_cpu_time_is_its_workers),
		cmocka_unit_test(fsmark_creates_cost_the_machines_calibrated_xfs_create),
		cmocka_unit_test(the_creates_kworker_part_runs_outside_fs_mark),
		cmocka_unit_test(measured_free_adds_up_to_buddyinfo_start),
		cmocka_unit_test(measured_free_orders_add_up_to_buddyinfo_start),
		cmocka_unit_test(memcg_confinement_reclaims_in_the_memcg),
		cmocka_unit_test(result_names_policy_kernel_and_confinement),
		cmocka_unit_test(walker_and_streamer_accounting),
		cmocka_unit_test(large_folio_readahead_only_for_xfs_on_6_1),
		cmocka_unit_test(random_phase_delays_a_reader_within_one_pass),
		cmocka_unit_test(cached_file_is_written_before_the_measured_phase),
		cmocka_unit_test(uncached_file_is_written_then_dropped),
		cmocka_unit_test(setup_refetch_ramps_the_readahead_order),
		cmocka_unit_test(setup_refetch_takes_device_time),
		cmocka_unit_test(setup_writes_wait_for_the_device_past_the_dirty_setpoint),
		cmocka_unit_test(setup_writes_below_the_freerun_are_not_paced),
		cmocka_unit_test(setup_writes_cost_the_calibrated_write_rate),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
