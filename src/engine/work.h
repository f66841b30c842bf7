/*
 * work.h - counts of work and the cost model that turns them into CPU time.
 *
 * The model never reads a clock: an operation returns what it did (bytes
 * copied, pages inserted, objects scanned, files created, ...) as a
 * struct cp_work, and the engine's caller prices it with a struct
 * cp_work_cost built from the machine profile ([cpu]) and the
 * filesystem profile ([create]). Per-page work is summed inside one
 * actor step, so pricing happens once per step, not once per page.
 */
#ifndef CP_WORK_H
#define CP_WORK_H

#include <stdint.h>

struct cp_machine;

/* Work done by one actor step. All counts; zero-initialise and add. */
struct cp_work {
	uint64_t nr_copied_bytes;         /* copied from the page cache to user space */
	uint64_t nr_read_calls;           /* read() system calls */
	uint64_t nr_cached_folios;        /* cached folios read() found (lookup + mark accessed) */
	uint64_t nr_inserted_folios;      /* folios allocated and added to the page cache */
	uint64_t nr_inserted_pages;       /* their pages */
	uint64_t nr_lru_evicted_folios;   /* folios reclaim evicted from the LRU lists */
	uint64_t nr_lru_evicted_pages;    /* their pages */
	uint64_t nr_lru_moved_folios;     /* folios reclaim isolated and put back on a
					   * list (deactivated, skipped) */
	uint64_t nr_lru_moved_pages;      /* their pages */
	uint64_t nr_slab_scanned_objects; /* objects shrinker walks visited */
	uint64_t nr_freed_objects;        /* dentries/inodes freed */
	uint64_t nr_created_files;        /* empty files created (open O_CREAT, close) */
	uint64_t nr_mkdir_lookups;        /* failing mkdir() path lookups (fs_mark) */
	uint64_t nr_stats;                /* stat() calls (path walk; misses add inode reads) */
	uint64_t nr_inode_reads;          /* inodes read from disk (CPU side only) */
	uint64_t nr_written_bytes;        /* buffered write()s into the page cache, the
					   * whole write path (priced at
					   * buffered_write_bandwidth_bps) */
};

/* Cost of one unit of each kind of work. */
struct cp_work_cost {
	/* from the machine profile, [cpu] */
	uint64_t copy_bandwidth_bps; /* > 0 */
	uint64_t memory_bandwidth_bps; /* 0: no limit shared by the copying CPUs */
	uint64_t buffered_write_bandwidth_bps; /* 0: not measured (nr_written_bytes unused) */
	uint64_t read_syscall_ns;
	uint64_t page_cached_ns;
	uint64_t page_insert_ns;
	uint64_t page_insert_page_ns;
	uint64_t lru_evict_ns;
	uint64_t lru_evict_page_ns;
	uint64_t lru_move_ns;
	uint64_t lru_move_page_ns;
	uint64_t slab_scan_ns;
	uint64_t object_free_ns;
	/* from the filesystem profile, [create]; zero until the caller sets them */
	uint64_t create_cpu_ns;
	uint64_t mkdir_lookup_ns;
	uint64_t stat_cpu_ns;
	uint64_t inode_read_ns;
};

/* Copies the [cpu] costs of m into c and zeroes the filesystem costs. */
void cp_work_cost_from_machine(struct cp_work_cost *c, const struct cp_machine *m);

/*
 * CPU nanoseconds of w on one otherwise idle CPU: the sum of count x
 * unit cost, plus nr_copied_bytes at copy_bandwidth_bps and
 * nr_written_bytes at buffered_write_bandwidth_bps (> 0 when there are
 * any), each rounded up to a whole nanosecond. Saturates at UINT64_MAX
 * instead of wrapping.
 */
uint64_t cp_work_cpu_ns(const struct cp_work_cost *c, const struct cp_work *w);

/*
 * The copy rate of one of nr_copying actors that copy at once, among
 * nr_runnable actors doing CPU work on nr_cpus CPUs: each copier runs
 * min(1, nr_cpus / nr_runnable) of the time, so on average
 * m = nr_copying * min(1, nr_cpus / nr_runnable) copies are in flight,
 * and they share memory_bandwidth_bps: min(copy_bandwidth_bps,
 * memory_bandwidth_bps / m) (copy_bandwidth_bps when m <= 1 or no
 * memory bandwidth is given). Requires 1 <= nr_copying <= nr_runnable.
 */
uint64_t cp_copy_bandwidth(const struct cp_work_cost *c, unsigned nr_copying,
			   unsigned nr_runnable, unsigned nr_cpus);

/* dst += src, field by field. */
void cp_work_add(struct cp_work *dst, const struct cp_work *src);

/* ceil(bytes * 1e9 / bps): nanoseconds to move bytes at bps (> 0)
 * bytes per second, saturating at UINT64_MAX. */
uint64_t cp_transfer_ns(uint64_t bytes, uint64_t bps);

/* floor(a * b / c) without intermediate overflow (c > 0); saturates at
 * UINT64_MAX when the quotient does not fit. */
uint64_t cp_mul_div_u64(uint64_t a, uint64_t b, uint64_t c);

#endif /* CP_WORK_H */
