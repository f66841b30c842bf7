/*
 * sample.c - time series and counter deltas of a real run.
 *
 * Sources: /proc/meminfo (MemFree, Cached, Active(file), Inactive(file),
 * SReclaimable), /proc/vmstat, /proc/sys/fs/dentry-state and inode-nr
 * (fs/dcache.c, fs/inode.c), the memory cgroup's files (v1:
 * usage_in_bytes, kmem.usage_in_bytes, memory.stat cache/active_file/
 * inactive_file; v2: memory.current, memory.stat file/active_file/
 * inactive_file/slab_reclaimable), and XFS's per-filesystem statistics
 * (fs/xfs/xfs_stats.c: the "ig" line counts xfs_iget() lookups, hits and
 * misses - a miss allocates an inode, which is the icache miss of the
 * files-in-cache scenario), and the kswapd threads' CPU time
 * (/proc/PID/stat utime + stime, fs/proc/array.c do_task_stat).
 */
#include "sample.h"

#include <cachepressure/error.h>
#include <cachepressure/result.h>
#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/alloc.h"
#include "fsimage.h" /* cp_fs_name() */
#include "model/fs_profile_file.h"
#include "report/startfree.h"

static const char *const cols_global[] = { "t_ns",
					   "mem_free_bytes",
					   "file_bytes",
					   "active_file_bytes",
					   "inactive_file_bytes",
					   "slab_reclaimable_bytes",
					   "nr_dentry",
					   "nr_inodes",
					   "free_dma32_pages",
					   "free_normal_pages",
					   "pcp_pages",
					   "slab_unreclaimable_bytes",
					   "pgdeactivate",
					   "workingset_refault_file",
					   "cpu_busy_ns",
					   "readers_cpu_ns" };
static const char *const cols_v1[] = { "t_ns",
				       "usage_bytes",
				       "kmem_bytes",
				       "file_bytes",
				       "active_file_bytes",
				       "inactive_file_bytes",
				       "nr_dentry",
				       "nr_inodes",
				       "pgdeactivate",
				       "workingset_refault_file",
				       "cpu_busy_ns",
				       "readers_cpu_ns" };
static const char *const cols_v2[] = { "t_ns",
				       "usage_bytes",
				       "slab_reclaimable_bytes",
				       "file_bytes",
				       "active_file_bytes",
				       "inactive_file_bytes",
				       "nr_dentry",
				       "nr_inodes",
				       "pgdeactivate",
				       "workingset_refault_file",
				       "cpu_busy_ns",
				       "readers_cpu_ns" };

/* Every layout ends with the vmstat columns (vmstat_columns()), then the
 * CPU columns (cpu_columns()). */
#define NR_COLS_MEMCG 12
#define NR_COLS_GLOBAL 16

/* The two vmstat columns: pgdeactivate and workingset_refault_file
 * since the sampler began (the machine's /proc/vmstat in either
 * confinement, as the counters are; the model's series has the same
 * names), -1 where unreadable. */
static void vmstat_columns(const struct cp_sampler *s, int64_t out[2])
{
	static const char *const names[2] = { "pgdeactivate", "workingset_refault_file" };
	struct cp_kv vm = { 0 };
	int64_t now, then;
	int i;

	out[0] = out[1] = -1;
	if (cp_kv_read("/proc/vmstat", &vm, NULL))
		return;
	for (i = 0; i < 2; i++)
		if (!cp_kv_get(&vm, names[i], &now) && !cp_kv_get(&s->vm0, names[i], &then))
			out[i] = now - then;
	cp_kv_release(&vm);
}

const char *const *cp_sampler_columns(enum cp_confine confine, int cgroup_version, size_t *nr)
{
	*nr = NR_COLS_MEMCG;
	if (confine == CP_CONFINE_GLOBAL) {
		*nr = NR_COLS_GLOBAL;
		return cols_global;
	}
	return cgroup_version == 2 ? cols_v2 : cols_v1;
}

/* The global columns from /proc/zoneinfo: DMA32's and Normal's free
 * pages ("pages free") and the pages on every zone's per-CPU lists. */
static void zone_columns(int64_t out[3])
{
	uint64_t v;
	char *text;

	out[0] = out[1] = out[2] = -1;
	if (cp_kfile_read("/proc/zoneinfo", &text, NULL))
		return;
	if (cp_zoneinfo_field(text, "DMA32", "pages free", &v) == 0)
		out[0] = (int64_t)v;
	if (cp_zoneinfo_field(text, "Normal", "pages free", &v) == 0)
		out[1] = (int64_t)v;
	out[2] = (int64_t)cp_zoneinfo_pcp_pages_all(text);
	cp_free(text);
}

int cp_xfs_ig_parse(const char *text, uint64_t ig[7])
{
	const char *p = text;

	while (p && *p) {
		if (strncmp(p, "ig ", 3) == 0)
			return sscanf(p + 3, "%" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
					     " %" SCNu64 " %" SCNu64,
				      &ig[0], &ig[1], &ig[2], &ig[3], &ig[4], &ig[5], &ig[6]) == 7
				       ? 0
				       : -CP_ENOENT;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return -CP_ENOENT;
}

int cp_block_stat_parse(const char *text, struct cp_block_stat *st)
{
	uint64_t v[10];

	if (sscanf(text,
		   " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
		   " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64,
		   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9]) != 10)
		return -CP_EINVAL;
	*st = (struct cp_block_stat){ .read_ios = v[0], .read_sectors = v[2],
				      .write_ios = v[4], .write_sectors = v[6],
				      .io_ticks_ms = v[9] };
	return 0;
}

/* The 11 free-block counts (orders 0..10) that end a line of
 * /proc/buddyinfo or /proc/pagetypeinfo, read from q up to eol (NULL: the
 * end of the text). True when all 11 are there. */
static bool parse_orders(const char *q, const char *eol, uint64_t v[11])
{
	int o, used;

	for (o = 0; o < 11; o++) {
		if (sscanf(q, " %" SCNu64 "%n", &v[o], &used) != 1 || (eol && q + used > eol))
			return false;
		q += used;
	}
	return true;
}

int cp_buddyinfo_parse(const char *text, uint64_t out[11])
{
	const char *p = text;
	int zones = 0;

	memset(out, 0, 11 * sizeof(out[0]));
	while (p && *p) {
		const char *z = strstr(p, "zone");
		const char *eol = strchr(p, '\n');
		uint64_t v[11];
		int o;

		if (z && (!eol || z < eol)) {
			z += 4;
			while (*z == ' ')
				z++;
			while (*z && *z != ' ' && *z != '\n')
				z++; /* the zone's name */
			if (parse_orders(z, eol, v)) {
				for (o = 0; o < 11; o++)
					out[o] += v[o];
				zones++;
			}
		}
		p = eol ? eol + 1 : NULL;
	}
	return zones ? 0 : -CP_ENOENT;
}

/* Does the "zone NAME" of the line at p (up to eol) name `zone`? The name
 * ends at a comma (pagetypeinfo), a space or the end of the line
 * (zoneinfo, buddyinfo). NULL zone: any. */
static bool line_zone_is(const char *p, const char *eol, const char *zone)
{
	const char *z = strstr(p, "zone");
	size_t n;

	if (!z || (eol && z >= eol))
		return false;
	if (!zone)
		return true;
	z += 4;
	while (*z == ' ')
		z++;
	n = strlen(zone);
	return strncmp(z, zone, n) == 0 &&
	       (z[n] == ',' || z[n] == ' ' || z[n] == '\n' || z[n] == '\0');
}

int cp_pagetypeinfo_parse_zone(const char *text, const char *zone, uint64_t out[3][11])
{
	static const char *const types[3] = { "Unmovable", "Movable", "Reclaimable" };
	const char *p = text;
	int lines = 0;

	memset(out, 0, 3 * sizeof(out[0]));
	while (p && *p) {
		const char *eol = strchr(p, '\n');
		const char *t = strstr(p, "type");
		int k;

		if (t && (!eol || t < eol) && strncmp(p, "Node", 4) == 0 &&
		    line_zone_is(p, eol, zone)) {
			t += 4;
			while (*t == ' ')
				t++;
			for (k = 0; k < 3; k++) {
				size_t n = strlen(types[k]);
				uint64_t v[11];
				const char *q = t + n;
				int o;

				if (strncmp(t, types[k], n) != 0 || (*q != ' ' && *q != '\t'))
					continue;
				if (parse_orders(q, eol, v)) {
					for (o = 0; o < 11; o++)
						out[k][o] += v[o];
					lines++;
				}
				break;
			}
		}
		p = eol ? eol + 1 : NULL;
	}
	return lines ? 0 : -CP_ENOENT;
}

int cp_pagetypeinfo_parse_pageblocks(const char *text, const char *zone, uint64_t out[3])
{
	const char *p = strstr(text, "Number of blocks type");

	p = p ? strchr(p, '\n') : NULL;
	while (p && *++p) {
		const char *eol = strchr(p, '\n');

		if (strncmp(p, "Node", 4) == 0 && line_zone_is(p, eol, zone)) {
			const char *q = strstr(p, "zone") + 4;
			unsigned long long v[3];

			while (*q == ' ')
				q++;
			q += strlen(zone);
			if (sscanf(q, "%llu %llu %llu", &v[0], &v[1], &v[2]) != 3)
				return -CP_ENOENT;
			out[0] = v[0];
			out[1] = v[1];
			out[2] = v[2];
			return 0;
		}
		if (strncmp(p, "Node", 4) != 0)
			break; /* the table ended */
		p = eol;
	}
	return -CP_ENOENT;
}

int cp_pagetypeinfo_parse(const char *text, uint64_t out[3][11])
{
	return cp_pagetypeinfo_parse_zone(text, NULL, out);
}

/* The zone's block of /proc/zoneinfo: from the line after its "Node"
 * line to the next "Node" line or the end; NULL when absent. */
static const char *zoneinfo_block(const char *text, const char *zone)
{
	const char *p = text;

	while (p && *p) {
		const char *eol = strchr(p, '\n');

		if (strncmp(p, "Node", 4) == 0 && line_zone_is(p, eol, zone))
			return eol ? eol + 1 : p + strlen(p);
		p = eol ? eol + 1 : NULL;
	}
	return NULL;
}

/* Visits the lines of a zone block whose first word is field: adds the
 * number after it to *sum and counts them; stops after the first when
 * first_only. Returns the lines found (0: none; -1: one did not parse). */
static int zoneinfo_lines(const char *text, const char *zone, const char *field,
			  bool first_only, uint64_t *sum)
{
	const char *p = zoneinfo_block(text, zone), *eol;
	size_t n = strlen(field);
	int found = 0;

	*sum = 0;
	for (; p && *p && strncmp(p, "Node", 4) != 0; p = (eol = strchr(p, '\n')) ? eol + 1 : NULL) {
		const char *w = p;
		uint64_t v;

		while (*w == ' ')
			w++;
		if (strncmp(w, field, n) != 0 || w[n] != ' ')
			continue;
		if (sscanf(w + n, "%" SCNu64, &v) != 1)
			return -1;
		*sum += v;
		found++;
		if (first_only)
			break;
	}
	return found;
}

int cp_zoneinfo_field(const char *text, const char *zone, const char *field, uint64_t *v)
{
	uint64_t x;

	if (zoneinfo_lines(text, zone, field, true, &x) != 1)
		return -CP_ENOENT;
	*v = x;
	return 0;
}

int cp_zoneinfo_watermarks(const char *text, const char *zone, uint64_t *free_pages,
			   uint64_t *boost, uint64_t *boosted_min)
{
	if (cp_zoneinfo_field(text, zone, "pages free", free_pages) ||
	    cp_zoneinfo_field(text, zone, "boost", boost) ||
	    cp_zoneinfo_field(text, zone, "min", boosted_min))
		return -CP_ENOENT;
	return 0;
}

uint64_t cp_sampler_zonewatch_due(const struct cp_sampler *s)
{
	return s->next_zw_ns;
}

void cp_sampler_watch_zone(struct cp_sampler *s, uint64_t now_ns)
{
	uint64_t free_pages, boost, boosted_min;
	char *text;

	if (!s->next_zw_ns || now_ns < s->next_zw_ns)
		return;
	s->next_zw_ns += CP_ZONEWATCH_REAL_NS;
	if (s->next_zw_ns <= now_ns) /* late: no catching up */
		s->next_zw_ns = now_ns + CP_ZONEWATCH_REAL_NS;
	if (cp_kfile_read("/proc/zoneinfo", &text, NULL))
		return;
	if (cp_zoneinfo_watermarks(text, "Normal", &free_pages, &boost, &boosted_min) == 0)
		cp_zonewatch_add(&s->zw, free_pages, boost, boosted_min);
	else
		s->next_zw_ns = 0; /* this kernel has no boost line: no watch */
	cp_free(text);
}

int cp_zoneinfo_pcp_pages(const char *text, const char *zone, uint64_t *pages)
{
	uint64_t x;

	if (zoneinfo_lines(text, zone, "count:", false, &x) <= 0)
		return -CP_ENOENT;
	*pages = x;
	return 0;
}

uint64_t cp_zoneinfo_pcp_pages_all(const char *text)
{
	static const char *const zones[] = { "DMA", "DMA32", "Normal", "Movable" };
	uint64_t v, sum = 0;
	size_t i;

	for (i = 0; i < sizeof(zones) / sizeof(zones[0]); i++)
		if (cp_zoneinfo_pcp_pages(text, zones[i], &v) == 0)
			sum += v;
	return sum;
}

int cp_zoneinfo_managed(const char *text, const char *zone, uint64_t *pages)
{
	return cp_zoneinfo_field(text, zone, "managed", pages);
}

static int read_ig(const char *path, uint64_t ig[7])
{
	char *text;
	int rc;

	if (!path[0] || cp_kfile_read(path, &text, NULL))
		return -CP_ENOENT;
	rc = cp_xfs_ig_parse(text, ig);
	cp_free(text);
	return rc;
}

static int set(struct cp_run_result *r, const char *name, int64_t v, struct cp_diag *diag);

static int read_block_stat(const char *path, struct cp_block_stat *st)
{
	char *text;
	int rc;

	if (!path[0] || cp_kfile_read(path, &text, NULL))
		return -CP_ENOENT;
	rc = cp_block_stat_parse(text, st);
	cp_free(text);
	return rc;
}

/* The loop device's I/O over the measured phase: what the model's block
 * device did is set beside it (cp_device_*). */
static int record_block_stat(const struct cp_sampler *s, struct cp_run_result *r,
			     struct cp_diag *diag)
{
	struct cp_block_stat now;
	const struct cp_block_stat *b = &s->dev0;
	int rc;

	if (!s->have_dev || read_block_stat(s->block_stat, &now) ||
	    now.read_sectors < b->read_sectors || now.write_sectors < b->write_sectors ||
	    now.read_ios < b->read_ios || now.write_ios < b->write_ios ||
	    now.io_ticks_ms < b->io_ticks_ms)
		return 0; /* no device, or its counters were reset */
	rc = set(r, "device_read_bytes", (int64_t)((now.read_sectors - b->read_sectors) * 512),
		 diag);
	if (!rc)
		rc = set(r, "device_write_bytes",
			 (int64_t)((now.write_sectors - b->write_sectors) * 512), diag);
	if (!rc)
		rc = set(r, "device_read_ios", (int64_t)(now.read_ios - b->read_ios), diag);
	if (!rc)
		rc = set(r, "device_write_ios", (int64_t)(now.write_ios - b->write_ios), diag);
	if (!rc)
		rc = set(r, "device_busy_ns",
			 (int64_t)((now.io_ticks_ms - b->io_ticks_ms) * 1000000), diag);
	return rc;
}

/* First number of a /proc/sys/fs file. */
static int64_t first_number(const char *path)
{
	uint64_t v;

	return cp_kfile_read_u64(path, &v, NULL) ? -1 : (int64_t)v;
}

/* Free blocks by order when the measured phase starts (the model records
 * the same, buddyinfo_start_order_N); a kernel without the file gives
 * no counters. */
static int buddyinfo_start(struct cp_run_result *r, struct cp_diag *diag)
{
	uint64_t blocks[11];
	char *text, name[48];
	int rc = 0, o;

	if (cp_kfile_read("/proc/buddyinfo", &text, NULL))
		return 0;
	if (cp_buddyinfo_parse(text, blocks) == 0)
		for (o = 0; !rc && o < 11; o++) {
			snprintf(name, sizeof(name), "buddyinfo_start_order_%d", o);
			rc = set(r, name, (int64_t)blocks[o], diag);
		}
	cp_free(text);
	return rc;
}

/* The names the counters give the zones the model distinguishes. */
static const char *const start_zones[][2] = {
	{ "DMA", "dma" }, { "DMA32", "dma32" }, { "Normal", "normal" },
};

/* The zones the model has: their index in start_zones, enum cp_zone_type. */
static const unsigned model_zones[][2] = { { 1, CP_ZONE_DMA32 }, { 2, CP_ZONE_NORMAL } };

static int record_pageblocks(struct cp_run_result *r, const char *text, const char *prefix,
			     struct cp_diag *diag);

/* The pages on DMA32's and Normal's per-CPU lists (/proc/zoneinfo), as
 * WHEN_pcp_ZONE_pages: free memory the buddy's lists do not show. */
static int record_pcp(struct cp_run_result *r, const char *zoneinfo, const char *when,
		      struct cp_diag *diag)
{
	char name[64];
	uint64_t pages;
	size_t z;
	int rc = 0;

	for (z = 0; !rc && z < sizeof(model_zones) / sizeof(model_zones[0]); z++) {
		if (cp_zoneinfo_pcp_pages(zoneinfo, start_zones[model_zones[z][0]][0], &pages))
			continue;
		cp_pcp_counter_name(when, model_zones[z][1], name, sizeof(name));
		rc = set(r, name, (int64_t)pages, diag);
	}
	return rc;
}

/* The counters' names of the migratetypes pagetypeinfo lists first. */
static const char *const mt_names[3] = { "unmovable", "movable", "reclaimable" };

/* Free pages by zone and pageblock migratetype (/proc/pagetypeinfo) when
 * the measured phase starts, after the data files were written: which
 * free lists fs_mark's slab pages and the readers' refaults will find
 * (the model records the same, measured_free_ZONE_TYPE_pages); and each
 * zone's file LRU pages then (/proc/zoneinfo, measured_file_ZONE_pages):
 * where the files were put; and each zone's watermark boost then
 * (measured_boost_ZONE_pages): what the set-up's fallbacks left. The
 * free blocks by order too (measured_free_ZONE_TYPE_order_N): the block
 * sizes the set-up left. */
static int measured_free(struct cp_run_result *r, struct cp_diag *diag)
{
	uint64_t blocks[3][11];
	char *text, name[64];
	size_t z;
	int rc = 0, t, o;

	if (cp_kfile_read("/proc/pagetypeinfo", &text, NULL))
		return 0;
	for (z = 0; !rc && z < sizeof(model_zones) / sizeof(model_zones[0]); z++) {
		if (cp_pagetypeinfo_parse_zone(text, start_zones[model_zones[z][0]][0], blocks))
			continue;
		for (t = 0; !rc && t < 3; t++) {
			uint64_t pages = 0, half = 0;

			for (o = 0; o < 11; o++) {
				pages += blocks[t][o] << o;
				if (o >= (int)CP_MEASURED_FREE_HALF_BLOCK_ORDER)
					half += blocks[t][o] << o;
			}
			cp_measured_free_counter_name(model_zones[z][1], (unsigned)t, name, sizeof(name));
			rc = set(r, name, (int64_t)pages, diag);
			if (rc)
				break;
			cp_measured_free_half_block_counter_name(model_zones[z][1], (unsigned)t, name,
								 sizeof(name));
			rc = set(r, name, (int64_t)half, diag);
			for (o = 0; !rc && o < 11; o++) {
				cp_measured_free_order_counter_name(model_zones[z][1], (unsigned)t,
								    (unsigned)o, name, sizeof(name));
				rc = set(r, name, (int64_t)blocks[t][o], diag);
			}
		}
	}
	if (!rc)
		rc = record_pageblocks(r, text, "measured", diag);
	cp_free(text);
	if (rc || cp_kfile_read("/proc/zoneinfo", &text, NULL))
		return rc;
	for (z = 0; !rc && z < sizeof(model_zones) / sizeof(model_zones[0]); z++) {
		uint64_t active, inactive;
		const char *zn = start_zones[model_zones[z][0]][0];

		if (cp_zoneinfo_field(text, zn, "nr_zone_active_file", &active) ||
		    cp_zoneinfo_field(text, zn, "nr_zone_inactive_file", &inactive))
			continue;
		cp_measured_file_counter_name(model_zones[z][1], name, sizeof(name));
		rc = set(r, name, (int64_t)(active + inactive), diag);
	}
	for (z = 0; !rc && z < sizeof(model_zones) / sizeof(model_zones[0]); z++) {
		uint64_t boost;

		if (cp_zoneinfo_field(text, start_zones[model_zones[z][0]][0], "boost", &boost))
			continue;
		cp_measured_boost_counter_name(model_zones[z][1], name, sizeof(name));
		rc = set(r, name, (int64_t)boost, diag);
	}
	if (!rc)
		rc = record_pcp(r, text, "measured", diag);
	cp_free(text);
	return rc;
}

static int record_free_blocks(struct cp_run_result *r, const char *prefix,
			      const uint64_t blocks[3][11], struct cp_diag *diag)
{
	char name[80];
	int rc = 0, t, o;

	for (t = 0; !rc && t < 3; t++)
		for (o = 0; !rc && o < 11; o++) {
			snprintf(name, sizeof(name), "start_free_%s%s_order_%d", prefix, mt_names[t], o);
			rc = set(r, name, (int64_t)blocks[t][o], diag);
		}
	return rc;
}

/* Each zone's managed pages (/proc/zoneinfo) beside its free blocks: the
 * model computes a zone's watermarks, lowmem reserve and per-CPU list
 * sizes from them. */
static int record_zones_managed(struct cp_run_result *r, struct cp_diag *diag)
{
	char *text, name[64];
	uint64_t pages;
	size_t z;
	int rc = 0;

	if (cp_kfile_read("/proc/zoneinfo", &text, NULL))
		return 0;
	for (z = 0; !rc && z < sizeof(start_zones) / sizeof(start_zones[0]); z++)
		if (cp_zoneinfo_managed(text, start_zones[z][0], &pages) == 0) {
			snprintf(name, sizeof(name), "zone_%s_managed_pages", start_zones[z][1]);
			rc = set(r, name, (int64_t)pages, diag);
		}
	if (!rc)
		rc = record_pcp(r, text, "start", diag);
	cp_free(text);
	return rc;
}

/* /proc/pagetypeinfo's "Number of blocks type": each zone's pageblocks
 * of each migratetype, as PREFIX_pageblocks_ZONE_TYPE counters. */
static int record_pageblocks(struct cp_run_result *r, const char *text, const char *prefix,
			     struct cp_diag *diag)
{
	uint64_t nr[3];
	char name[64];
	size_t z;
	int rc = 0, t;

	for (z = 0; !rc && z < sizeof(model_zones) / sizeof(model_zones[0]); z++) {
		if (cp_pagetypeinfo_parse_pageblocks(text, start_zones[model_zones[z][0]][0], nr))
			continue;
		for (t = 0; !rc && t < 3; t++) {
			cp_pageblocks_counter_name(prefix, model_zones[z][1], (unsigned)t, name,
						   sizeof(name));
			rc = set(r, name, (int64_t)nr[t], diag);
		}
	}
	return rc;
}

int cp_sampler_record_start_free(struct cp_run_result *r, struct cp_diag *diag)
{
	uint64_t blocks[3][11];
	char *text, prefix[16];
	size_t z;
	int rc = 0;

	if (cp_kfile_read("/proc/pagetypeinfo", &text, NULL))
		return 0;
	if (cp_pagetypeinfo_parse(text, blocks) == 0)
		rc = record_free_blocks(r, "", blocks, diag);
	if (!rc)
		rc = record_pageblocks(r, text, "start", diag);
	for (z = 0; !rc && z < sizeof(start_zones) / sizeof(start_zones[0]); z++)
		if (cp_pagetypeinfo_parse_zone(text, start_zones[z][0], blocks) == 0) {
			snprintf(prefix, sizeof(prefix), "%s_", start_zones[z][1]);
			rc = record_free_blocks(r, prefix, blocks, diag);
		}
	cp_free(text);
	return rc ? rc : record_zones_managed(r, diag);
}

int cp_slabinfo_parse(const char *text, const char *name, struct cp_slabinfo *out)
{
	size_t len = strlen(name);
	const char *p = text;

	while (p && *p) {
		const char *eol = strchr(p, '\n');

		if (strncmp(p, name, len) == 0 && (p[len] == ' ' || p[len] == '\t')) {
			unsigned long long active, num, size, per, pages;

			if (sscanf(p + len, " %llu %llu %llu %llu %llu", &active, &num, &size, &per,
				   &pages) != 5 ||
			    !size || !per || !pages)
				return -CP_EINVAL;
			out->object_size = size;
			out->objects_per_slab = per;
			out->pages_per_slab = pages;
			return 0;
		}
		p = eol ? eol + 1 : NULL;
	}
	return -CP_ENOENT;
}

int cp_sampler_record_slabs(struct cp_run_result *r, enum cp_fs_kind fs, struct cp_diag *diag)
{
	const struct cp_fs_profile *b = cp_fs_profile_find(cp_fs_name(fs));
	char *text, name[64];
	int role, rc = 0;

	if (cp_kfile_read("/proc/slabinfo", &text, NULL))
		return 0;
	for (role = 0; !rc && role < CP_FS_NR_SLABS; role++) {
		const struct cp_slab_geometry *g = cp_fs_profile_slab(b, role);
		const char *what = cp_fs_slab_role_name(role);
		struct cp_slabinfo si;

		if (!g->objects_per_slab || cp_slabinfo_parse(text, g->name, &si) != 0)
			continue; /* ext4 has no log item */
		snprintf(name, sizeof(name), "cp_slab_%s_object_size", what);
		rc = set(r, name, (int64_t)si.object_size, diag);
		snprintf(name, sizeof(name), "cp_slab_%s_objects_per_slab", what);
		if (!rc)
			rc = set(r, name, (int64_t)si.objects_per_slab, diag);
		snprintf(name, sizeof(name), "cp_slab_%s_pages_per_slab", what);
		if (!rc)
			rc = set(r, name, (int64_t)si.pages_per_slab, diag);
	}
	cp_free(text);
	return rc;
}

int cp_proc_stat_cpu_ticks(const char *stat, uint64_t *ticks)
{
	/* the comm may hold spaces and parentheses: fields count from the
	 * last ')'; state is field 3, utime 14, stime 15 */
	const char *p = strrchr(stat, ')');
	unsigned long long utime, stime;

	if (!p || sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &utime,
			 &stime) != 2)
		return -CP_EINVAL;
	*ticks = utime + stime;
	return 0;
}

/* CPU time of every kswapdN thread (one per node), in clock ticks. */
/* The kernel threads whose CPU time a run reports, by comm prefix
 * (kswapd0, kswapd1, ...; kcompactd0, ...): CP_KTHREAD_* index both. */
static const char *const kthread_prefix[CP_NR_KTHREADS] = { "kswapd", "kcompactd" };

int cp_proc_schedstat_run_delay(const char *schedstat, uint64_t *ns)
{
	unsigned long long oncpu, delay, slices;

	if (sscanf(schedstat, "%llu %llu %llu", &oncpu, &delay, &slices) != 3)
		return -CP_EINVAL;
	*ns = delay;
	return 0;
}

/* The run_delay of /proc/<pid>/schedstat into *ns; false if unreadable
 * (a kernel without CONFIG_SCHED_INFO has no such file). */
static bool pid_run_delay(const char *pid, uint64_t *ns)
{
	char path[300], *text = NULL;
	bool ok;

	snprintf(path, sizeof(path), "/proc/%s/schedstat", pid);
	if (cp_kfile_read(path, &text, NULL))
		return false;
	ok = cp_proc_schedstat_run_delay(text, ns) == 0;
	cp_free(text);
	return ok;
}

/* utime + stime of every kernel thread of each kthread_prefix[], in one
 * walk of /proc, and their run_delay; found[k], delay_found[k]: some
 * thread of prefix k was there, with a schedstat. */
static void kthread_times(uint64_t ticks[CP_NR_KTHREADS], bool found[CP_NR_KTHREADS],
			      uint64_t delay[CP_NR_KTHREADS], bool delay_found[CP_NR_KTHREADS])
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	size_t k;

	for (k = 0; k < CP_NR_KTHREADS; k++) {
		ticks[k] = delay[k] = 0;
		found[k] = delay_found[k] = false;
	}
	if (!d)
		return;
	while ((de = readdir(d)) != NULL) {
		char path[300], *text = NULL;
		const char *comm;
		uint64_t t;

		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", de->d_name);
		if (cp_kfile_read(path, &text, NULL))
			continue;
		comm = strchr(text, '(') ? strchr(text, '(') + 1 : "";
		for (k = 0; k < CP_NR_KTHREADS; k++)
			if (strncmp(comm, kthread_prefix[k], strlen(kthread_prefix[k])) == 0 &&
			    cp_proc_stat_cpu_ticks(text, &t) == 0) {
				ticks[k] += t;
				found[k] = true;
				if (pid_run_delay(de->d_name, &t)) {
					delay[k] += t;
					delay_found[k] = true;
				}
			}
		cp_free(text);
	}
	closedir(d);
}

int cp_proc_stat_busy_ticks(const char *proc_stat, uint64_t *ticks)
{
	unsigned long long v[7]; /* user nice system idle iowait irq softirq */

	if (strncmp(proc_stat, "cpu ", 4) != 0 ||
	    sscanf(proc_stat + 4, "%llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
		   &v[4], &v[5], &v[6]) != 7)
		return -CP_EINVAL;
	*ticks = (uint64_t)v[0] + v[1] + v[2] + v[5] + v[6];
	return 0;
}

static int busy_ticks(uint64_t *ticks)
{
	char *text = NULL;
	int rc = cp_kfile_read("/proc/stat", &text, NULL);

	if (!rc)
		rc = cp_proc_stat_busy_ticks(text, ticks);
	cp_free(text);
	return rc;
}

static uint64_t ticks_ns(uint64_t ticks)
{
	long hz = sysconf(_SC_CLK_TCK);

	return hz > 0 ? ticks * (1000000000ull / (uint64_t)hz) : 0;
}

int cp_proc_busy_ns(uint64_t *ns)
{
	uint64_t ticks;
	int rc = busy_ticks(&ticks);

	if (!rc)
		*ns = ticks_ns(ticks);
	return rc;
}

int cp_sampler_begin(struct cp_sampler *s, enum cp_confine confine, const struct cp_cgroup *cg,
		     const char *loopdev, uint64_t t0_ns, struct cp_run_result *r,
		     struct cp_diag *diag)
{
	const char *const *cols;
	size_t nr;
	int rc;

	memset(s, 0, sizeof(*s));
	s->confine = confine;
	s->cg = confine == CP_CONFINE_MEMCG ? cg : NULL;
	s->t0_ns = t0_ns;
	if (confine == CP_CONFINE_MEMCG && !cg)
		return cp_diag_set(diag, -CP_EINVAL, "memcg sampling without a cgroup");
	if (loopdev && strncmp(loopdev, "/dev/", 5) == 0) {
		snprintf(s->xfs_stats, sizeof(s->xfs_stats), "/sys/fs/xfs/%s/stats/stats",
			 loopdev + 5);
		snprintf(s->block_stat, sizeof(s->block_stat), "/sys/block/%s/stat", loopdev + 5);
	}
	s->have_ig = read_ig(s->xfs_stats, s->ig0) == 0;
	s->have_dev = read_block_stat(s->block_stat, &s->dev0) == 0;
	kthread_times(s->kthread_ticks0, s->have_kthread_cpu, s->kthread_delay0,
			  s->have_kthread_delay);
	s->have_busy = busy_ticks(&s->busy_ticks0) == 0;
	if (confine == CP_CONFINE_GLOBAL)
		s->next_zw_ns = t0_ns ? t0_ns : 1;
	cols = cp_sampler_columns(confine, cg ? cg->version : 0, &nr);
	if (!r->series.columns) {
		rc = cp_series_set_columns(&r->series, cols, nr);
		if (rc)
			return cp_diag_set(diag, rc, "series columns: %s", cp_strerror(rc));
	}
	rc = cp_kv_read("/proc/vmstat", &s->vm0, diag);
	if (rc)
		return rc;
	rc = buddyinfo_start(r, diag);
	if (!rc)
		rc = measured_free(r, diag);
	if (rc) {
		cp_sampler_release(s);
		return rc;
	}
	if (s->cg) {
		rc = cp_cgroup_read_stat(s->cg, &s->memcg0, diag);
		if (rc) {
			cp_sampler_release(s);
			return rc;
		}
	}
	return 0;
}

static int64_t kv_or(const struct cp_kv *kv, const char *name)
{
	int64_t v;

	return cp_kv_get(kv, name, &v) ? -1 : v;
}

void cp_sampler_add_reader(struct cp_sampler *s, pid_t pid)
{
	if (s->nr_readers < CP_SAMPLER_MAX_READERS)
		s->readers[s->nr_readers++] = pid;
}

/* The last two columns: the CPUs' busy time since the sampler began
 * (/proc/stat), and the readers' utime + stime (/proc/PID/stat; they
 * started after it began); -1 where unreadable. */
static void cpu_columns(const struct cp_sampler *s, int64_t out[2])
{
	uint64_t ticks, sum = 0;
	size_t i;

	out[0] = s->have_busy && busy_ticks(&ticks) == 0 ? (int64_t)ticks_ns(ticks - s->busy_ticks0)
							 : -1;
	for (i = 0; i < s->nr_readers; i++) {
		char path[64], *text = NULL;
		uint64_t t;

		snprintf(path, sizeof(path), "/proc/%d/stat", (int)s->readers[i]);
		if (cp_kfile_read(path, &text, NULL) == 0 && cp_proc_stat_cpu_ticks(text, &t) == 0)
			sum += t;
		cp_free(text);
	}
	out[1] = (int64_t)ticks_ns(sum);
}

int cp_sampler_sample(struct cp_sampler *s, uint64_t now_ns, struct cp_run_result *r,
		      struct cp_diag *diag)
{
	int64_t row[NR_COLS_GLOBAL];
	struct cp_kv kv = { 0 };
	int rc;

	row[0] = (int64_t)(now_ns - s->t0_ns);
	row[6] = first_number("/proc/sys/fs/dentry-state");
	row[7] = first_number("/proc/sys/fs/inode-nr");
	if (s->confine == CP_CONFINE_GLOBAL) {
		rc = cp_kv_read("/proc/meminfo", &kv, diag);
		if (rc)
			return rc;
		row[1] = kv_or(&kv, "MemFree");
		row[2] = kv_or(&kv, "Cached");
		row[3] = kv_or(&kv, "Active(file)");
		row[4] = kv_or(&kv, "Inactive(file)");
		row[5] = kv_or(&kv, "SReclaimable");
		row[11] = kv_or(&kv, "SUnreclaim");
		zone_columns(&row[8]);
		vmstat_columns(s, &row[NR_COLS_GLOBAL - 4]);
		cpu_columns(s, &row[NR_COLS_GLOBAL - 2]);
	} else {
		uint64_t v;

		rc = cp_cgroup_read_stat(s->cg, &kv, diag);
		if (rc)
			return rc;
		row[1] = cp_cgroup_read_u64(s->cg, "usage", &v, NULL) ? -1 : (int64_t)v;
		if (s->cg->version == 2) {
			row[2] = kv_or(&kv, "slab_reclaimable");
			row[3] = kv_or(&kv, "file");
		} else {
			row[2] = cp_cgroup_read_u64(s->cg, "kmem", &v, NULL) ? -1 : (int64_t)v;
			row[3] = kv_or(&kv, "cache");
		}
		row[4] = kv_or(&kv, "active_file");
		row[5] = kv_or(&kv, "inactive_file");
		vmstat_columns(s, &row[NR_COLS_MEMCG - 4]);
		cpu_columns(s, &row[NR_COLS_MEMCG - 2]);
	}
	cp_kv_release(&kv);
	rc = cp_series_add_row(&r->series, row);
	if (rc)
		return cp_diag_set(diag, rc, "series: %s", cp_strerror(rc));
	return 0;
}

static int wanted_vmstat(const char *name)
{
	static const char *const exact[] = { "nr_slab_reclaimable", "slabs_scanned",
					     "kswapd_inodesteal",   "pginodesteal",
					     "pageoutrun",	    "pgpgin",
					     "kswapd_low_wmark_hit_quickly",
					     "kswapd_high_wmark_hit_quickly",
					     "drop_slab",	    "pgrefill",
					     "pgactivate",	    "pgdeactivate" };
	static const char *const prefix[] = { "pgscan_",  "pgsteal_",   "workingset_",
					      "allocstall_", "pgskip_", "pgalloc_",
					      "compact_", "pgmigrate_" };
	size_t i;

	if (strcmp(name, "workingset_nodes") == 0) /* a gauge, not an event */
		return 0;
	for (i = 0; i < sizeof(exact) / sizeof(exact[0]); i++)
		if (strcmp(name, exact[i]) == 0)
			return 1;
	for (i = 0; i < sizeof(prefix) / sizeof(prefix[0]); i++)
		if (strncmp(name, prefix[i], strlen(prefix[i])) == 0)
			return 1;
	return 0;
}

/* PREFIX + name = now - before of each vmstat counter the run reports
 * (wanted_vmstat) that both snapshots hold. 0 or the error of set(). */
static int record_vmstat_deltas(struct cp_run_result *r, const struct cp_kv *now,
				const struct cp_kv *before, const char *prefix, struct cp_diag *diag)
{
	char name[96];
	size_t i;
	int rc = 0;

	for (i = 0; !rc && i < now->nr; i++) {
		int64_t v0;

		if (!wanted_vmstat(now->e[i].name) || cp_kv_get(before, now->e[i].name, &v0))
			continue;
		snprintf(name, sizeof(name), "%s%s", prefix, now->e[i].name);
		rc = set(r, name, now->e[i].value - v0, diag);
	}
	return rc;
}

/* Event counters of memory.stat (not sizes). */
static int wanted_memcg(const char *name)
{
	static const char *const prefix[] = { "pgscan", "pgsteal", "workingset_", "pgpgin",
					      "pgpgout", "pgmajfault", "pgrefill",
					      "pgactivate", "pgdeactivate" };
	size_t i;

	if (strncmp(name, "total_", 6) == 0 || strcmp(name, "workingset_nodes") == 0)
		return 0;
	for (i = 0; i < sizeof(prefix) / sizeof(prefix[0]); i++)
		if (strncmp(name, prefix[i], strlen(prefix[i])) == 0)
			return 1;
	return 0;
}

static int set(struct cp_run_result *r, const char *name, int64_t v, struct cp_diag *diag)
{
	int rc = cp_run_result_set_counter(r, name, v);

	return rc ? cp_diag_set(diag, rc, "counter %s: %s", name, cp_strerror(rc)) : 0;
}

static int memcg_end(struct cp_sampler *s, struct cp_run_result *r, struct cp_diag *diag)
{
	struct cp_kv kv = { 0 };
	char name[128];
	uint64_t v;
	size_t i;
	int rc;

	rc = cp_cgroup_read_stat(s->cg, &kv, diag);
	if (rc)
		return rc;
	for (i = 0; !rc && i < kv.nr; i++) {
		int64_t before;

		if (!wanted_memcg(kv.e[i].name) || cp_kv_get(&s->memcg0, kv.e[i].name, &before))
			continue;
		snprintf(name, sizeof(name), "memcg_%s", kv.e[i].name);
		rc = set(r, name, kv.e[i].value - before, diag);
	}
	cp_kv_release(&kv);
	if (rc)
		return rc;
	if (!cp_cgroup_read_u64(s->cg, "failcnt", &v, NULL))
		rc = set(r, "memcg_failcnt", (int64_t)v, diag);
	if (!rc && !cp_cgroup_read_u64(s->cg, "max_usage", &v, NULL))
		rc = set(r, "memcg_max_usage_bytes", (int64_t)v, diag);
	if (!rc) {
		char path[CP_CGROUP_PATH_MAX + 64];
		int64_t oom;

		/* v1 memory.oom_control and v2 memory.events both have oom_kill */
		if (!cp_cgroup_file(s->cg, s->cg->version == 2 ? "events" : "oom", path,
				    sizeof(path)) &&
		    !cp_kv_read(path, &kv, NULL)) {
			if (!cp_kv_get(&kv, "oom_kill", &oom))
				rc = set(r, "memcg_oom_kill", oom, diag);
			cp_kv_release(&kv);
		}
	}
	return rc;
}

int cp_sampler_end(struct cp_sampler *s, struct cp_run_result *r, struct cp_diag *diag)
{
	static const char *const ig_names[7] = { "xfs_ig_attempts", "xfs_ig_found",
						 "xfs_ig_frecycle", "xfs_ig_missed",
						 "xfs_ig_dup",	    "xfs_ig_reclaims",
						 "xfs_ig_attrchg" };
	static const char *const kthread_counter[CP_NR_KTHREADS] = { "kswapd_cpu_ns",
								      "kcompactd_cpu_ns" };
	static const char *const kthread_delay_counter[CP_NR_KTHREADS] = {
		"kswapd_run_delay_ns", "kcompactd_run_delay_ns"
	};
	struct cp_kv vm = { 0 };
	uint64_t ig[7], ticks, kt[CP_NR_KTHREADS], kd[CP_NR_KTHREADS];
	bool kt_found[CP_NR_KTHREADS], kd_found[CP_NR_KTHREADS];
	size_t i, k;
	int64_t v;
	int rc;

	rc = cp_kv_read("/proc/vmstat", &vm, diag);
	if (rc)
		return rc;
	rc = record_vmstat_deltas(r, &vm, &s->vm0, "", diag);
	if (!rc && !cp_kv_get(&vm, "nr_slab_reclaimable", &v))
		rc = set(r, "nr_slab_reclaimable_end", v, diag);
	cp_kv_release(&vm);
	if (!rc && (v = first_number("/proc/sys/fs/dentry-state")) >= 0)
		rc = set(r, "nr_dentry_end", v, diag);
	if (!rc && (v = first_number("/proc/sys/fs/inode-nr")) >= 0)
		rc = set(r, "nr_inodes_end", v, diag);
	if (!rc && s->have_ig && read_ig(s->xfs_stats, ig) == 0)
		for (i = 0; !rc && i < 7; i++)
			rc = set(r, ig_names[i], (int64_t)(ig[i] - s->ig0[i]), diag);
	kthread_times(kt, kt_found, kd, kd_found);
	for (k = 0; !rc && k < CP_NR_KTHREADS; k++) {
		if (s->have_kthread_cpu[k] && kt_found[k] && kt[k] >= s->kthread_ticks0[k])
			rc = set(r, kthread_counter[k], (int64_t)ticks_ns(kt[k] - s->kthread_ticks0[k]),
				 diag);
		if (!rc && s->have_kthread_delay[k] && kd_found[k] && kd[k] >= s->kthread_delay0[k])
			rc = set(r, kthread_delay_counter[k], (int64_t)(kd[k] - s->kthread_delay0[k]),
				 diag);
	}
	if (!rc && s->have_busy && busy_ticks(&ticks) == 0 && ticks >= s->busy_ticks0)
		rc = set(r, "cpu_busy_ns", (int64_t)ticks_ns(ticks - s->busy_ticks0), diag);
	if (!rc)
		rc = record_block_stat(s, r, diag);
	if (!rc && s->zw.samples) {
		rc = cp_zonewatch_counters(&s->zw, r);
		if (rc)
			rc = cp_diag_set(diag, rc, "zone watch counters: %s", cp_strerror(rc));
	}
	if (!rc && s->cg)
		rc = memcg_end(s, r, diag);
	return rc;
}

int cp_sampler_record_setup(struct cp_run_result *r, const struct cp_kv *before,
			    struct cp_diag *diag)
{
	struct cp_kv vm = { 0 };
	int rc;

	if (!before->nr || cp_kv_read("/proc/vmstat", &vm, NULL))
		return 0;
	rc = record_vmstat_deltas(r, &vm, before, "setup_", diag);
	cp_kv_release(&vm);
	return rc;
}

void cp_sampler_release(struct cp_sampler *s)
{
	cp_kv_release(&s->vm0);
	cp_kv_release(&s->memcg0);
}
