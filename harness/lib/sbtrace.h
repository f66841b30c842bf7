/*
 * sbtrace.h - the objects the superblock shrinker frees during the
 * measured phase, counted by a tracefs instance of the run's own.
 *
 * /proc/vmstat counts the objects shrinkers were asked to scan
 * (slabs_scanned), not what they freed. The tracepoint
 * vmscan:mm_shrink_slab_end carries, for each do_shrink_slab() call, the
 * shrinker's scan function and what the call freed ("last shrinker
 * return val"). The harness makes an instance under the tracefs mount
 * (instances/cachepressure-PID-REP: a ring buffer and event switches of
 * its own, so the system's tracing is not touched), enables that one
 * event with the filter `shrink.function == super_cache_scan && retval
 * > 0` (the calls that freed something, on every superblock's shrinker:
 * ours carries nearly all the objects), clears it when the measured
 * phase starts, sums the frees when it ends, and removes the instance.
 * Events the buffer could not hold are counted (per_cpu/cpuN/stats
 * "overrun"): the sum is then a lower bound.
 *
 * The same instance can also watch how the readers' files are read ahead
 * (cp_sbtrace_watch_files): readahead:page_cache_sync_ra and
 * readahead:page_cache_async_ra (a read() that missed, a read() that hit
 * a PG_readahead folio) and filemap:mm_filemap_add_to_page_cache of
 * folios of order 1 or more, filtered on the files' inode numbers; the
 * sum then counts the calls and the pages added in folios of order 2-5
 * and 6-9 (order-0 pages are not traced: too many; they are the rest of
 * what the readers read from the device).
 */
#ifndef CP_SBTRACE_H
#define CP_SBTRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/shrinker.h"

#define CP_SBTRACE_PATH_MAX 512
/* The instance's ring buffer, KiB a CPU (records of about 72 bytes: the
 * event's fields end at byte 64); overruns are counted. */
#define CP_SBTRACE_BUFFER_KB 4096u
#define CP_SBTRACE_PREFIX "cachepressure"
/* The deepest reclaim priorities, counted apart: the model's. */
#define CP_SBTRACE_DEEP_PRIORITY CP_SHRINK_DEEP_PRIORITY
/* Memory-cgroup reclaims in flight at once: one a task, and a task
 * reclaims in one context at a time (PF_MEMALLOC stops recursion). */
#define CP_SBTRACE_OPEN_MAX 64

struct cp_diag;

/* What the instance saw between cp_sbtrace_begin() and now. */
struct cp_sbtrace_sum {
	uint64_t calls; /* do_shrink_slab() calls on a superblock shrinker that freed */
	uint64_t freed; /* the objects they freed */
	uint64_t lost;  /* events the ring buffer overwrote (overrun) */
	/* on the watched files (cp_sbtrace_watch_files) */
	uint64_t ra_sync;          /* page_cache_sync_ra() calls */
	uint64_t ra_async;         /* page_cache_async_ra() calls */
	uint64_t ra_pages_2to5;    /* pages added in folios of order 1-5 (page cache: 2-5) */
	uint64_t ra_pages_6to9;    /* pages added in folios of order 6 or more */
	/* kmem:mm_page_alloc_extfrag: fallbacks to another migratetype */
	uint64_t extfrag;               /* every one */
	uint64_t extfrag_claim;         /* change_ownership=1: the pageblock is now
					 * of the request's type */
	uint64_t extfrag_claim_movable; /* ... for a MOVABLE request */
	/* vmscan:mm_shrink_slab_start on a superblock shrinker at priority
	 * <= CP_SBTRACE_DEEP_PRIORITY: a reclaim pass that got that deep */
	uint64_t deep_calls;
	uint64_t deep_scan;             /* their total_scan, summed */
	uint64_t deep_fs_calls;         /* those whose gfp_flags carry __GFP_FS */
	/* vmscan:mm_vmscan_memcg_reclaim_begin: memory-cgroup reclaim
	 * entries, and those whose gfp_flags carry __GFP_FS */
	uint64_t memcg_reclaims;
	uint64_t memcg_reclaims_fs;
	/* one memcg reclaim at a time, begin to end on its task
	 * (vmscan:mm_vmscan_memcg_reclaim_end "nr_reclaimed=%lu"), with the
	 * superblock shrinker's calls between them giving the priorities its
	 * walk went through (do_try_to_free_pages() calls shrink_slab() at
	 * each; the cgroup always holds dentries, so each shows):
	 * cp_sbtrace_create(..., per_reclaim) */
	uint64_t memcg_reclaimed;        /* the pairs' nr_reclaimed, summed */
	uint64_t memcg_reclaims_prio12;  /* pairs done at DEF_PRIORITY (12) */
	uint64_t memcg_reclaims_deep;    /* pairs that reached CP_SBTRACE_DEEP_PRIORITY */
	uint64_t memcg_reclaim_restarts; /* walks begun again at 12 (force_deactivate) */
	/* the same for the reclaims whose gfp_flags carry __GFP_FS */
	uint64_t memcg_reclaimed_fs;
	uint64_t memcg_reclaims_fs_prio12;
	uint64_t memcg_reclaims_fs_deep;
	/* the reclaims begun and not yet ended, by task */
	struct cp_sbtrace_open {
		long pid;
		int lowest;   /* the lowest priority a superblock call showed; DEF_PRIORITY + 1: none */
		int last;     /* the last one */
		unsigned restarts;
		bool fs;      /* its gfp_flags carry __GFP_FS */
	} open[CP_SBTRACE_OPEN_MAX];
	unsigned nr_open;
	uint64_t memcg_unpaired; /* ends without a begin, begins past the table */
};

struct cp_sbtrace {
	char path[CP_SBTRACE_PATH_MAX]; /* the instance directory */
	bool created;                   /* we made it: we remove it */
	/* a tracefs of our own, mounted because none was (own_mount of
	 * cp_sbtrace_create): unmounted and its directory removed by
	 * cp_sbtrace_remove() */
	char mnt[CP_SBTRACE_PATH_MAX - 128];
	bool mounted;                   /* tracefs is mounted on mnt */
	bool mnt_made;                  /* we made the directory mnt */
	bool watching;                  /* the readahead events are on (watch_files) */
	bool extfrag;                   /* the fallback event is on */
	bool deep;                      /* the deep-priority event is on */
	bool memcg;                     /* the memcg reclaim event is on */
	bool per_reclaim;               /* ... with its end, and every priority's
					 * superblock calls */
	bool setup_on;                  /* tracing since cp_sbtrace_begin_setup() */
	struct cp_sbtrace_sum setup;    /* what the set-up saw (cp_sbtrace_begin) */
};

/* Creates TRACEFS/instances/NAME (NAME starts with "cachepressure" and
 * holds no '/') with buffer_kb KiB a CPU, the "global" trace clock (one
 * order across CPUs for a task that moves mid-reclaim), tracing off, and the filtered
 * event enabled, kmem:mm_page_alloc_extfrag too where the kernel has it
 * (t->extfrag), and vmscan:mm_shrink_slab_start filtered on the
 * superblock shrinkers at priority <= CP_SBTRACE_DEEP_PRIORITY where it
 * has a priority field (t->deep), and vmscan:mm_vmscan_memcg_reclaim_begin
 * (t->memcg). With per_reclaim (a run in a memory cgroup: a few thousand
 * reclaims; kswapd's passes in a global run would be far more), the
 * superblock calls at every priority and mm_vmscan_memcg_reclaim_end
 * too (t->per_reclaim), for the walks of cp_sbtrace_sum. tracefs is the
 * mount at /sys/kernel/tracing, else /sys/kernel/debug/tracing; when
 * neither is mounted and own_mount is not NULL, a tracefs of the run's own
 * mounted on the directory own_mount (made here, 0700; its last component
 * must start with "cachepressure" like NAME): the kernel has one tracing
 * system, so the instance is the same as under /sys/kernel/tracing, and
 * nothing of the system's mounts changes. -CP_ENOENT when the kernel has
 * no tracefs or no such event (the caller goes on without the count),
 * -CP_EINVAL for a bad name, -CP_EBUSY when the instance or own_mount
 * exists, -CP_ESYS otherwise. Whatever it returns, cp_sbtrace_remove()
 * undoes what it made. */
int cp_sbtrace_create(struct cp_sbtrace *t, const char *name, unsigned buffer_kb,
		      bool per_reclaim, const char *own_mount, struct cp_diag *diag);

/* The most files cp_sbtrace_watch_files() takes. */
#define CP_SBTRACE_MAX_FILES 16

/* Enables the readahead events above for the files with these inode
 * numbers (1..CP_SBTRACE_MAX_FILES of them), before cp_sbtrace_begin().
 * -CP_ENOENT when the kernel lacks one of the events (the caller goes
 * on without those counts; nothing stays enabled), -CP_EINVAL for no or
 * too many files, -CP_ESYS otherwise. */
int cp_sbtrace_watch_files(struct cp_sbtrace *t, const uint64_t *inos, size_t n,
			   struct cp_diag *diag);

/* Empties the buffer and turns tracing on, for the set-up: what the
 * buffer holds at cp_sbtrace_begin() is the set-up's (t->setup). */
int cp_sbtrace_begin_setup(struct cp_sbtrace *t, struct cp_diag *diag);

/* After cp_sbtrace_begin_setup(), turns tracing off and sums the
 * buffer's events into t->setup; then empties the buffer and turns
 * tracing on. */
int cp_sbtrace_begin(struct cp_sbtrace *t, struct cp_diag *diag);

/* Turns tracing off and sums the buffer's events and the CPUs' overruns. */
int cp_sbtrace_end(struct cp_sbtrace *t, struct cp_sbtrace_sum *sum, struct cp_diag *diag);

/* Adds one line of the instance's trace file to sum: a
 * "mm_shrink_slab_end: super_cache_scan+..." line counts a call and its
 * "last shrinker return val N" (N > 0) as frees; a
 * "page_cache_sync_ra:" or "page_cache_async_ra:" line counts a call; a
 * "mm_filemap_add_to_page_cache:" line adds 2^N pages for its
 * "order=N"; a "mm_page_alloc_extfrag:" line counts a fallback, a claim
 * when its "change_ownership=1", a movable one when also
 * "alloc_migratetype=1" (MIGRATE_MOVABLE); a "mm_shrink_slab_start:
 * super_cache_scan+..." line whose "priority N" is at most
 * CP_SBTRACE_DEEP_PRIORITY counts a deep call and adds its "total_scan
 * N", and counts it apart when its "gfp_flags" carry __GFP_FS; a
 * "mm_vmscan_memcg_reclaim_begin:" line counts a memory-cgroup reclaim,
 * apart when its "gfp_flags=" carry __GFP_FS, and opens a reclaim for its
 * task (the number after the last '-' of the line's task field); a
 * superblock call on a task with an open reclaim lowers its lowest
 * priority, and one at priority 12 after a lower one counts a restart;
 * an "mm_vmscan_memcg_reclaim_end:" line closes the task's reclaim and
 * adds its "nr_reclaimed=". Other lines (the header, other shrinkers)
 * are skipped. */
void cp_sbtrace_add_line(const char *line, struct cp_sbtrace_sum *sum);

/* Disables the event and removes the instance, if we made it, then
 * unmounts the tracefs of our own and removes its directory, if we made
 * them. 0 or -CP_ESYS with diag naming what was left. */
int cp_sbtrace_remove(struct cp_sbtrace *t, struct cp_diag *diag);

#endif
