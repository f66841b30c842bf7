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
#include <sys/stat.h>
#include <unistd.h>

#include "core/alloc.h"
#include "kfile.h"

static const char *const tracefs_mounts[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };

#define EVENT "events/vmscan/mm_shrink_slab_end"
#define FILTER "shrink.function == super_cache_scan && retval > 0"

/* TRACEFS/instances of the first mount that has the event. */
static bool find_instances(char *buf, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(tracefs_mounts) / sizeof(tracefs_mounts[0]); i++) {
		char ev[CP_SBTRACE_PATH_MAX];
		struct stat st;

		snprintf(ev, sizeof(ev), "%s/" EVENT "/enable", tracefs_mounts[i]);
		snprintf(buf, len, "%s/instances", tracefs_mounts[i]);
		if (stat(ev, &st) == 0 && stat(buf, &st) == 0 && S_ISDIR(st.st_mode))
			return true;
	}
	return false;
}

static int write_file(const struct cp_sbtrace *t, const char *file, const char *text,
		      struct cp_diag *diag)
{
	char path[CP_SBTRACE_PATH_MAX + 64];

	snprintf(path, sizeof(path), "%s/%s", t->path, file);
	return cp_kfile_write(path, text, diag);
}

int cp_sbtrace_create(struct cp_sbtrace *t, const char *name, unsigned buffer_kb,
		      struct cp_diag *diag)
{
	char inst[CP_SBTRACE_PATH_MAX - 128], kb[32];
	int rc;

	memset(t, 0, sizeof(*t));
	if (strncmp(name, CP_SBTRACE_PREFIX, strlen(CP_SBTRACE_PREFIX)) != 0 || strchr(name, '/') ||
	    strlen(name) > 100)
		return cp_diag_set(diag, -CP_EINVAL, "trace instance name '%s' is not ours", name);
	if (!find_instances(inst, sizeof(inst)))
		return cp_diag_set(diag, -CP_ENOENT, "no tracefs with " EVENT);
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
	if (!rc)
		rc = write_file(t, EVENT "/filter", FILTER, diag);
	if (!rc)
		rc = write_file(t, EVENT "/enable", "1", diag);
	return rc;
}

int cp_sbtrace_begin(struct cp_sbtrace *t, struct cp_diag *diag)
{
	/* an empty write to "trace" clears the instance's buffer */
	int rc = write_file(t, "trace", "", diag);

	return rc ? rc : write_file(t, "tracing_on", "1", diag);
}

void cp_sbtrace_add_line(const char *line, struct cp_sbtrace_sum *sum)
{
	static const char ret[] = "last shrinker return val ";
	const char *p = strstr(line, "mm_shrink_slab_end: super_cache_scan+");
	const char *v;
	long freed;

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

int cp_sbtrace_remove(struct cp_sbtrace *t, struct cp_diag *diag)
{
	if (!t->created)
		return 0;
	/* a failure here leaves the event on in our instance only */
	(void)write_file(t, "tracing_on", "0", NULL);
	(void)write_file(t, EVENT "/enable", "0", NULL);
	if (rmdir(t->path))
		return cp_diag_set(diag, -CP_ESYS, "rmdir %s: %s", t->path, strerror(errno));
	t->created = false;
	return 0;
}
