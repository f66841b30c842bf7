/*
 * machine.h - the machine profile: CPUs, memory, per-operation CPU costs,
 * the block device and readahead, as read from profiles/<name>.ini.
 *
 * Every value is an integer in the unit its field name says: bytes,
 * bytes per second (_bps), nanoseconds (_ns) or a count (nr_). The
 * engine turns the model's counts of work into time with these numbers;
 * nothing else in the model reads them.
 */
#ifndef CP_MACHINE_H
#define CP_MACHINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cp_diag;

#define CP_MACHINE_NAME_LEN 64
#define CP_MACHINE_TEXT_LEN 160

struct cp_machine {
	/* [machine] */
	char name[CP_MACHINE_NAME_LEN];           /* required, non-empty */
	char description[CP_MACHINE_TEXT_LEN];    /* optional */
	unsigned nr_cpus;                         /* cpus: >= 1 */
	uint64_t ram_bytes;                       /* ram: installed RAM */
	uint64_t reserve_bytes;                   /* reserve: never available to the allocator */
	uint64_t process_bytes;                   /* process: anonymous memory of the test's tasks */
	bool thp;                                 /* thp: khugepaged raises min_free_kbytes */
	unsigned nr_zones;                        /* nr_zones: populated zones, 1..4 */
	uint64_t dma32_bytes;                     /* dma32: managed memory of ZONE_DMA32;
						   * optional, 0 = not known: the model
						   * keeps one zone (docs/model.md) */
	uint64_t min_free_kbytes;                 /* optional; 0 = the kernel default */
	unsigned watermark_scale_factor;          /* optional; default 10 */

	/* [cpu] */
	uint64_t copy_bandwidth_bps;  /* copy_bandwidth: page cache -> user, one core */
	/* buffered_write_bandwidth: one task's 1 MiB write()s of a new file
	 * into the page cache, the whole write path (0: not measured; a
	 * write() then costs what a read() of the same pages does) */
	uint64_t buffered_write_bandwidth_bps;
	uint64_t memory_bandwidth_bps; /* memory_bandwidth: the same copy, all the
					* copying CPUs together (optional; 0 = not
					* known: no shared limit) */
	uint64_t read_syscall_ns;     /* fixed cost of one read() */
	uint64_t page_cached_ns;      /* per cached folio a read() touches */
	uint64_t page_insert_ns;      /* per folio readahead allocates and inserts */
	uint64_t page_insert_page_ns; /* per page of such a folio beyond its first */
	uint64_t lru_evict_ns;        /* per folio reclaim evicts */
	uint64_t lru_evict_page_ns;   /* per page of an evicted folio beyond its first */
	uint64_t lru_move_ns;         /* per folio reclaim isolates and puts back
				       * (deactivated, skipped) */
	uint64_t lru_move_page_ns;    /* per page of a moved folio beyond its first */
	uint64_t slab_scan_ns;        /* per object a shrinker walk visits */
	uint64_t object_free_ns;      /* per dentry/inode freed */
	uint64_t xfs_create_ns;       /* optional: one empty-file create on xfs on
				       * this machine, all CPUs' busy time per file
				       * (calibrate); 0 = the xfs profile's own */
	uint64_t xfs_create_kworker_ns; /* optional: of xfs_create_ns, the part run
					 * by kworkers and interrupts, not by fs_mark
					 * (calibrate); 0 = none */
	/* fs_mark_cpus_beside_readers, readers_cpus_beside_fs_mark: optional,
	 * both or neither (0: not measured): the CPUs, per mille, fs_mark's
	 * two workers and two cached readers had running side by side
	 * (calibrate): a worker's share over a reader's is what the load
	 * balancing gives fs_mark's workers (engine.h
	 * cp_engine_set_light_share) */
	uint64_t fs_mark_cpus_pm, readers_cpus_pm;
	bool sched_autogroup;         /* sched_autogroup: optional, default no: the
				       * run's tasks form one task group beside the
				       * kernel threads (the engine's CPU shares) */
	bool tasks_in_child_memcg;    /* [machine] tasks_in_child_memcg: optional,
				       * default no: a global run's processes are
				       * charged to a memcg below the root (global
				       * reclaim shrinks the root's slab, then
				       * theirs) */

	/* [device] */
	char device_model[CP_MACHINE_TEXT_LEN];   /* model: optional */
	uint64_t read_bandwidth_bps;  /* > 0 */
	uint64_t write_bandwidth_bps; /* > 0 */
	uint64_t read_latency_ns;     /* per request, queue empty */
	uint64_t write_latency_ns;
	uint64_t max_request_bytes;   /* max_request: >= 4096, a multiple of 512 */
	unsigned queue_depth;         /* requests in flight, >= 1 */
	/* share_beside_busy_cpus: optional, per mille, 0 = none: the
	 * device's read rate beside as many CPU-bound tasks as CPUs over its
	 * rate with the CPUs idle - a VM's virtual disk emulated on the host
	 * CPUs its vCPUs run on, which give it up while the disk transfers
	 * (engine.h cp_engine_set_host_io_share) */
	uint64_t share_beside_busy_cpus_pm;

	/* [readahead] */
	uint64_t read_ahead_kb;       /* >= 4 */
};

/*
 * Fills m with the kernel defaults of the optional keys and zero
 * elsewhere (not a valid machine: the required keys are still missing).
 */
void cp_machine_init(struct cp_machine *m);

/*
 * Parses the machine profile at path. Returns 0, -CP_ENOENT (no such
 * file), -CP_EIO (unreadable) or -CP_EINVAL (syntax error, unknown
 * section or key, a key given twice, a bad value, a required key missing,
 * values that contradict each other). On failure *m is unchanged and
 * diag (if not NULL) names the file, line, section, key and value, e.g.
 * "p.ini:7: key 'ram' in [machine]: bad value '16Q' (expected a size like 16G)".
 */
int cp_machine_load(const char *path, struct cp_machine *m, struct cp_diag *diag);

/*
 * Sets one key, given as "section.key" (as with --set device.read_latency=50us),
 * and checks the result. Returns 0 or -CP_EINVAL; on failure *m is
 * unchanged and diag names the key and value.
 */
int cp_machine_set(struct cp_machine *m, const char *section_key, const char *value,
		   struct cp_diag *diag);

/*
 * Turns --machine NAME|FILE into a path: a value containing '/' or
 * ending in ".ini" is a path used as is; a bare name means
 * "<search_dir>/<name>.ini". Writes the path into out (out_len bytes).
 * Returns 0, -CP_EINVAL (empty or malformed name, path too long) or
 * -CP_ENOENT (the file does not exist; diag says where it looked). On
 * failure out is unchanged.
 */
int cp_machine_resolve(const char *name_or_path, const char *search_dir, char *out,
		       size_t out_len, struct cp_diag *diag);

/* cp_machine_resolve() then cp_machine_load(). */
int cp_machine_load_named(const char *name_or_path, const char *search_dir,
			  struct cp_machine *m, struct cp_diag *diag);

/*
 * Checks the values against each other and their ranges (what load and
 * set enforce). Returns 0 or -CP_EINVAL with diag naming the key.
 */
int cp_machine_validate(const struct cp_machine *m, struct cp_diag *diag);

/* Invariant check for CP_DEBUG_CHECK: cp_machine_validate() == 0. */
bool cp_machine_check(const struct cp_machine *m);

#endif /* CP_MACHINE_H */
