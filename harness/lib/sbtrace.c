/*
 * sbtrace.c - a tracefs instance of the run's own that counts what the
 * superblock shrinker frees (sbtrace.h).
 */
#include "sbtrace.h"

#include <cachepressure/error.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/alloc.h"
#include "kfile.h"
#include "model/vmscan.h"

static const char *const tracefs_mounts[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };

#define EVENT "events/vmscan/mm_shrink_slab_end"
#define EXTFRAG_EVENT "events/kmem/mm_page_alloc_extfrag"
#define FILTER "shrink.function == super_cache_scan && retval > 0"
/* the superblock shrinker's calls at a deep reclaim priority */
#define DEEP_EVENT "events/vmscan/mm_shrink_slab_start"
/* memory-cgroup reclaim entries (try_to_free_mem_cgroup_pages) and,
 * per_reclaim, their ends */
#define MEMCG_EVENT "events/vmscan/mm_vmscan_memcg_reclaim_begin"
#define MEMCG_END_EVENT "events/vmscan/mm_vmscan_memcg_reclaim_end"
#define STRINGIFY(x) #x
#define XSTRINGIFY(x) STRINGIFY(x)
#define DEEP_FILTER \
	"shrink.function == super_cache_scan && priority <= " XSTRINGIFY(CP_SBTRACE_DEEP_PRIORITY)
#define ALL_PRIORITIES_FILTER "shrink.function == super_cache_scan"
/* an open reclaim's lowest and last priority before its first
 * superblock call: above DEF_PRIORITY */
#define NO_PRIORITY (CP_DEF_PRIORITY + 1)

/* The readahead events of cp_sbtrace_watch_files(); the last one traces
 * only folios of order 1 or more. */
static const char *const ra_events[] = {
	"events/readahead/page_cache_sync_ra",
	"events/readahead/page_cache_async_ra",
	"events/filemap/mm_filemap_add_to_page_cache",
};
#define NR_RA_EVENTS (sizeof(ra_events) / sizeof(ra_events[0]))

/* root/instances into buf when root is a tracefs with the event. */
static bool has_instances(const char *root, char *buf, size_t len)
{
	char ev[CP_SBTRACE_PATH_MAX];
	struct stat st;

	snprintf(ev, sizeof(ev), "%s/" EVENT "/enable", root);
	snprintf(buf, len, "%s/instances", root);
	return stat(ev, &st) == 0 && stat(buf, &st) == 0 && S_ISDIR(st.st_mode);
}

/* TRACEFS/instances of the first system mount that has the event. */
static bool find_instances(char *buf, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(tracefs_mounts) / sizeof(tracefs_mounts[0]); i++)
		if (has_instances(tracefs_mounts[i], buf, len))
			return true;
	return false;
}

/* own_mount is an absolute path whose last component is ours. */
static bool own_mount_is_ours(const char *own_mount)
{
	return own_mount[0] == '/' && strncmp(strrchr(own_mount, '/') + 1, CP_SBTRACE_PREFIX,
					      strlen(CP_SBTRACE_PREFIX)) == 0;
}

/* /proc/filesystems lists tracefs (the kernel can mount one). */
static bool kernel_has_tracefs(void)
{
	char *text = NULL;
	bool yes;

	if (cp_kfile_read("/proc/filesystems", &text, NULL))
		return false;
	yes = strstr(text, "\ttracefs\n") != NULL;
	cp_free(text);
	return yes;
}

/* A tracefs of the run's own on the new directory own_mount. */
static int mount_own_tracefs(struct cp_sbtrace *t, const char *own_mount, struct cp_diag *diag)
{
	if (!kernel_has_tracefs())
		return cp_diag_set(diag, -CP_ENOENT, "no tracefs in this kernel");
	/* room for the mount point and, in the instance path, "/instances" */
	if (strlen(own_mount) + strlen("/instances") >= sizeof(t->mnt))
		return cp_diag_set(diag, -CP_EINVAL, "tracefs mount point %s: path too long",
				   own_mount);
	if (mkdir(own_mount, 0700)) {
		int e = errno;

		return cp_diag_set(diag, e == EEXIST ? -CP_EBUSY : -CP_ESYS, "mkdir %s: %s",
				   own_mount, strerror(e));
	}
	snprintf(t->mnt, sizeof(t->mnt), "%s", own_mount);
	t->mnt_made = true;
	if (mount("tracefs", own_mount, "tracefs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL))
		return cp_diag_set(diag, -CP_ESYS, "mount tracefs on %s: %s", own_mount,
				   strerror(errno));
	t->mounted = true;
	return 0;
}

static int write_file(const struct cp_sbtrace *t, const char *file, const char *text,
		      struct cp_diag *diag)
{
	char path[CP_SBTRACE_PATH_MAX + 128];

	snprintf(path, sizeof(path), "%s/%s", t->path, file);
	return cp_kfile_write(path, text, diag);
}

int cp_sbtrace_create(struct cp_sbtrace *t, const char *name, unsigned buffer_kb,
		      bool per_reclaim, const char *own_mount, struct cp_diag *diag)
{
	char inst[CP_SBTRACE_PATH_MAX - 128], kb[32];
	int rc;

	memset(t, 0, sizeof(*t));
	if (strncmp(name, CP_SBTRACE_PREFIX, strlen(CP_SBTRACE_PREFIX)) != 0 || strchr(name, '/') ||
	    strlen(name) > 100)
		return cp_diag_set(diag, -CP_EINVAL, "trace instance name '%s' is not ours", name);
	if (own_mount && !own_mount_is_ours(own_mount))
		return cp_diag_set(diag, -CP_EINVAL, "tracefs mount point '%s' is not ours",
				   own_mount);
	if (!find_instances(inst, sizeof(inst))) {
		if (!own_mount)
			return cp_diag_set(diag, -CP_ENOENT, "no tracefs with " EVENT);
		rc = mount_own_tracefs(t, own_mount, diag);
		if (rc)
			return rc;
		if (!has_instances(t->mnt, inst, sizeof(inst)))
			return cp_diag_set(diag, -CP_ENOENT, "no " EVENT " in tracefs");
	}
	snprintf(t->path, sizeof(t->path), "%s/%s", inst, name);
	if (mkdir(t->path, 0700)) {
		int e = errno;

		return cp_diag_set(diag, e == EEXIST ? -CP_EBUSY : -CP_ESYS, "mkdir %s: %s", t->path,
				   strerror(e));
	}
	t->created = true;
	snprintf(kb, sizeof(kb), "%u", buffer_kb);
	rc = write_file(t, "tracing_on", "0", diag);
	if (!rc)
		rc = write_file(t, "buffer_size_kb", kb, diag);
	/* the default "local" clock is per CPU: a task's events on two CPUs
	 * could read out of order; where "global" is missing, local it is */
	if (!rc)
		(void)write_file(t, "trace_clock", "global", NULL);
	if (!rc)
		rc = write_file(t, EVENT "/filter", FILTER, diag);
	if (!rc)
		rc = write_file(t, EVENT "/enable", "1", diag);
	/* the fallbacks, where the kernel has the event */
	if (!rc && write_file(t, EXTFRAG_EVENT "/enable", "1", NULL) == 0)
		t->extfrag = true;
	/* the deep calls: the event has a priority field since 4.16 */
	if (!rc &&
	    write_file(t, DEEP_EVENT "/filter", per_reclaim ? ALL_PRIORITIES_FILTER : DEEP_FILTER,
		       NULL) == 0 &&
	    write_file(t, DEEP_EVENT "/enable", "1", NULL) == 0)
		t->deep = true;
	if (!rc && write_file(t, MEMCG_EVENT "/enable", "1", NULL) == 0)
		t->memcg = true;
	if (!rc && per_reclaim && t->deep && t->memcg &&
	    write_file(t, MEMCG_END_EVENT "/enable", "1", NULL) == 0)
		t->per_reclaim = true;
	return rc;
}

static void ra_events_off(const struct cp_sbtrace *t)
{
	char file[96];
	size_t i;

	for (i = 0; i < NR_RA_EVENTS; i++) {
		snprintf(file, sizeof(file), "%s/enable", ra_events[i]);
		(void)write_file(t, file, "0", NULL);
	}
}

int cp_sbtrace_watch_files(struct cp_sbtrace *t, const uint64_t *inos, size_t n,
			   struct cp_diag *diag)
{
	/* "i_ino == N || ..." for each file: 20 digits and 14 more each */
	char inofilter[CP_SBTRACE_MAX_FILES * 36 + 8], folios[sizeof(inofilter) + 32];
	char file[96], path[CP_SBTRACE_PATH_MAX + 128];
	size_t i, used = 0;
	struct stat st;
	int rc = 0;

	if (n == 0 || n > CP_SBTRACE_MAX_FILES)
		return cp_diag_set(diag, -CP_EINVAL, "%zu files to watch (1 to %d)", n,
				   CP_SBTRACE_MAX_FILES);
	for (i = 0; i < NR_RA_EVENTS; i++) {
		snprintf(path, sizeof(path), "%s/%s/enable", t->path, ra_events[i]);
		if (stat(path, &st))
			return cp_diag_set(diag, -CP_ENOENT, "no %s in tracefs", ra_events[i]);
	}
	inofilter[0] = '\0';
	for (i = 0; i < n; i++)
		used += (size_t)snprintf(inofilter + used, sizeof(inofilter) - used, "%si_ino == %" PRIu64,
					 i ? " || " : "", inos[i]);
	/* the page-cache insertions: large folios only */
	snprintf(folios, sizeof(folios), "(%s) && order > 0", inofilter);
	for (i = 0; i < NR_RA_EVENTS && !rc; i++) {
		snprintf(file, sizeof(file), "%s/filter", ra_events[i]);
		rc = write_file(t, file, i == NR_RA_EVENTS - 1 ? folios : inofilter, diag);
		if (!rc) {
			snprintf(file, sizeof(file), "%s/enable", ra_events[i]);
			rc = write_file(t, file, "1", diag);
		}
	}
	if (rc) {
		ra_events_off(t);
		return rc;
	}
	t->watching = true;
	return 0;
}

static int clear_and_start(struct cp_sbtrace *t, struct cp_diag *diag)
{
	/* an empty write to "trace" clears the instance's buffer */
	int rc = write_file(t, "trace", "", diag);

	return rc ? rc : write_file(t, "tracing_on", "1", diag);
}

int cp_sbtrace_begin_setup(struct cp_sbtrace *t, struct cp_diag *diag)
{
	int rc = clear_and_start(t, diag);

	t->setup_on = rc == 0;
	return rc;
}

int cp_sbtrace_begin(struct cp_sbtrace *t, struct cp_diag *diag)
{
	if (t->setup_on) {
		int rc = cp_sbtrace_end(t, &t->setup, diag);

		t->setup_on = false;
		if (rc)
			return rc;
	}
	return clear_and_start(t, diag);
}

/* A fallback's line (kmem:mm_page_alloc_extfrag); false for others. */
static bool add_extfrag_line(const char *line, struct cp_sbtrace_sum *sum)
{
	const char *p = strstr(line, " mm_page_alloc_extfrag: "), *mt, *own;

	if (!p)
		return false;
	sum->extfrag++;
	own = strstr(p, " change_ownership=");
	if (own && strtol(own + strlen(" change_ownership="), NULL, 10) == 1) {
		sum->extfrag_claim++;
		mt = strstr(p, " alloc_migratetype=");
		if (mt && strtol(mt + strlen(" alloc_migratetype="), NULL, 10) == 1)
			sum->extfrag_claim_movable++;
	}
	return true;
}

/* A readahead event's line (cp_sbtrace_watch_files); false for others. */
static bool add_ra_line(const char *line, struct cp_sbtrace_sum *sum)
{
	const char *p, *o;
	unsigned long order;

	if (strstr(line, " page_cache_sync_ra: ")) {
		sum->ra_sync++;
		return true;
	}
	if (strstr(line, " page_cache_async_ra: ")) {
		sum->ra_async++;
		return true;
	}
	p = strstr(line, " mm_filemap_add_to_page_cache: ");
	if (!p)
		return false;
	o = strstr(p, " order=");
	if (o) {
		order = strtoul(o + strlen(" order="), NULL, 10);
		if (order >= 6 && order < 64)
			sum->ra_pages_6to9 += 1ull << order;
		else if (order >= 1 && order < 6)
			sum->ra_pages_2to5 += 1ull << order;
	}
	return true;
}

/* Whether the event's "gfp_flags" carry __GFP_FS. The kernel prints
 * them with __print_flags() and its table of names (show_gfp_flags):
 * a composite is printed when all its bits are set, so __GFP_FS shows as
 * GFP_KERNEL (and _ACCOUNT), GFP_USER, GFP_HIGHUSER(_MOVABLE),
 * GFP_TRANSHUGE(_LIGHT) or __GFP_FS itself; GFP_NOFS and GFP_NOIO lack
 * it. */
static bool gfp_has_fs(const char *event)
{
	static const char *const with_fs[] = { "GFP_KERNEL", "GFP_USER", "GFP_HIGHUSER",
					       "GFP_TRANSHUGE", "__GFP_FS" };
	const char *g = strstr(event, "gfp_flags"), *end;
	size_t i, len;

	if (!g)
		return false;
	g += strlen("gfp_flags");
	if (*g != ' ' && *g != '=') /* "gfp_flags X" or "gfp_flags=X" */
		return false;
	g++;
	end = strchr(g, ' ');
	len = end ? (size_t)(end - g) : strlen(g);
	for (i = 0; i < sizeof(with_fs) / sizeof(with_fs[0]); i++) {
		const char *f = g;

		while ((f = strstr(f, with_fs[i])) != NULL && f < g + len) {
			/* a whole name: starts the list or follows '|' */
			if (f == g || f[-1] == '|')
				return true;
			f++;
		}
	}
	return false;
}

/* The task of a trace line, "COMM-PID [CPU] ...": the digits before the
 * first " [" that a CPU number and ']' follow (COMM may hold '-' and
 * spaces); -1 if there is none. */
static long line_pid(const char *line)
{
	const char *b;

	for (b = strstr(line, " ["); b; b = strstr(b + 1, " [")) {
		const char *d = b + 2, *e = b;

		while (*d >= '0' && *d <= '9')
			d++;
		if (d == b + 2 || *d != ']')
			continue;
		while (e > line && e[-1] == ' ')
			e--;
		d = e;
		while (d > line && d[-1] >= '0' && d[-1] <= '9')
			d--;
		if (d == e || d == line || d[-1] != '-')
			return -1;
		return strtol(d, NULL, 10);
	}
	return -1;
}

static struct cp_sbtrace_open *open_reclaim(struct cp_sbtrace_sum *sum, long pid)
{
	unsigned i;

	for (i = 0; i < sum->nr_open; i++)
		if (sum->open[i].pid == pid)
			return &sum->open[i];
	return NULL;
}

/* mm_vmscan_memcg_reclaim_begin opens the task's reclaim; a begin on a
 * task with one open (its end lost) starts it afresh. */
static void memcg_reclaim_begin(struct cp_sbtrace_sum *sum, long pid, bool fs)
{
	struct cp_sbtrace_open *o = open_reclaim(sum, pid);

	if (!o) {
		if (pid < 0 || sum->nr_open == CP_SBTRACE_OPEN_MAX) {
			sum->memcg_unpaired++;
			return;
		}
		o = &sum->open[sum->nr_open++];
	}
	*o = (struct cp_sbtrace_open){ .pid = pid, .lowest = NO_PRIORITY, .last = NO_PRIORITY,
					.fs = fs };
}

/* mm_vmscan_memcg_reclaim_end closes it: its pages, how deep it went,
 * how often its walk began again from DEF_PRIORITY. */
static void memcg_reclaim_end(struct cp_sbtrace_sum *sum, long pid, const char *event)
{
	static const char nr[] = "nr_reclaimed=";
	struct cp_sbtrace_open *o = open_reclaim(sum, pid);
	const char *v = strstr(event, nr);
	uint64_t pages;
	bool prio12, deep;

	if (!o) {
		sum->memcg_unpaired++;
		return;
	}
	pages = v ? strtoull(v + strlen(nr), NULL, 10) : 0;
	prio12 = o->lowest == CP_DEF_PRIORITY && o->restarts == 0;
	deep = o->lowest <= CP_SBTRACE_DEEP_PRIORITY;
	sum->memcg_reclaimed += pages;
	sum->memcg_reclaims_prio12 += prio12;
	sum->memcg_reclaims_deep += deep;
	sum->memcg_reclaim_restarts += o->restarts;
	if (o->fs) {
		sum->memcg_reclaimed_fs += pages;
		sum->memcg_reclaims_fs_prio12 += prio12;
		sum->memcg_reclaims_fs_deep += deep;
	}
	*o = sum->open[--sum->nr_open];
}

/* A superblock call inside a task's memcg reclaim: a step of its walk. */
static void memcg_reclaim_priority(struct cp_sbtrace_sum *sum, long pid, int prio)
{
	struct cp_sbtrace_open *o = open_reclaim(sum, pid);

	if (!o)
		return;
	if (prio == CP_DEF_PRIORITY && o->last < CP_DEF_PRIORITY)
		o->restarts++;
	if (prio < o->lowest)
		o->lowest = prio;
	o->last = prio;
}

/* A memory-cgroup reclaim's entry (vmscan:mm_vmscan_memcg_reclaim_begin:
 * "order=%d gfp_flags=%s") or end ("nr_reclaimed=%lu"); false for
 * others. */
static bool add_memcg_line(const char *line, struct cp_sbtrace_sum *sum)
{
	const char *p = strstr(line, " mm_vmscan_memcg_reclaim_begin: ");
	bool fs;

	if (!p) {
		p = strstr(line, " mm_vmscan_memcg_reclaim_end: ");
		if (!p)
			return false;
		memcg_reclaim_end(sum, line_pid(line), p);
		return true;
	}
	fs = gfp_has_fs(p);
	sum->memcg_reclaims++;
	sum->memcg_reclaims_fs += fs;
	memcg_reclaim_begin(sum, line_pid(line), fs);
	return true;
}

/* A superblock shrinker's call (vmscan:mm_shrink_slab_start, filtered on
 * priority <= 3, or on none per_reclaim): a step of a memcg reclaim's
 * walk, and a deep call at priority <= 3; false for other lines. */
static bool add_deep_line(const char *line, struct cp_sbtrace_sum *sum)
{
	static const char scan[] = " total_scan ", prio[] = " priority ";
	const char *p = strstr(line, "mm_shrink_slab_start: super_cache_scan+"), *v;
	int priority;

	if (!p)
		return false;
	v = strstr(p, prio);
	if (!v)
		return true;
	priority = (int)strtol(v + strlen(prio), NULL, 10);
	memcg_reclaim_priority(sum, line_pid(line), priority);
	if (priority > CP_SBTRACE_DEEP_PRIORITY)
		return true;
	sum->deep_calls++;
	v = strstr(p, scan);
	if (v)
		sum->deep_scan += strtoull(v + strlen(scan), NULL, 10);
	if (gfp_has_fs(p))
		sum->deep_fs_calls++;
	return true;
}

void cp_sbtrace_add_line(const char *line, struct cp_sbtrace_sum *sum)
{
	static const char ret[] = "last shrinker return val ";
	const char *p, *v;
	long freed;

	if (add_ra_line(line, sum) || add_extfrag_line(line, sum) || add_deep_line(line, sum) ||
	    add_memcg_line(line, sum))
		return;
	p = strstr(line, "mm_shrink_slab_end: super_cache_scan+");
	if (!p || !(v = strstr(p, ret)))
		return;
	sum->calls++;
	freed = strtol(v + strlen(ret), NULL, 10);
	if (freed > 0)
		sum->freed += (uint64_t)freed;
}

/* The CPUs' "overrun:" lines (per_cpu/cpuN/stats). */
static uint64_t overruns(const struct cp_sbtrace *t)
{
	uint64_t total = 0;
	unsigned cpu;

	for (cpu = 0; cpu < 4096; cpu++) {
		char path[CP_SBTRACE_PATH_MAX + 64], *text, *o;

		snprintf(path, sizeof(path), "%s/per_cpu/cpu%u/stats", t->path, cpu);
		if (cp_kfile_read(path, &text, NULL))
			break;
		o = strstr(text, "overrun: ");
		if (o)
			total += strtoull(o + strlen("overrun: "), NULL, 10);
		cp_free(text);
	}
	return total;
}

int cp_sbtrace_end(struct cp_sbtrace *t, struct cp_sbtrace_sum *sum, struct cp_diag *diag)
{
	char path[CP_SBTRACE_PATH_MAX + 16], *line = NULL;
	size_t cap = 0;
	FILE *f;
	int rc;

	memset(sum, 0, sizeof(*sum));
	rc = write_file(t, "tracing_on", "0", diag);
	if (rc)
		return rc;
	snprintf(path, sizeof(path), "%s/trace", t->path);
	f = fopen(path, "re");
	if (!f)
		return cp_diag_set(diag, -CP_ESYS, "open %s: %s", path, strerror(errno));
	while (getline(&line, &cap, f) >= 0)
		cp_sbtrace_add_line(line, sum);
	free(line); /* getline's buffer */
	fclose(f);
	sum->lost = overruns(t);
	return 0;
}

/* The tracefs of our own, if we mounted it, and its directory. */
static int unmount_own_tracefs(struct cp_sbtrace *t, struct cp_diag *diag)
{
	if (t->mounted) {
		if (umount2(t->mnt, 0))
			return cp_diag_set(diag, -CP_ESYS, "umount %s: %s", t->mnt,
					   strerror(errno));
		t->mounted = false;
	}
	if (t->mnt_made) {
		if (rmdir(t->mnt))
			return cp_diag_set(diag, -CP_ESYS, "rmdir %s: %s", t->mnt,
					   strerror(errno));
		t->mnt_made = false;
	}
	return 0;
}

int cp_sbtrace_remove(struct cp_sbtrace *t, struct cp_diag *diag)
{
	if (!t->created)
		return unmount_own_tracefs(t, diag);
	/* a failure here leaves the event on in our instance only */
	(void)write_file(t, "tracing_on", "0", NULL);
	(void)write_file(t, EVENT "/enable", "0", NULL);
	if (t->extfrag)
		(void)write_file(t, EXTFRAG_EVENT "/enable", "0", NULL);
	if (t->deep)
		(void)write_file(t, DEEP_EVENT "/enable", "0", NULL);
	if (t->memcg)
		(void)write_file(t, MEMCG_EVENT "/enable", "0", NULL);
	if (t->per_reclaim)
		(void)write_file(t, MEMCG_END_EVENT "/enable", "0", NULL);
	if (t->watching)
		ra_events_off(t);
	if (rmdir(t->path))
		return cp_diag_set(diag, -CP_ESYS, "rmdir %s: %s", t->path, strerror(errno));
	t->created = false;
	return unmount_own_tracefs(t, diag);
}
