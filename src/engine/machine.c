/*
 * machine.c - the machine profile's keys and the checks between them.
 *
 * One table lists every key: its section, the kind of value (size, rate,
 * duration, count, yes/no, text), where it goes in struct cp_machine,
 * whether it is required and its allowed range. core/keytab.c reads the
 * file and applies --set overrides through that table (and turns
 * --machine NAME into a path), so a key is described once; this file
 * adds the defaults of the optional keys and the checks of values
 * against each other (cp_machine_validate()).
 *
 * No kernel mechanism lives here. Kernel anchors of the values:
 * watermark_scale_factor and min_free_kbytes are the sysctls of
 * mm/page_alloc.c; sched_autogroup is kernel.sched_autogroup_enabled;
 * tasks_in_child_memcg is where /proc/self/cgroup puts the run's
 * processes; max_request is the block queue's max_sectors_kb;
 * read_ahead_kb is the bdi's (VM_MAX_READAHEAD = 128 by default).
 */
#include "engine/machine.h"

#include <cachepressure/error.h>
#include <string.h>

#include "core/bug.h"
#include "core/keytab.h"

#define FIELD(f) CP_KEY_FIELD(struct cp_machine, f)
#define REQ true
#define OPT false
#define NOLIMIT CP_KEY_NOLIMIT
#define KEY(sec, key, kind, field, req, lo, hi) \
	{ sec, key, kind, FIELD(field), req, lo, hi, NULL, NULL, NULL }

static const struct cp_key keys[] = {
	KEY("machine", "name", CP_KEY_TEXT, name, REQ, 0, 0),
	KEY("machine", "description", CP_KEY_TEXT, description, OPT, 0, 0),
	KEY("machine", "cpus", CP_KEY_COUNT, nr_cpus, REQ, 1, 4096),
	KEY("machine", "ram", CP_KEY_SIZE, ram_bytes, REQ, 1ULL << 20, NOLIMIT),
	KEY("machine", "reserve", CP_KEY_SIZE, reserve_bytes, REQ, 0, NOLIMIT),
	KEY("machine", "process", CP_KEY_SIZE, process_bytes, REQ, 0, NOLIMIT),
	KEY("machine", "thp", CP_KEY_BOOL, thp, REQ, 0, 1),
	/* x86-64: DMA, DMA32, Normal, Movable */
	KEY("machine", "nr_zones", CP_KEY_COUNT, nr_zones, REQ, 1, 4),
	/* ZONE_DMA32 spans physical memory below 4 GiB (x86-64 MAX_DMA32_PFN) */
	KEY("machine", "dma32", CP_KEY_SIZE, dma32_bytes, OPT, 0, 1ULL << 32),
	KEY("machine", "min_free_kbytes", CP_KEY_COUNT, min_free_kbytes, OPT, 0, NOLIMIT),
	/* sysctl range: 1..1000 in 4.11, 1..3000 since 5.x */
	KEY("machine", "watermark_scale_factor", CP_KEY_COUNT, watermark_scale_factor, OPT, 1,
	    3000),
	/* the memory cgroup of the processes a global run starts
	 * (/proc/self/cgroup): below the root (yes) or the root (no) */
	KEY("machine", "tasks_in_child_memcg", CP_KEY_BOOL, tasks_in_child_memcg, OPT, 0, 1),

	KEY("cpu", "copy_bandwidth", CP_KEY_RATE, copy_bandwidth_bps, REQ, 1, NOLIMIT),
	/* optional: absent or 0 = no limit shared by the copying CPUs */
	KEY("cpu", "memory_bandwidth", CP_KEY_RATE, memory_bandwidth_bps, OPT, 0, NOLIMIT),
	/* optional: absent or 0 = a write() costs what a read() does */
	KEY("cpu", "buffered_write_bandwidth", CP_KEY_RATE, buffered_write_bandwidth_bps, OPT, 0,
	    NOLIMIT),
	KEY("cpu", "read_syscall_ns", CP_KEY_NS, read_syscall_ns, REQ, 0, NOLIMIT),
	KEY("cpu", "page_cached_ns", CP_KEY_NS, page_cached_ns, REQ, 0, NOLIMIT),
	KEY("cpu", "page_insert_ns", CP_KEY_NS, page_insert_ns, REQ, 0, NOLIMIT),
	KEY("cpu", "page_insert_page_ns", CP_KEY_NS, page_insert_page_ns, REQ, 0, NOLIMIT),
	KEY("cpu", "lru_evict_ns", CP_KEY_NS, lru_evict_ns, REQ, 0, NOLIMIT),
	KEY("cpu", "lru_evict_page_ns", CP_KEY_NS, lru_evict_page_ns, REQ, 0, NOLIMIT),
	KEY("cpu", "lru_move_ns", CP_KEY_NS, lru_move_ns, REQ, 0, NOLIMIT),
	KEY("cpu", "lru_move_page_ns", CP_KEY_NS, lru_move_page_ns, REQ, 0, NOLIMIT),
	KEY("cpu", "slab_scan_ns", CP_KEY_NS, slab_scan_ns, REQ, 0, NOLIMIT),
	KEY("cpu", "object_free_ns", CP_KEY_NS, object_free_ns, REQ, 0, NOLIMIT),
	/* optional: absent or 0 = profiles/xfs.ini's [create] costs */
	KEY("cpu", "xfs_create_ns", CP_KEY_NS, xfs_create_ns, OPT, 0, NOLIMIT),
	KEY("cpu", "xfs_create_kworker_ns", CP_KEY_NS, xfs_create_kworker_ns, OPT, 0, NOLIMIT),
	/* /proc/sys/kernel/sched_autogroup_enabled; absent = no, as a kernel
	 * built without CONFIG_SCHED_AUTOGROUP (init/Kconfig's default) */
	KEY("cpu", "sched_autogroup", CP_KEY_BOOL, sched_autogroup, OPT, 0, 1),
	/* per mille of a CPU: two fs_mark workers and two readers beside them
	 * (calibrate); absent or 0 = not measured, both or neither */
	KEY("cpu", "fs_mark_cpus_beside_readers", CP_KEY_COUNT, fs_mark_cpus_pm, OPT, 0, 2000),
	KEY("cpu", "readers_cpus_beside_fs_mark", CP_KEY_COUNT, readers_cpus_pm, OPT, 0, 2000),

	KEY("device", "model", CP_KEY_TEXT, device_model, OPT, 0, 0),
	KEY("device", "read_bandwidth", CP_KEY_RATE, read_bandwidth_bps, REQ, 1, NOLIMIT),
	KEY("device", "write_bandwidth", CP_KEY_RATE, write_bandwidth_bps, REQ, 1, NOLIMIT),
	KEY("device", "read_latency", CP_KEY_DURATION, read_latency_ns, REQ, 0, NOLIMIT),
	KEY("device", "write_latency", CP_KEY_DURATION, write_latency_ns, REQ, 0, NOLIMIT),
	/* one page .. 4 GiB; the block layer counts in 512-byte sectors */
	KEY("device", "max_request", CP_KEY_SIZE, max_request_bytes, REQ, 4096, 1ULL << 32),
	/* NVMe allows up to 65536 entries per queue */
	KEY("device", "queue_depth", CP_KEY_COUNT, queue_depth, REQ, 1, 65536),
	/* per mille; absent or 0 = the device's work takes none of the
	 * CPUs (bare metal); 1000 would mean no slower beside busy CPUs */
	KEY("device", "share_beside_busy_cpus", CP_KEY_COUNT, share_beside_busy_cpus_pm, OPT, 0, 999),

	/* 0 turns readahead off, as in the kernel */
	KEY("readahead", "read_ahead_kb", CP_KEY_COUNT, read_ahead_kb, REQ, 0, 1ULL << 20),
};

/* The checks of cp_machine_validate() name no line: the message says
 * which keys disagree. */
static int validate_obj(const void *obj, int *blame, struct cp_diag *diag)
{
	*blame = -1;
	return cp_machine_validate(obj, diag);
}

static const struct cp_keytab machine_keytab = {
	.what = "machine profile",
	.set_example = "device.read_latency",
	.keys = keys,
	.nr_keys = sizeof(keys) / sizeof(keys[0]),
	.obj_size = sizeof(struct cp_machine),
	.validate = validate_obj,
};

void cp_machine_init(struct cp_machine *m)
{
	memset(m, 0, sizeof(*m));
	m->watermark_scale_factor = 10; /* mm/page_alloc.c default */
	m->min_free_kbytes = 0;         /* computed by the memory model */
}

int cp_machine_validate(const struct cp_machine *m, struct cp_diag *diag)
{
	int rc, bad_key;

	if (!m->name[0])
		return cp_diag_set(diag, -CP_EINVAL, "key 'name' in [machine]: must not be empty");
	rc = cp_keytab_check_values(&machine_keytab, m, &bad_key, diag);
	if (rc)
		return rc;
	if (m->reserve_bytes >= m->ram_bytes ||
	    m->process_bytes >= m->ram_bytes - m->reserve_bytes)
		return cp_diag_set(diag, -CP_EINVAL,
				   "keys 'reserve' and 'process' in [machine]: %llu + %llu bytes leave no memory of ram %llu bytes",
				   (unsigned long long)m->reserve_bytes,
				   (unsigned long long)m->process_bytes,
				   (unsigned long long)m->ram_bytes);
	if (m->dma32_bytes > m->ram_bytes)
		return cp_diag_set(diag, -CP_EINVAL,
				   "keys 'dma32' and 'ram' in [machine]: ZONE_DMA32 of %llu bytes is more than ram (%llu bytes)",
				   (unsigned long long)m->dma32_bytes, (unsigned long long)m->ram_bytes);
	if (m->min_free_kbytes > m->ram_bytes / 1024 / 4)
		return cp_diag_set(diag, -CP_EINVAL,
				   "key 'min_free_kbytes' in [machine]: %llu KiB is more than a quarter of ram",
				   (unsigned long long)m->min_free_kbytes);
	if (m->xfs_create_kworker_ns > m->xfs_create_ns)
		return cp_diag_set(diag, -CP_EINVAL,
				   "keys 'xfs_create_kworker_ns' and 'xfs_create_ns' in [cpu]: the kworkers' part (%llu ns) is more than the whole create (%llu ns)",
				   (unsigned long long)m->xfs_create_kworker_ns,
				   (unsigned long long)m->xfs_create_ns);
	if (!m->fs_mark_cpus_pm != !m->readers_cpus_pm)
		return cp_diag_set(diag, -CP_EINVAL,
				   "keys 'fs_mark_cpus_beside_readers' and 'readers_cpus_beside_fs_mark' in [cpu]: one without the other (they are measured together)");
	if (m->max_request_bytes % 512)
		return cp_diag_set(diag, -CP_EINVAL,
				   "key 'max_request' in [device]: %llu bytes is not a whole number of 512-byte sectors",
				   (unsigned long long)m->max_request_bytes);
	return 0;
}

bool cp_machine_check(const struct cp_machine *m)
{
	return cp_machine_validate(m, NULL) == 0;
}

int cp_machine_load(const char *path, struct cp_machine *m, struct cp_diag *diag)
{
	struct cp_machine tmp;
	int rc;

	cp_machine_init(&tmp);
	rc = cp_keytab_load(&machine_keytab, path, &tmp, diag);
	if (rc)
		return rc;
	*m = tmp;
	CP_DEBUG_CHECK(cp_machine_check(m));
	return 0;
}

int cp_machine_set(struct cp_machine *m, const char *section_key, const char *value,
		   struct cp_diag *diag)
{
	int rc = cp_keytab_set(&machine_keytab, m, section_key, value, diag);

	if (rc)
		return rc;
	CP_DEBUG_CHECK(cp_machine_check(m));
	return 0;
}

int cp_machine_resolve(const char *name_or_path, const char *search_dir, char *out,
		       size_t out_len, struct cp_diag *diag)
{
	return cp_keytab_resolve(&machine_keytab, name_or_path, search_dir, out, out_len, diag);
}

int cp_machine_load_named(const char *name_or_path, const char *search_dir,
			  struct cp_machine *m, struct cp_diag *diag)
{
	char path[CP_KEYTAB_PATH_MAX];
	int rc = cp_machine_resolve(name_or_path, search_dir, path, sizeof(path), diag);

	return rc ? rc : cp_machine_load(path, m, diag);
}
