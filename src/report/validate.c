/*
 * validate.c - the model's prediction next to real measurements: the
 * table of `cachepressure validate` and its JSON (see validate.h).
 *
 * Every row is one quantity measured N times on the live kernel and
 * predicted once by the deterministic model. The statistics are those of
 * stats.c (exact integer sums, sample sd with n - 1); the model's error is
 * stated two ways: in real standard deviations (is the model inside the
 * run-to-run noise?) and in percent of the real mean (how far off in
 * absolute terms). No kernel mechanism is modelled here.
 *
 * Counter names: both sides use /proc/vmstat names for the reclaim
 * counters (pgscan_kswapd, pgscan_direct, slabs_scanned,
 * workingset_refault_file). Since 5.x mm/vmscan.c:shrink_inactive_list()
 * counts memcg limit reclaim in the global pgscan_kswapd/pgscan_direct
 * only when it is not cgroup reclaim, so in a memory cgroup both are 0 on
 * the live kernel; its pgscan_file counts every scan, and the row "pgscan
 * file (all reclaim)" compares it with the model's kswapd + direct +
 * memcg (cp_pgscan_memcg) scans. The objects left at the end differ: the
 * harness reads the whole machine's /proc/sys/fs/dentry-state and
 * inode-nr, so its row is the growth from the first sample to the end;
 * the model counts the objects its filesystem allocated minus those it
 * freed. The objects the superblock shrinker freed: the model's
 * cp_sb_objects_freed against what the harness's tracefs instance
 * summed from vmscan:mm_shrink_slab_end (harness/lib/sbtrace.h; real
 * runs before 2026-12-01 19:20 UTC lack it and the row is left out).
 */
#include "report/validate.h"
#include "report/jsonput.h"

#include <cachepressure/error.h>
#include <cjson/cJSON.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/bug.h"
#include "report/json.h"
#include "report/report.h"

int cp_validate_row_compute(struct cp_validate_row *row, const int64_t *real, size_t n,
			    int64_t model)
{
	struct cp_stats s;
	int rc = cp_stats_compute(real, n, &s);

	if (rc)
		return rc;
	row->real = s;
	row->model = model;
	row->has_z = cp_stats_z(model, &s, &row->z) == 0;
	row->has_pct = cp_stats_pct(model, &s, &row->pct) == 0;
	return 0;
}

/* ---- where each counter row's values come from ---------------------------- */

/* A value of one run: a counter, plus the counters in plus[] (each must
 * be there too), minus the first sample of a series column (series_col)
 * or minus another counter (minus), then in per mille of another counter
 * (per_mille_of, which must be above 0). Returns false when the run
 * lacks any of them. */
struct source {
	const char *counter;
	const char *minus;
	const char *series_col;
	const char *plus[2];
	const char *per_mille_of;
};

struct counter_row {
	const char *label;
	struct source model, real;
	const char *model_desc, *real_desc;
};

static const struct counter_row counter_rows[] = {
	{ "pgscan_kswapd", { .counter = "pgscan_kswapd" }, { .counter = "pgscan_kswapd" },
	  "pgscan_kswapd", "/proc/vmstat pgscan_kswapd (delta over the run)" },
	{ "pgscan_direct", { .counter = "pgscan_direct" }, { .counter = "pgscan_direct" },
	  "pgscan_direct", "/proc/vmstat pgscan_direct (delta)" },
	{ "pgscan file (all reclaim)",
	  { .counter = "pgscan_kswapd", .plus = { "pgscan_direct", "cp_pgscan_memcg" } },
	  { .counter = "pgscan_file" },
	  "pgscan_kswapd + pgscan_direct + cp_pgscan_memcg (limit reclaim)",
	  "/proc/vmstat pgscan_file (delta; 5.8+, counts memcg limit reclaim too)" },
	{ "allocstall", { .counter = "allocstall" },
	  { .counter = "allocstall_normal", .plus = { "allocstall_movable" } },
	  "allocstall (direct reclaim entries)",
	  "/proc/vmstat allocstall_normal + allocstall_movable (delta)" },
	{ "pgalloc_normal", { .counter = "pgalloc_normal" }, { .counter = "pgalloc_normal" },
	  "pgalloc_normal (pages the Normal zone gave, from the measured phase on)",
	  "/proc/vmstat pgalloc_normal (delta)" },
	{ "pgalloc_dma32", { .counter = "pgalloc_dma32" }, { .counter = "pgalloc_dma32" },
	  "pgalloc_dma32 (pages the DMA32 zone gave, from the measured phase on)",
	  "/proc/vmstat pgalloc_dma32 (delta)" },
	{ "compact_stall", { .counter = "compact_stall" }, { .counter = "compact_stall" },
	  "compact_stall (direct compaction runs, from the measured phase on)",
	  "/proc/vmstat compact_stall (delta)" },
	{ "compact_daemon_wake", { .counter = "compact_daemon_wake" },
	  { .counter = "compact_daemon_wake" }, "compact_daemon_wake (kcompactd runs)",
	  "/proc/vmstat compact_daemon_wake (delta)" },
	/* what compaction moved: the kernel's kcompactd makes DMA32's
	 * order-9 blocks in the pressure (docs/fidelity.md, session 43) */
	{ "pgmigrate_success", { .counter = "pgmigrate_success" },
	  { .counter = "pgmigrate_success" },
	  "pgmigrate_success (pages compaction migrated, from the measured phase on)",
	  "/proc/vmstat pgmigrate_success (delta)" },
	{ "kcompactd migrate scanned", { .counter = "compact_daemon_migrate_scanned" },
	  { .counter = "compact_daemon_migrate_scanned" },
	  "compact_daemon_migrate_scanned (pages kcompactd's migration scanner passed)",
	  "/proc/vmstat compact_daemon_migrate_scanned (delta)" },
	{ "pgdeactivate", { .counter = "pgdeactivate" }, { .counter = "pgdeactivate" },
	  "pgdeactivate", "/proc/vmstat pgdeactivate (delta)" },
	{ "kswapd runs", { .counter = "pageoutrun" }, { .counter = "pageoutrun" },
	  "pageoutrun (balance_pgdat() runs)", "/proc/vmstat pageoutrun (delta)" },
	{ "kswapd woken within its nap", { .counter = "kswapd_low_wmark_hit_quickly" },
	  { .counter = "kswapd_low_wmark_hit_quickly" },
	  "kswapd_low_wmark_hit_quickly (runs begun by a wake-up during kswapd's HZ/10 nap)",
	  "/proc/vmstat kswapd_low_wmark_hit_quickly (delta)" },
	{ "kswapd unbalanced after its nap", { .counter = "kswapd_high_wmark_hit_quickly" },
	  { .counter = "kswapd_high_wmark_hit_quickly" },
	  "kswapd_high_wmark_hit_quickly (runs begun unasked: the node unbalanced after the "
	  "nap, or at the end of a run)",
	  "/proc/vmstat kswapd_high_wmark_hit_quickly (delta)" },
	{ "kswapd CPU ns", { .counter = "cp_kswapd_cpu_ns" }, { .counter = "kswapd_cpu_ns" },
	  "cp_kswapd_cpu_ns (CPU time of kswapd's steps)",
	  "kswapd_cpu_ns: utime + stime of the kswapdN threads (/proc/PID/stat, delta)" },
	{ "kswapd run delay ns", { .counter = "cp_kswapd_run_delay_ns" },
	  { .counter = "kswapd_run_delay_ns" },
	  "cp_kswapd_run_delay_ns (kswapd's CPU work stretched by the CPUs' sharing: its steps' "
	  "wall time less their CPU time)",
	  "kswapd_run_delay_ns: run_delay of the kswapdN threads, runnable but waiting for a "
	  "CPU (/proc/PID/schedstat, delta; docs/fidelity.md session 25: 0.44 s against 0.56 s "
	  "on a CPU in a global 1G run)" },
	{ "kcompactd CPU ns", { .counter = "cp_kcompactd_cpu_ns" },
	  { .counter = "kcompactd_cpu_ns" },
	  "cp_kcompactd_cpu_ns (CPU time of kcompactd's steps: a page copy per page migrated, "
	  "scanning free)",
	  "kcompactd_cpu_ns: utime + stime of the kcompactdN threads (/proc/PID/stat, delta)" },
	{ "slabs_scanned", { .counter = "slabs_scanned" }, { .counter = "slabs_scanned" },
	  "slabs_scanned", "/proc/vmstat slabs_scanned (delta)" },
	{ "sb shrinker freed", { .counter = "cp_sb_objects_freed" },
	  { .counter = "sb_shrinker_freed" },
	  "cp_sb_objects_freed (what super_cache_scan returned)",
	  "sb_shrinker_freed: vmscan:mm_shrink_slab_end 'last shrinker return val' of "
	  "super_cache_scan, every superblock, in a tracefs instance of the run's own" },
	/* how deep reclaim went: a pass that reaches priority 0 scans the
	 * superblock's whole cache twice */
	{ "sb calls at prio <= 3", { .counter = "sb_deep_calls" }, { .counter = "sb_deep_calls" },
	  "sb_deep_calls (the superblock shrinker's do_shrink_slab() calls at priority <= 3)",
	  "sb_deep_calls: vmscan:mm_shrink_slab_start on super_cache_scan with priority <= 3, "
	  "in the run's tracefs instance" },
	{ "sb scan at prio <= 3", { .counter = "sb_deep_scan" }, { .counter = "sb_deep_scan" },
	  "sb_deep_scan (their total_scan, summed)", "sb_deep_scan: their total_scan, summed" },
	{ "memcg reclaims", { .counter = "cp_memcg_reclaims" }, { .counter = "memcg_reclaims" },
	  "cp_memcg_reclaims (try_to_free_mem_cgroup_pages entries)",
	  "memcg_reclaims: vmscan:mm_vmscan_memcg_reclaim_begin events, in the run's tracefs "
	  "instance" },
	{ "memcg reclaims with __GFP_FS", { .counter = "cp_memcg_reclaims_fs" },
	  { .counter = "memcg_reclaims_fs" },
	  "cp_memcg_reclaims_fs (those for a charge with __GFP_FS: fs_mark's dentries, ...)",
	  "memcg_reclaims_fs: those whose gfp_flags carry __GFP_FS" },
	/* each memcg reclaim's walk (sbtrace.h: begin to end on a task) */
	{ "memcg reclaimed pages", { .counter = "cp_pgsteal_memcg" },
	  { .counter = "memcg_reclaimed" }, "cp_pgsteal_memcg (pages memcg reclaim freed)",
	  "memcg_reclaimed: nr_reclaimed of vmscan:mm_vmscan_memcg_reclaim_end, summed" },
	{ "memcg reclaims done at prio 12", { .counter = "cp_memcg_reclaims_prio12" },
	  { .counter = "memcg_reclaims_prio12" },
	  "cp_memcg_reclaims_prio12 (those whose walk stopped at DEF_PRIORITY)",
	  "memcg_reclaims_prio12: those whose superblock calls, begin to end, were all at "
	  "priority 12" },
	{ "memcg reclaims reaching prio <= 3", { .counter = "cp_memcg_reclaims_deep" },
	  { .counter = "memcg_reclaims_deep" },
	  "cp_memcg_reclaims_deep (those whose walk reached priority 3)",
	  "memcg_reclaims_deep: those with a superblock call at priority <= 3" },
	{ "memcg reclaim restarts", { .counter = "cp_memcg_reclaim_restarts" },
	  { .counter = "memcg_reclaim_restarts" },
	  "cp_memcg_reclaim_restarts (walks that reclaimed nothing begun again with "
	  "force_deactivate)",
	  "memcg_reclaim_restarts: superblock calls at priority 12 after a lower one in the "
	  "same reclaim" },
	{ "memcg reclaimed, __GFP_FS", { .counter = "cp_memcg_reclaimed_fs" },
	  { .counter = "memcg_reclaimed_fs" },
	  "cp_memcg_reclaimed_fs (what the reclaims for __GFP_FS charges freed)",
	  "memcg_reclaimed_fs: the same for the reclaims whose gfp_flags carry __GFP_FS" },
	{ "memcg reclaims at 12, __GFP_FS", { .counter = "cp_memcg_reclaims_fs_prio12" },
	  { .counter = "memcg_reclaims_fs_prio12" }, "cp_memcg_reclaims_fs_prio12",
	  "memcg_reclaims_fs_prio12" },
	{ "memcg reclaims <= 3, __GFP_FS", { .counter = "cp_memcg_reclaims_fs_deep" },
	  { .counter = "memcg_reclaims_fs_deep" }, "cp_memcg_reclaims_fs_deep",
	  "memcg_reclaims_fs_deep" },
	{ "sb prio <= 3 with __GFP_FS", { .counter = "sb_deep_fs_calls" },
	  { .counter = "sb_deep_fs_calls" },
	  "sb_deep_fs_calls (those made for a request with __GFP_FS: the others free nothing)",
	  "sb_deep_fs_calls: those whose gfp_flags carry __GFP_FS (GFP_KERNEL, GFP_USER, ...)" },
	{ "workingset_refault_file",
	  { .counter = "workingset_refault_file" },
	  { .counter = "workingset_refault_file" },
	  "workingset_refault_file", "/proc/vmstat workingset_refault_file (delta)" },
	/* how the readers' misses are read back (filemap.c; sbtrace.h) */
	{ "readahead sync", { .counter = "ra_sync_calls" }, { .counter = "ra_sync_calls" },
	  "ra_sync_calls (readahead windows started by a missed page)",
	  "ra_sync_calls: readahead:page_cache_sync_ra on the readers' files, in the run's "
	  "tracefs instance" },
	{ "readahead async", { .counter = "ra_async_calls" }, { .counter = "ra_async_calls" },
	  "ra_async_calls (windows starting where the previous one ended: the model has no "
	  "PG_readahead marker)",
	  "ra_async_calls: readahead:page_cache_async_ra on the readers' files (PG_readahead "
	  "hits, including windows that found everything cached)" },
	{ "ra pages order 2-5", { .counter = "ra_pages_order_2to5" },
	  { .counter = "ra_pages_order_2to5" },
	  "ra_pages_order_2to5 (pages read in folios of order 2-5)",
	  "ra_pages_order_2to5: filemap:mm_filemap_add_to_page_cache of the readers' files, "
	  "2^order pages for order 1-5" },
	{ "ra pages order 6-9", { .counter = "ra_pages_order_6to9" },
	  { .counter = "ra_pages_order_6to9" },
	  "ra_pages_order_6to9 (pages read in folios of order 6-9)",
	  "ra_pages_order_6to9: the same, order 6 and more" },
	/* the device under the readers' misses and fs_mark's log: the
	 * real run's loop device (/sys/block/loopN/stat) against the
	 * model's block device (engine/blockdev.c) */
	{ "device read bytes", { .counter = "cp_device_read_bytes" },
	  { .counter = "device_read_bytes" },
	  "cp_device_read_bytes (what the readers, the walkers and the filesystem read)",
	  "device_read_bytes: the loop device's sectors read * 512 (/sys/block/loopN/stat, "
	  "delta)" },
	{ "device read requests", { .counter = "cp_device_read_requests" },
	  { .counter = "device_read_ios" },
	  "cp_device_read_requests (reads after splitting at max_request)",
	  "device_read_ios: the loop device's reads completed (delta)" },
	{ "device write bytes", { .counter = "cp_device_write_bytes" },
	  { .counter = "device_write_bytes" },
	  "cp_device_write_bytes (the log, metadata and data the model writes)",
	  "device_write_bytes: the loop device's sectors written * 512 (delta)" },
	{ "device busy ns", { .counter = "cp_device_busy_ns" }, { .counter = "device_busy_ns" },
	  "cp_device_busy_ns (time with a request in flight)",
	  "device_busy_ns: the loop device's io_ticks (ms with a request in flight) * 1e6 "
	  "(delta)" },
	/* the machine's speed on the day shows here first: the real runs'
	 * fs_mark varies with the VM's CPU, the model's follows the fs
	 * profile's create cost */
	{ "fs_mark ns", { .counter = "fs_mark_ns" }, { .counter = "fs_mark_ns" },
	  "fs_mark_ns (the fs_mark actors' run time: workers forked to the main process's exit)",
	  "fs_mark_ns (the fs_mark process's wall time, spawn to exit)" },
	/* fs_mark's CPU: how much of its run time it spent on a CPU (the
	 * rest waiting its turn beside the readers) */
	{ "fs_mark CPU ns", { .counter = "fs_mark_cpu_ns" }, { .counter = "fs_mark_cpu_ns" },
	  "fs_mark_cpu_ns (CPU time of the fs_mark workers' steps: the fs profile's create "
	  "cost, which also holds the log and loop work other threads do for a create, "
	  "about a tenth of it: scripts/measure-create-cost.sh)",
	  "fs_mark_cpu_ns (user + system time of fs_mark and its workers, from wait4())" },
	/* the CPUs fs_mark had while it ran: the kernel's load balancing
	 * leaves both workers beside one reader part of the time, the
	 * model's fluid shares evenly (docs/fidelity.md, sessions 37, 44) */
	{ "fs_mark CPUs per mille",
	  { .counter = "fs_mark_cpu_ns", .per_mille_of = "fs_mark_ns" },
	  { .counter = "fs_mark_cpu_ns", .per_mille_of = "fs_mark_ns" },
	  "fs_mark_cpu_ns * 1000 / fs_mark_ns (the CPUs its workers had on average)",
	  "fs_mark_cpu_ns * 1000 / fs_mark_ns (the CPUs fs_mark had on average)" },
	/* the page allocator's fallbacks to another migratetype's free
	 * blocks, and the claims among them (a pageblock retyped to the
	 * request's type): what raises the watermark boost */
	{ "fallbacks (extfrag)", { .counter = "cp_extfrag" }, { .counter = "extfrag" },
	  "cp_extfrag (every fallback to another migratetype's free block)",
	  "extfrag: kmem:mm_page_alloc_extfrag events, in the run's tracefs instance" },
	{ "fallback claims", { .counter = "extfrag_claim" }, { .counter = "extfrag_claim" },
	  "extfrag_claim (fallbacks after which the page's pageblock is of the request's type)",
	  "extfrag_claim: those with change_ownership=1" },
	{ "claims by movable", { .counter = "extfrag_claim_movable" },
	  { .counter = "extfrag_claim_movable" },
	  "extfrag_claim_movable (the claims of MOVABLE requests: page cache, anonymous memory)",
	  "extfrag_claim_movable: those with alloc_migratetype=1 too" },
	/* the Normal zone against its boosted watermarks (global
	 * confinement; report/zonewatch.h): below the boosted min an
	 * allocation reclaims directly */
	{ "Normal boosted per mille", { .counter = "normal_boosted_pm" },
	  { .counter = "normal_boosted_pm" },
	  "normal_boosted_pm (samples of the series, every 100 ms, with watermark_boost > 0)",
	  "normal_boosted_pm: /proc/zoneinfo Normal \"boost\" > 0, sampled every 20 ms" },
	{ "Normal boost mean pages", { .counter = "normal_boost_mean_pages" },
	  { .counter = "normal_boost_mean_pages" },
	  "normal_boost_mean_pages (the boost's mean over those samples)",
	  "normal_boost_mean_pages: the mean of \"boost\" over those samples" },
	{ "Normal at/below min per mille", { .counter = "normal_below_min_pm" },
	  { .counter = "normal_below_min_pm" },
	  "normal_below_min_pm (samples with free pages at or below min + boost)",
	  "normal_below_min_pm: \"pages free\" at or below \"min\" (min_wmark_pages: the boost "
	  "included)" },
	/* where the CPUs went: the readers beside fs_mark, and all of it
	 * (the kernel's threads and interrupts are in the real figure, the
	 * model has only its actors) */
	{ "readers CPU ns", { .counter = "readers_cpu_ns" }, { .counter = "readers_cpu_ns" },
	  "readers_cpu_ns (CPU work of the readers' steps, walkers' too)",
	  "readers_cpu_ns (user + system time of the readers and walkers, from wait4())" },
	{ "CPUs busy ns", { .counter = "cpu_busy_ns" }, { .counter = "cpu_busy_ns" },
	  "cpu_busy_ns (CPU work of every actor's steps over the measured phase)",
	  "cpu_busy_ns: user + nice + system + irq + softirq of /proc/stat's cpu line (delta)" },
	{ "dentries added",
	  { .counter = "cp_dentries_allocated", .minus = "cp_dentries_freed" },
	  { .counter = "nr_dentry_end", .series_col = "nr_dentry" },
	  "cp_dentries_allocated - cp_dentries_freed",
	  "nr_dentry_end - nr_dentry at the first sample (dentry-state, whole machine)" },
	/* inode-nr's nr_inodes is the VFS's count (get_nr_inodes):
	 * inode_init_always() adds, __destroy_inode() at eviction subtracts,
	 * so XFS's reclaimable inodes - evicted, their xfs_inode not yet
	 * freed - are not in it */
	{ "inodes added",
	  { .counter = "cp_inodes_init", .minus = "cp_inodes_evicted" },
	  { .counter = "nr_inodes_end", .series_col = "nr_inodes" },
	  "cp_inodes_init - cp_inodes_evicted (inode_init_always - __destroy_inode: "
	  "XFS's reclaimable inodes not counted, as in nr_inodes)",
	  "nr_inodes_end - nr_inodes at the first sample (inode-nr, whole machine)" },
};

static bool series_first(const struct cp_series *s, const char *col, int64_t *v)
{
	size_t c;

	if (s->nr_rows == 0)
		return false;
	for (c = 0; c < s->nr_columns; c++)
		if (strcmp(s->columns[c], col) == 0) {
			*v = s->values[c];
			return true;
		}
	return false;
}

static bool source_value(const struct cp_run_result *r, const struct source *src, int64_t *v)
{
	int64_t a = cp_run_result_counter(r, src->counter, INT64_MIN), b;

	size_t i;

	if (a == INT64_MIN)
		return false;
	for (i = 0; i < 2 && src->plus[i]; i++) {
		b = cp_run_result_counter(r, src->plus[i], INT64_MIN);
		if (b == INT64_MIN)
			return false;
		a += b;
	}
	if (src->minus) {
		b = cp_run_result_counter(r, src->minus, INT64_MIN);
		if (b == INT64_MIN)
			return false;
		a -= b;
	} else if (src->series_col) {
		if (!series_first(&r->series, src->series_col, &b))
			return false;
		a -= b;
	}
	if (src->per_mille_of) {
		b = cp_run_result_counter(r, src->per_mille_of, 0);
		if (b <= 0)
			return false;
		a = llround((double)a * 1000.0 / (double)b);
	}
	*v = a;
	return true;
}

/* ---- the table -------------------------------------------------------------- */

static const struct cp_reader_result *find_reader(const struct cp_run_result *r,
						  const char *path)
{
	size_t i;

	for (i = 0; i < r->nr_readers; i++)
		if (strcmp(r->readers[i].path, path) == 0)
			return &r->readers[i];
	return NULL;
}

static int64_t mean_rounded(long double sum, size_t n)
{
	return (int64_t)llroundl(sum / (long double)n);
}

static int copy_strs(struct cp_run_result *out, const struct cp_run_result *r)
{
	char *const *from[] = { &r->source, &r->policy, &r->kernel, &r->scenario, &r->confine,
				&r->failure };
	char **to[] = { &out->source, &out->policy, &out->kernel, &out->scenario, &out->confine,
			&out->failure };
	size_t i;

	for (i = 0; i < sizeof(from) / sizeof(from[0]); i++)
		if (*from[i] && cp_run_result_set_str(to[i], *from[i]))
			return -CP_ENOMEM;
	return 0;
}

int cp_validate_model_mean(struct cp_run_result *out, const struct cp_run_result *runs, size_t n)
{
	const struct cp_run_result *r0 = runs;
	long double dur = 0;
	size_t i, k, c;

	if (n == 0)
		return -CP_EINVAL;
	if (copy_strs(out, r0))
		return -CP_ENOMEM;
	out->mem_bytes = r0->mem_bytes;
	out->seed = r0->seed;
	for (k = 0; k < n; k++) {
		dur += runs[k].duration_ns;
		out->failed |= runs[k].failed;
	}
	out->duration_ns = (uint64_t)mean_rounded(dur, n);
	for (i = 0; i < r0->nr_readers; i++) {
		const struct cp_reader_result *src = &r0->readers[i];
		struct cp_reader_result *rd;
		long double sum = 0;

		if (cp_run_result_add_reader(out, src->path, &rd))
			return -CP_ENOMEM;
		for (k = 0; k < n; k++) {
			const struct cp_reader_result *o = find_reader(&runs[k], src->path);

			sum += o ? o->total_read_bytes : 0;
		}
		rd->total_read_bytes = (uint64_t)mean_rounded(sum, n);
	}
	for (k = 0; k < n; k++) /* every name any run reports, once */
		for (c = 0; c < runs[k].nr_counters; c++) {
			const char *name = runs[k].counters[c].name;
			long double sum = 0;
			size_t m = 0, j;

			if (cp_run_result_counter(out, name, INT64_MIN) != INT64_MIN)
				continue;
			for (j = 0; j < n; j++) {
				int64_t v = cp_run_result_counter(&runs[j], name, INT64_MIN);

				if (v != INT64_MIN) {
					sum += v;
					m++;
				}
			}
			if (cp_run_result_set_counter(out, name, mean_rounded(sum, m)))
				return -CP_ENOMEM;
		}
	return 0;
}

int cp_validate_paired_runs(size_t nr_real, unsigned seeds_per_run, size_t *nr_runs)
{
	if (seeds_per_run == 0)
		return -CP_EINVAL;
	if (nr_real > SIZE_MAX / seeds_per_run) {
		*nr_runs = SIZE_MAX;
		return -CP_ERANGE;
	}
	*nr_runs = nr_real * seeds_per_run;
	return *nr_runs > CP_VALIDATE_MAX_RUNS ? -CP_ERANGE : 0;
}

int64_t cp_validate_total_bytes(const struct cp_run_result *r)
{
	int64_t t = 0;
	size_t i;

	for (i = 0; i < r->nr_readers; i++)
		t += (int64_t)r->readers[i].total_read_bytes;
	return t;
}

static bool have_path(const struct cp_validate_table *t, const char *path)
{
	size_t i;

	for (i = 0; i < t->nr_rows; i++)
		if (strcmp(t->rows[i].name, path) == 0)
			return true;
	return false;
}

_Static_assert(sizeof(counter_rows) / sizeof(counter_rows[0]) <= CP_VALIDATE_MAX_COUNTER_ROWS,
	       "validate.h: CP_VALIDATE_MAX_COUNTER_ROWS is smaller than counter_rows[]");

/* The next row of the table: room for it is guaranteed (reader rows are
 * capped by the caller, every other row has its place in the bound). */
static struct cp_validate_row *new_row(struct cp_validate_table *t, enum cp_validate_kind kind,
				       const char *name)
{
	struct cp_validate_row *row;

	CP_BUG_ON(t->nr_rows >= CP_VALIDATE_MAX_ROWS);
	row = &t->rows[t->nr_rows];
	memset(row, 0, sizeof(*row));
	row->kind = kind;
	snprintf(row->name, sizeof(row->name), "%s", name);
	return row;
}

static int add_reader_row(struct cp_validate_table *t, const struct cp_run_result *model,
			  const struct cp_run_result *real, size_t nr_real, int64_t *v,
			  const char *path)
{
	const struct cp_reader_result *rd;
	struct cp_validate_row *row;
	size_t i, n = 0;

	if (have_path(t, path) || t->nr_rows >= CP_VALIDATE_MAX_READER_ROWS)
		return 0; /* SIMPLIFIED: more readers than reader rows are not shown */
	row = new_row(t, CP_VALIDATE_READER, path);
	for (i = 0; i < nr_real; i++) {
		if (real[i].failed)
			continue;
		rd = find_reader(&real[i], path);
		v[n++] = rd ? (int64_t)rd->total_read_bytes : 0;
	}
	rd = find_reader(model, path);
	if (cp_validate_row_compute(row, v, n, rd ? (int64_t)rd->total_read_bytes : 0))
		return -CP_EINVAL;
	t->nr_rows++;
	return 0;
}

/* The bytes re-read per second of fs_mark's run, or false when the run
 * has no fs_mark time. */
static bool rate_value(const struct cp_run_result *r, int64_t *v)
{
	int64_t ns = cp_run_result_counter(r, "fs_mark_ns", 0);

	if (ns <= 0)
		return false;
	*v = llround((double)cp_validate_total_bytes(r) * 1e9 / (double)ns);
	return true;
}

/* "re-read per fs_mark s": the readers' bytes over fs_mark's run time.
 * The re-reads happen while fs_mark creates, so a fs_mark slower on the
 * day re-reads more; the rate is the reclaim behaviour without the
 * create speed (docs/fidelity.md, session 15). */
static int add_rate_row(struct cp_validate_table *t, const struct cp_run_result *model,
			const struct cp_run_result *real, size_t nr_real, int64_t *v)
{
	struct cp_validate_row *row;
	int64_t m;
	size_t i, n = 0;

	if (!rate_value(model, &m))
		return 0;
	for (i = 0; i < nr_real; i++)
		if (!real[i].failed && rate_value(&real[i], &v[n]))
			n++;
	if (n == 0)
		return 0;
	row = new_row(t, CP_VALIDATE_COUNTER, "re-read B per fs_mark s");
	row->model_src = "the readers' bytes read from the device * 1e9 / fs_mark_ns";
	row->real_src = "the readers' bytes read from the device * 1e9 / fs_mark_ns";
	if (cp_validate_row_compute(row, v, n, m))
		return -CP_EINVAL;
	t->nr_rows++;
	return 0;
}

int cp_validate_table_build(const struct cp_run_result *model, const struct cp_run_result *real,
			    size_t nr_real, struct cp_validate_table *t, struct cp_diag *diag)
{
	int64_t *v;
	size_t i, k, n, nr_readers;
	int rc = 0;

	memset(t, 0, sizeof(*t));
	t->nr_real = nr_real;
	t->model_failed = model->failed != 0;
	for (i = 0; i < nr_real; i++)
		t->nr_real_failed += real[i].failed != 0;
	if (nr_real == 0 || t->nr_real_failed == nr_real)
		return cp_diag_set(diag, -CP_EINVAL, "validate: %s", nr_real == 0
				   ? "no real run to compare with"
				   : "every real run failed; nothing to compare with");
	v = cp_calloc(nr_real, sizeof(*v));
	if (!v)
		return cp_diag_set(diag, -CP_ENOMEM, "validate: out of memory");

	for (k = 0; !rc && k < model->nr_readers; k++)
		rc = add_reader_row(t, model, real, nr_real, v, model->readers[k].path);
	for (i = 0; !rc && i < nr_real; i++)
		for (k = 0; !rc && !real[i].failed && k < real[i].nr_readers; k++)
			rc = add_reader_row(t, model, real, nr_real, v, real[i].readers[k].path);
	nr_readers = t->nr_rows;
	if (!rc && nr_readers > 1) {
		struct cp_validate_row *row = new_row(t, CP_VALIDATE_TOTAL, "total");

		for (i = 0, n = 0; i < nr_real; i++)
			if (!real[i].failed)
				v[n++] = cp_validate_total_bytes(&real[i]);
		if (!(rc = cp_validate_row_compute(row, v, n, cp_validate_total_bytes(model))))
			t->nr_rows++;
	}
	if (!rc && nr_readers > 0)
		rc = add_rate_row(t, model, real, nr_real, v);
	for (k = 0; !rc && k < sizeof(counter_rows) / sizeof(counter_rows[0]); k++) {
		const struct counter_row *cr = &counter_rows[k];
		struct cp_validate_row *row;
		int64_t m;

		if (!source_value(model, &cr->model, &m))
			continue;
		for (i = 0, n = 0; i < nr_real; i++)
			if (!real[i].failed && source_value(&real[i], &cr->real, &v[n]))
				n++;
		if (n == 0)
			continue;
		row = new_row(t, CP_VALIDATE_COUNTER, cr->label);
		row->model_src = cr->model_desc;
		row->real_src = cr->real_desc;
		if (!(rc = cp_validate_row_compute(row, v, n, m)))
			t->nr_rows++;
	}
	cp_free(v);
	if (rc)
		memset(t, 0, sizeof(*t));
	return rc ? cp_diag_set(diag, rc, "validate: cannot build the table") : 0;
}

int cp_validate_table_fprint(FILE *out, const struct cp_validate_table *t)
{
	char mean[32], sd[32], z[32], pct[32];
	size_t i;
	int ok = 1;

	ok &= fprintf(out, "%-30s %5s %15s %15s %15s %15s %15s %9s %9s\n", "row", "n",
		      "real mean", "real min", "real max", "real sd", "model", "err/sd",
		      "err %") > 0;
	for (i = 0; i < t->nr_rows; i++) {
		const struct cp_validate_row *r = &t->rows[i];

		cp_stats_format(mean, sizeof(mean), r->real.mean, 0);
		if (r->real.n > 1)
			cp_stats_format(sd, sizeof(sd), r->real.sd, 0);
		else
			snprintf(sd, sizeof(sd), "-");
		if (r->has_z)
			cp_stats_format(z, sizeof(z), r->z, 2);
		else
			snprintf(z, sizeof(z), "n/a");
		if (r->has_pct)
			cp_stats_format(pct, sizeof(pct), r->pct, 1);
		else
			snprintf(pct, sizeof(pct), "n/a");
		ok &= fprintf(out, "%-30s %5zu %15s %15" PRId64 " %15" PRId64 " %15s %15" PRId64
			      " %9s %9s\n", r->name, r->real.n, mean, r->real.min, r->real.max,
			      sd, r->model, z, pct) > 0;
	}
	ok &= fprintf(out, "# err/sd = (model - real mean) / real sd; err %% = (model - real "
		      "mean) / real mean * 100; readers in bytes read from the device\n") > 0;
	for (i = 0; i < t->nr_rows; i++) {
		const struct cp_validate_row *r = &t->rows[i];

		if (r->kind == CP_VALIDATE_COUNTER &&
		    (strcmp(r->model_src, r->name) != 0 || strcmp(r->real_src, r->name) != 0))
			ok &= fprintf(out, "# %s: model %s; real %s\n", r->name, r->model_src,
				      r->real_src) > 0;
	}
	if (t->nr_real_failed)
		ok &= fprintf(out, "# %zu of %zu real runs failed and are not in the table\n",
			      t->nr_real_failed, t->nr_real) > 0;
	if (t->model_failed)
		ok &= fprintf(out, "# the model run failed (out of memory); its values are "
			      "those at the failure\n") > 0;
	return ok ? 0 : -CP_EIO;
}

/* ---- JSON ---------------------------------------------------------------------- */

static const char *kind_name(enum cp_validate_kind k)
{
	return k == CP_VALIDATE_READER ? "reader" : k == CP_VALIDATE_TOTAL ? "total" : "counter";
}

static bool add_row(cJSON *rows, const struct cp_validate_row *r)
{
	cJSON *o = cJSON_CreateObject();

	if (!o)
		return false;
	if (!cJSON_AddItemToArray(rows, o)) {
		cJSON_Delete(o);
		return false;
	}
	return cJSON_AddStringToObject(o, "name", r->name) &&
	       cJSON_AddStringToObject(o, "kind", kind_name(r->kind)) &&
	       cp_json_put_str(o, "model_source", r->model_src) &&
	       cp_json_put_str(o, "real_source", r->real_src) &&
	       cp_json_put_i64(o, "n", (int64_t)r->real.n) &&
	       cp_json_put_double(o, "mean", true, r->real.mean) && cp_json_put_i64(o, "min", r->real.min) &&
	       cp_json_put_i64(o, "max", r->real.max) && cp_json_put_double(o, "sd", r->real.n > 1, r->real.sd) &&
	       cp_json_put_i64(o, "model", r->model) &&
	       cp_json_put_double(o, "model_minus_mean_sd", r->has_z, r->z) &&
	       cp_json_put_double(o, "model_minus_mean_pct", r->has_pct, r->pct);
}

char *cp_validate_json_text(const struct cp_run_result *models, size_t nr_models,
			    const struct cp_run_result *real, size_t nr_real,
			    const struct cp_validate_table *t)
{
	const struct cp_run_result **runs = cp_calloc(nr_models + nr_real, sizeof(*runs));
	cJSON *root = NULL, *val, *rows;
	char *text = NULL;
	size_t i;

	if (!runs)
		return NULL;
	for (i = 0; i < nr_models; i++)
		runs[i] = &models[i];
	for (i = 0; i < nr_real; i++)
		runs[nr_models + i] = &real[i];
	root = cp_report_json_tree(runs, nr_models + nr_real);
	cp_free(runs);
	if (!root || !(val = cJSON_AddObjectToObject(root, "validate")) ||
	    !cp_json_put_i64(val, "real_runs", (int64_t)t->nr_real) ||
	    !cp_json_put_i64(val, "real_runs_failed", (int64_t)t->nr_real_failed) ||
	    !(rows = cJSON_AddArrayToObject(val, "rows")))
		goto out;
	for (i = 0; i < t->nr_rows; i++)
		if (!add_row(rows, &t->rows[i]))
			goto out;
	if (t->nr_phases) {
		cJSON *ph = cJSON_AddObjectToObject(val, "model_phases"), *tot, *sb;

		if (!ph || !cp_json_put_u64(ph, "first_seed", t->phase_seed) ||
		    !cJSON_AddBoolToObject(ph, "paired", t->phases_paired) ||
		    (t->phases_paired &&
		     !cp_json_put_u64(ph, "seeds_per_run", t->phase_seeds_per_run)) ||
		    !(tot = cJSON_AddArrayToObject(ph, "totals")) ||
		    !(sb = cJSON_AddArrayToObject(ph, "sb_freed")))
			goto out;
		for (i = 0; i < t->nr_phases && i < CP_VALIDATE_MAX_RUNS; i++)
			if (!cp_json_append_i64(tot, t->phase_totals[i]) ||
			    !cp_json_append_i64(sb, t->phase_sb_freed[i]))
				goto out;
	}
	text = cJSON_Print(root); /* through cp_malloc (json.c's hooks) */
out:
	cJSON_Delete(root);
	return text;
}

int cp_validate_json_write(const char *path, const struct cp_run_result *models,
			   size_t nr_models, const struct cp_run_result *real, size_t nr_real,
			   const struct cp_validate_table *t, struct cp_diag *diag)
{
	return cp_json_write_text(path, cp_validate_json_text(models, nr_models, real, nr_real, t),
				  diag);
}

const char *cp_validate_kernel_profile_for(const char *release)
{
	char *end;
	unsigned long major, minor;

	if (!release || *release < '0' || *release > '9')
		return NULL;
	major = strtoul(release, &end, 10);
	if (*end != '.' || end[1] < '0' || end[1] > '9')
		return NULL;
	minor = strtoul(end + 1, NULL, 10);
	if (major < 4 || (major == 4 && minor < 16))
		return "linux-4.11";
	if (major < 6 || (major == 6 && minor < 16))
		return "linux-6.1";
	return "linux-6.x";
}
