/*
 * cgroup.c - finding the memory controller, and the one cgroup the
 * harness creates, limits and removes.
 *
 * Kernel interfaces used: /proc/self/mountinfo (fields per proc(5):
 * mount point is field 5, filesystem type and super options follow the
 * " - " separator), cgroup v1 memory.limit_in_bytes / usage_in_bytes /
 * kmem.usage_in_bytes / failcnt / oom_control / memory.stat, cgroup v2
 * memory.max / memory.current / memory.events / memory.stat
 * (Documentation/admin-guide/cgroup-v1/memory.rst, cgroup-v2.rst).
 */
#include "cgroup.h"

#include <cachepressure/error.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/alloc.h"
#include "proc.h"

/* mountinfo escapes space, tab, newline and backslash as \ooo. */
static void unescape(char *s)
{
	char *r = s, *w = s;

	while (*r) {
		if (r[0] == '\\' && r[1] >= '0' && r[1] <= '7' && r[2] >= '0' && r[2] <= '7' &&
		    r[3] >= '0' && r[3] <= '7') {
			*w++ = (char)((r[1] - '0') * 64 + (r[2] - '0') * 8 + (r[3] - '0'));
			r += 4;
		} else {
			*w++ = *r++;
		}
	}
	*w = '\0';
}

/* Is word a comma-separated member of list? */
static int has_word(const char *list, const char *word)
{
	size_t n = strlen(word);
	const char *p = list;

	while (p && *p) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);

		if (len == n && strncmp(p, word, n) == 0)
			return 1;
		p = end ? end + 1 : NULL;
	}
	return 0;
}

/* Is word a whitespace-separated member of the file's text? */
static int file_has_word(const char *path, const char *word)
{
	char *text, *tok, *save = NULL;
	int found = 0;

	if (cp_kfile_read(path, &text, NULL))
		return 0;
	for (tok = strtok_r(text, " \t\n", &save); tok; tok = strtok_r(NULL, " \t\n", &save))
		if (strcmp(tok, word) == 0) {
			found = 1;
			break;
		}
	cp_free(text);
	return found;
}

int cp_cgroup_detect(const char *mountinfo, struct cp_cgroup_sys *sys, struct cp_diag *diag)
{
	char v1[CP_CGROUP_PATH_MAX] = "", v2[CP_CGROUP_PATH_MAX] = "";
	char v2_unusable[CP_CGROUP_PATH_MAX + 64] = "";
	char *text, *line, *save = NULL;
	int rc;

	rc = cp_kfile_read(mountinfo, &text, diag);
	if (rc)
		return rc;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *f[6], *sep, *fstype, *opts, *tsave = NULL, *tok;
		int i = 0;

		sep = strstr(line, " - ");
		if (!sep)
			continue;
		*sep = '\0';
		for (tok = strtok_r(line, " ", &tsave); tok && i < 6; tok = strtok_r(NULL, " ", &tsave))
			f[i++] = tok;
		if (i < 5)
			continue;
		tsave = NULL;
		fstype = strtok_r(sep + 3, " ", &tsave);
		(void)strtok_r(NULL, " ", &tsave); /* source */
		opts = strtok_r(NULL, " ", &tsave);
		if (!fstype)
			continue;
		unescape(f[4]);
		if (strlen(f[4]) >= CP_CGROUP_PATH_MAX - 64)
			continue;
		if (strcmp(fstype, "cgroup2") == 0 && !v2[0]) {
			char c[CP_CGROUP_PATH_MAX], s[CP_CGROUP_PATH_MAX];

			snprintf(c, sizeof(c), "%s/cgroup.controllers", f[4]);
			snprintf(s, sizeof(s), "%s/cgroup.subtree_control", f[4]);
			if (!file_has_word(c, "memory"))
				continue;
			if (!file_has_word(s, "memory")) {
				snprintf(v2_unusable, sizeof(v2_unusable), "%s", f[4]);
				continue;
			}
			snprintf(v2, sizeof(v2), "%s", f[4]);
		} else if (strcmp(fstype, "cgroup") == 0 && opts && has_word(opts, "memory") &&
			   !v1[0]) {
			snprintf(v1, sizeof(v1), "%s", f[4]);
		}
	}
	cp_free(text);
	if (v2[0]) {
		sys->version = 2;
		snprintf(sys->mount, sizeof(sys->mount), "%s", v2);
		return 0;
	}
	if (v1[0]) {
		sys->version = 1;
		snprintf(sys->mount, sizeof(sys->mount), "%s", v1);
		return 0;
	}
	if (v2_unusable[0])
		return cp_diag_set(diag, -CP_ENOENT,
				   "the cgroup2 mount %s has the memory controller but does not "
				   "enable it for children (cgroup.subtree_control); not changing it",
				   v2_unusable);
	return cp_diag_set(diag, -CP_ENOENT,
			   "no memory cgroup controller: neither a cgroup2 mount offering "
			   "\"memory\" nor a cgroup v1 mount with the memory option in %s",
			   mountinfo);
}

/* Is line ("ID:CONTROLLERS:PATH") the memory controller's? v1: the
 * controllers list "memory"; v2 (want_v2): the "0::" line. */
static bool memory_line(const char *line, const char *eol, bool want_v2)
{
	const char *c1 = memchr(line, ':', (size_t)(eol - line)), *c2;
	char ctl[64];
	size_t n;

	if (!c1 || !(c2 = memchr(c1 + 1, ':', (size_t)(eol - c1 - 1))))
		return false;
	n = (size_t)(c2 - c1 - 1);
	if (want_v2)
		return n == 0 && c1 - line == 1 && line[0] == '0';
	if (n == 0 || n >= sizeof(ctl))
		return false;
	memcpy(ctl, c1 + 1, n);
	ctl[n] = '\0';
	return has_word(ctl, "memory");
}

int cp_cgroup_memory_path(const char *proc_cgroup, char *path, size_t len)
{
	int pass;

	for (pass = 0; pass < 2; pass++) { /* the v1 memory line, else v2's */
		const char *p = proc_cgroup;

		while (p && *p) {
			const char *eol = strchr(p, '\n'), *start;
			size_t n;

			if (!eol)
				eol = p + strlen(p);
			if (memory_line(p, eol, pass == 1)) {
				/* memory_line() saw both colons before eol */
				const char *c1 = memchr(p, ':', (size_t)(eol - p));

				start = (const char *)memchr(c1 + 1, ':', (size_t)(eol - c1 - 1)) + 1;
				n = (size_t)(eol - start);
				if (n >= len)
					return -CP_ERANGE;
				memcpy(path, start, n);
				path[n] = '\0';
				return 0;
			}
			p = *eol ? eol + 1 : NULL;
		}
	}
	return -CP_ENOENT;
}

static int valid_name(const char *name)
{
	return strncmp(name, CP_CGROUP_PREFIX, strlen(CP_CGROUP_PREFIX)) == 0 &&
	       !strchr(name, '/') && strcmp(name, ".") != 0 && strcmp(name, "..") != 0 &&
	       strlen(name) < 200;
}

int cp_cgroup_create(const struct cp_cgroup_sys *sys, const char *name, struct cp_cgroup *cg,
		     struct cp_diag *diag)
{
	struct cp_cgroup tmp;

	if (!valid_name(name))
		return cp_diag_set(diag, -CP_EINVAL,
				   "cgroup name '%s' refused: must start with \"%s\" and hold no '/'",
				   name, CP_CGROUP_PREFIX);
	if (sys->version != 1 && sys->version != 2)
		return cp_diag_set(diag, -CP_EINVAL, "cgroup version %d unknown", sys->version);
	memset(&tmp, 0, sizeof(tmp));
	tmp.version = sys->version;
	if ((size_t)snprintf(tmp.path, sizeof(tmp.path), "%s/%s", sys->mount, name) >=
		    sizeof(tmp.path) ||
	    (size_t)snprintf(tmp.procs, sizeof(tmp.procs), "%s/cgroup.procs", tmp.path) >=
		    sizeof(tmp.procs))
		return cp_diag_set(diag, -CP_EINVAL, "cgroup path too long");
	if (mkdir(tmp.path, 0755)) {
		int e = errno;

		return cp_diag_set(diag, e == EEXIST ? -CP_EBUSY : -CP_ESYS, "mkdir %s: %s",
				   tmp.path, strerror(e));
	}
	tmp.created = true;
	*cg = tmp;
	return 0;
}

int cp_cgroup_file(const struct cp_cgroup *cg, const char *knob, char *buf, size_t len)
{
	static const struct {
		const char *knob, *v1, *v2;
	} files[] = {
		{ "limit", "memory.limit_in_bytes", "memory.max" },
		{ "usage", "memory.usage_in_bytes", "memory.current" },
		{ "stat", "memory.stat", "memory.stat" },
		{ "failcnt", "memory.failcnt", NULL },
		{ "kmem", "memory.kmem.usage_in_bytes", NULL },
		{ "max_usage", "memory.max_usage_in_bytes", "memory.peak" },
		{ "events", NULL, "memory.events" },
		{ "oom", "memory.oom_control", NULL },
	};
	size_t i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		const char *f;

		if (strcmp(files[i].knob, knob) != 0)
			continue;
		f = cg->version == 2 ? files[i].v2 : files[i].v1;
		if (!f)
			return -CP_ENOENT;
		if ((size_t)snprintf(buf, len, "%s/%s", cg->path, f) >= len)
			return -CP_EINVAL;
		return 0;
	}
	return -CP_ENOENT;
}

int cp_cgroup_set_limit(const struct cp_cgroup *cg, uint64_t bytes, struct cp_diag *diag)
{
	char path[CP_CGROUP_PATH_MAX + 64], val[32];

	if (cp_cgroup_file(cg, "limit", path, sizeof(path)))
		return cp_diag_set(diag, -CP_EINVAL, "no limit file for cgroup %s", cg->path);
	snprintf(val, sizeof(val), "%" PRIu64, bytes);
	return cp_kfile_write(path, val, diag);
}

int cp_cgroup_read_stat(const struct cp_cgroup *cg, struct cp_kv *kv, struct cp_diag *diag)
{
	char path[CP_CGROUP_PATH_MAX + 64];

	if (cp_cgroup_file(cg, "stat", path, sizeof(path)))
		return cp_diag_set(diag, -CP_EINVAL, "no memory.stat for %s", cg->path);
	return cp_kv_read(path, kv, diag);
}

int cp_cgroup_read_u64(const struct cp_cgroup *cg, const char *knob, uint64_t *out,
		       struct cp_diag *diag)
{
	char path[CP_CGROUP_PATH_MAX + 64];

	if (cp_cgroup_file(cg, knob, path, sizeof(path)))
		return cp_diag_set(diag, -CP_ENOENT, "cgroup v%d has no '%s' file", cg->version,
				   knob);
	return cp_kfile_read_u64(path, out, diag);
}

int cp_cgroup_remove(struct cp_cgroup *cg, struct cp_diag *diag)
{
	const char *base;
	uint64_t deadline;

	if (!cg->created)
		return 0;
	base = strrchr(cg->path, '/');
	if (!base || !valid_name(base + 1))
		return cp_diag_set(diag, -CP_EINVAL, "refusing to remove cgroup %s", cg->path);
	deadline = cp_proc_now_ns() + 5000000000ULL;
	while (rmdir(cg->path)) {
		int e = errno;

		if (e == ENOENT)
			break;
		if (e != EBUSY || cp_proc_now_ns() >= deadline)
			return cp_diag_set(diag, e == EBUSY ? -CP_EBUSY : -CP_ESYS, "rmdir %s: %s",
					   cg->path, strerror(e));
		cp_proc_sleep_ns(50000000);
	}
	cg->created = false;
	return 0;
}
