/*
 * sample.h - what the real harness records while a run measures: a time
 * series (run.c: every 100 ms, every second in memcg mode) of the
 * cgroup's memory.stat in memcg mode or /proc/meminfo in global mode,
 * plus dentry/inode counts and two /proc/vmstat counters, and counter
 * deltas over the measured phase with /proc/vmstat names.
 */
#ifndef CP_SAMPLE_H
#define CP_SAMPLE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "cgroup.h"
#include "kfile.h"
#include "model/fs_profile.h" /* enum cp_fs_kind */
#include "opts.h"
#include "report/zonewatch.h"

struct cp_run_result;
struct cp_diag;

/* The kernel threads whose CPU time a run reports: kswapdN, kcompactdN. */
enum { CP_KTHREAD_KSWAPD, CP_KTHREAD_KCOMPACTD, CP_NR_KTHREADS };

#define CP_SAMPLER_MAX_READERS 64

/* A block device's I/O so far (cp_block_stat_parse). */
struct cp_block_stat {
	uint64_t read_ios, read_sectors, write_ios, write_sectors;
	uint64_t io_ticks_ms; /* time with at least one request in flight */
};

struct cp_sampler {
	enum cp_confine confine;
	const struct cp_cgroup *cg;   /* memcg mode: the run's cgroup */
	char xfs_stats[128];          /* /sys/fs/xfs/<dev>/stats/stats, or "" */
	struct cp_kv vm0;             /* /proc/vmstat at begin */
	struct cp_kv memcg0;          /* memory.stat at begin (memcg mode) */
	uint64_t ig0[7];              /* XFS "ig" line at begin */
	bool have_ig;
	char block_stat[128];         /* /sys/block/<dev>/stat, or "" */
	struct cp_block_stat dev0;    /* its numbers at begin */
	bool have_dev;
	/* the kswapd and the kcompactd threads' utime + stime at begin */
	uint64_t kthread_ticks0[CP_NR_KTHREADS];
	bool have_kthread_cpu[CP_NR_KTHREADS];
	/* ... and their run_delay (/proc/PID/schedstat) at begin */
	uint64_t kthread_delay0[CP_NR_KTHREADS];
	bool have_kthread_delay[CP_NR_KTHREADS];
	uint64_t busy_ticks0;         /* the CPUs' busy time at begin (/proc/stat) */
	bool have_busy;
	uint64_t t0_ns;               /* monotonic time of t_ns = 0 */
	/* global confinement: the Normal zone against its boosted min,
	 * every CP_ZONEWATCH_REAL_NS (report/zonewatch.h); next_zw_ns 0:
	 * no watch */
	struct cp_zonewatch zw;
	uint64_t next_zw_ns;
	/* the readers (and walkers) whose CPU time the series samples */
	pid_t readers[CP_SAMPLER_MAX_READERS];
	size_t nr_readers;
};

/* A reader the series' readers_cpu_ns column follows (the first
 * CP_SAMPLER_MAX_READERS). */
void cp_sampler_add_reader(struct cp_sampler *s, pid_t pid);

/* The columns of the time series for a mode (first is "t_ns"). */
const char *const *cp_sampler_columns(enum cp_confine confine, int cgroup_version, size_t *nr);

/* Defines r's series columns and takes the start snapshots. loopdev is
 * "/dev/loopN" (for the XFS statistics and the device's I/O) or NULL. */
int cp_sampler_begin(struct cp_sampler *s, enum cp_confine confine, const struct cp_cgroup *cg,
		     const char *loopdev, uint64_t t0_ns, struct cp_run_result *r,
		     struct cp_diag *diag);

/* The zone watch's next sample is due at the returned time (0: no
 * watch: memcg confinement, or /proc/zoneinfo lacked the fields). When
 * now_ns has reached it, cp_sampler_watch_zone() takes the sample. */
uint64_t cp_sampler_zonewatch_due(const struct cp_sampler *s);
void cp_sampler_watch_zone(struct cp_sampler *s, uint64_t now_ns);

/* Normal's (or zone's) "pages free", "boost" and "min" of a
 * /proc/zoneinfo text: min is min_wmark_pages(), the boost included.
 * 0, or -CP_ENOENT when a field is missing (kernels before 5.0 print no
 * boost). */
int cp_zoneinfo_watermarks(const char *text, const char *zone, uint64_t *free_pages,
			   uint64_t *boost, uint64_t *boosted_min);

/* Appends one row for time now_ns. */
int cp_sampler_sample(struct cp_sampler *s, uint64_t now_ns, struct cp_run_result *r,
		      struct cp_diag *diag);

/* Sets the counters of r: deltas since begin of the vmstat counters named
 * nr_slab_reclaimable, slabs_scanned, kswapd_inodesteal, pginodesteal,
 * pageoutrun, pgpgin, drop_slab and every pgscan_*, pgsteal_*,
 * workingset_*, allocstall_*; memcg_* deltas of the cgroup's event
 * counters; xfs_ig_* (XFS inode cache lookups: xfs_ig_missed is the
 * icache misses); kswapd_cpu_ns, the CPU time (utime + stime of
 * /proc/PID/stat) every kswapdN thread used during the run;
 * kcompactd_cpu_ns, the same of the kcompactdN threads;
 * kswapd_run_delay_ns and kcompactd_run_delay_ns, the time those threads
 * waited for a CPU while runnable (cp_proc_schedstat_run_delay);
 * cpu_busy_ns, the time all CPUs were busy (cp_proc_stat_busy_ticks);
 * device_read_bytes, device_write_bytes, device_read_ios,
 * device_write_ios and device_busy_ns, the run's loop device's I/O
 * (cp_block_stat_parse; io_ticks for the busy time);
 * the zone watch's counters (cp_zonewatch_counters) when it sampled;
 * and end
 * values nr_dentry_end, nr_inodes_end, nr_slab_reclaimable_end (pages). */
int cp_sampler_end(struct cp_sampler *s, struct cp_run_result *r, struct cp_diag *diag);

/* utime + stime (fields 14 and 15, clock ticks) of a /proc/PID/stat
 * line, counting fields after the comm's last ')'. Returns 0 or
 * -CP_EINVAL. */
int cp_proc_stat_cpu_ticks(const char *stat, uint64_t *ticks);

/* The time a task waited on a runqueue, runnable but not running
 * (run_delay, the second of /proc/PID/schedstat's three numbers:
 * on-CPU ns, run_delay ns, timeslices; kernel/sched/stats.c
 * show_schedstat), in ns. Returns 0 or -CP_EINVAL. */
int cp_proc_schedstat_run_delay(const char *schedstat, uint64_t *ns);

/* The busy time of all CPUs in /proc/stat's first ("cpu ") line, in clock
 * ticks: user + nice + system + irq + softirq (guest time is inside user;
 * idle, iowait and steal are not work this machine did). Returns 0 or
 * -CP_EINVAL. */
int cp_proc_stat_busy_ticks(const char *proc_stat, uint64_t *ticks);

/* The same read from /proc/stat now, in ns (ticks of USER_HZ): the
 * difference of two calls is the CPU time the machine was busy between
 * them. Returns 0, or the error of reading /proc/stat. */
int cp_proc_busy_ns(uint64_t *ns);

void cp_sampler_release(struct cp_sampler *s);

/* XFS "ig" statistics line: attempts found frecycle missed dup reclaims
 * attrchg. Returns 0 or -CP_ENOENT. */
int cp_xfs_ig_parse(const char *text, uint64_t ig[7]);

/* /sys/block/<dev>/stat (Documentation/block/stat.rst, block/genhd.c
 * part_stat_show): read I/Os, read merges, read sectors, read ticks,
 * write I/Os, write merges, write sectors, write ticks, in_flight,
 * io_ticks (ms with at least one request in flight), time_in_queue, ...;
 * sectors are 512 bytes whatever the device's. Returns 0, or -CP_EINVAL
 * when the first ten numbers are not there. */
int cp_block_stat_parse(const char *text, struct cp_block_stat *st);

/* /proc/buddyinfo (mm/vmstat.c frag_show): one line per zone, "Node N,
 * zone NAME" and the free blocks of order 0..10. out[o] gets the sum over
 * every zone (the model has one zone for the whole machine). Returns 0,
 * or -CP_ENOENT when no zone line parses. */
int cp_buddyinfo_parse(const char *text, uint64_t out[11]);

/* /proc/pagetypeinfo (mm/vmstat.c pagetypeinfo_showfree): the free
 * blocks of order 0..10 by migratetype. out[t][o] gets the sum over every
 * zone for t = 0 Unmovable, 1 Movable, 2 Reclaimable (the model's
 * enum cp_migratetype order); HighAtomic, CMA and Isolate lines are left
 * out (ordinary allocations do not use them). Returns 0, or -CP_ENOENT
 * when no line of the three types parses. */
int cp_pagetypeinfo_parse(const char *text, uint64_t out[3][11]);

/* The same for the lines of one zone (its name as the file spells it:
 * "DMA", "DMA32", "Normal"); NULL: every zone, as cp_pagetypeinfo_parse.
 * Returns 0, or -CP_ENOENT when no line of that zone parses. */
int cp_pagetypeinfo_parse_zone(const char *text, const char *zone, uint64_t out[3][11]);

/* The zone's row of the "Number of blocks type" table of
 * /proc/pagetypeinfo: its pageblocks of type Unmovable, Movable and
 * Reclaimable in out[0..2]; -CP_ENOENT when the table or the zone is not
 * there. */
int cp_pagetypeinfo_parse_pageblocks(const char *text, const char *zone, uint64_t out[3]);

/* /proc/zoneinfo (mm/vmstat.c zoneinfo_show_print): the "managed" pages
 * of the named zone. Returns 0, or -CP_ENOENT when the zone or its
 * managed line is missing. */
int cp_zoneinfo_managed(const char *text, const char *zone, uint64_t *pages);

/* The first number after `field`, the first word of a line in the zone's
 * block of /proc/zoneinfo ("nr_zone_active_file", "managed", ...);
 * -CP_ENOENT when the zone or the field is not there. */
int cp_zoneinfo_field(const char *text, const char *zone, const char *field, uint64_t *v);

/* The pages on the zone's per-CPU lists: the sum of its pagesets'
 * "count:" lines (one per CPU). Free pages /proc/pagetypeinfo and
 * NR_FREE_PAGES do not show: with 6.7+ pcp high auto-tuning they can be
 * thousands. -CP_ENOENT when the zone has no pageset. */
int cp_zoneinfo_pcp_pages(const char *text, const char *zone, uint64_t *pages);

/* The same summed over every zone of node 0 that has pagesets. */
uint64_t cp_zoneinfo_pcp_pages_all(const char *text);

/* One cache's line of /proc/slabinfo 2.1 (mm/slab_common.c
 * cache_show(): "<name> <active_objs> <num_objs> <objsize> <objperslab>
 * <pagesperslab> : tunables ..."). */
struct cp_slabinfo {
	uint64_t object_size, objects_per_slab, pages_per_slab;
};

/* The line of the cache named exactly name. Returns 0, -CP_ENOENT (no
 * such cache) or -CP_EINVAL (its line does not parse, or gives 0 for a
 * field). */
int cp_slabinfo_parse(const char *text, const char *name, struct cp_slabinfo *out);

/* Records, from /proc/slabinfo, the geometry of the caches the model's
 * filesystem profile names for fs (model/fs_profile.c: "dentry",
 * "xfs_inode" or "ext4_inode_cache", "xfs_ili") as counters
 * cp_slab_<role>_object_size, cp_slab_<role>_objects_per_slab and
 * cp_slab_<role>_pages_per_slab (role dentry, inode, log_item), so that
 * validate can give the model the running kernel's objects. An unreadable
 * file (not root) or a missing cache records nothing for it. */
int cp_sampler_record_slabs(struct cp_run_result *r, enum cp_fs_kind fs, struct cp_diag *diag);

/* Records the free blocks of /proc/pagetypeinfo as counters
 * start_free_<type>_order_<o> (type unmovable, movable, reclaimable;
 * summed over the zones) and per zone as
 * start_free_<zone>_<type>_order_<o> (zone dma, dma32, normal), with each
 * zone's managed pages from /proc/zoneinfo as zone_<zone>_managed_pages:
 * the machine's free memory as the run's set-up starts (after the
 * balloon, before dd), which the model can start from (cachepressure run
 * --start-free). No file: no counters. */
int cp_sampler_record_start_free(struct cp_run_result *r, struct cp_diag *diag);

/* Records, as setup_<name>, the change of each /proc/vmstat event counter
 * the run reports (pgscan_*, compact_*, pgalloc_* ...) since `before` (a
 * cp_kv_read of /proc/vmstat as the set-up started): what writing the
 * data files cost - the compaction, reclaim and fallbacks the model's
 * start depends on. An empty `before` or an unreadable file records
 * nothing. */
int cp_sampler_record_setup(struct cp_run_result *r, const struct cp_kv *before,
			    struct cp_diag *diag);

#endif /* CP_SAMPLE_H */
