/*
 * initramfs.c - the kernel lab's initramfs (see initramfs.h): manifest,
 * ldd parsing, content key, and the archive written by cpio.
 *
 * The kernel unpacks a "newc" cpio archive into its rootfs
 * (init/initramfs.c:unpack_to_rootfs()) and runs /init as pid 1; several
 * archives concatenated are unpacked one after the other, which is how
 * the lab adds the per-session arguments to the cached base archive.
 * No archive format is written here: Debian's cpio does that.
 */
#include "initramfs.h"

#include <cachepressure/error.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/alloc.h"
#include "proc.h"

const char *const cp_ir_applets[] = { "cat",   "dmesg", "echo", "grep",	 "ls",	  "mkdir",
				      "mount", "reboot", "sh",	 "sleep", "sync", "umount",
				      "uname" };
const size_t cp_ir_nr_applets = sizeof(cp_ir_applets) / sizeof(cp_ir_applets[0]);

/* ---- ldd ---------------------------------------------------------- */

int cp_ir_ldd_parse(const char *ldd_out, int (*add)(void *arg, const char *path), void *arg,
		    struct cp_diag *diag)
{
	const char *line = ldd_out;

	while (line && *line) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);
		char buf[CP_IR_PATH_MAX * 2], path[CP_IR_PATH_MAX];
		const char *p, *arrow;
		size_t n;
		int rc;

		n = len < sizeof(buf) - 1 ? len : sizeof(buf) - 1;
		memcpy(buf, line, n);
		buf[n] = '\0';
		line = end ? end + 1 : NULL;

		p = buf + strspn(buf, " \t");
		arrow = strstr(p, "=> ");
		if (arrow) {
			if (strncmp(arrow + 3, "not found", 9) == 0) {
				n = strcspn(p, " \t");
				return cp_diag_set(diag, -CP_ENOENT, "ldd: library %.*s not found",
						   (int)n, p);
			}
			p = arrow + 3;
		}
		if (*p != '/')
			continue; /* vdso, "statically linked", "not a dynamic executable" */
		n = strcspn(p, " \t(");
		if (n == 0 || n >= sizeof(path))
			continue;
		memcpy(path, p, n);
		path[n] = '\0';
		rc = add(arg, path);
		if (rc)
			return rc;
	}
	return 0;
}

/* ---- manifest ------------------------------------------------------ */

static int entry_cmp(const void *a, const void *b)
{
	return strcmp(((const struct cp_ir_entry *)a)->dest, ((const struct cp_ir_entry *)b)->dest);
}

const struct cp_ir_entry *cp_ir_manifest_find(const struct cp_ir_manifest *m, const char *dest)
{
	size_t i;

	for (i = 0; i < m->n; i++)
		if (strcmp(m->e[i].dest, dest) == 0)
			return &m->e[i];
	return NULL;
}

static int add_entry(struct cp_ir_manifest *m, enum cp_ir_kind kind, const char *dest,
		     const char *src, unsigned mode, struct cp_diag *diag)
{
	struct cp_ir_entry *e;

	if (dest[0] != '/' || strlen(dest) >= CP_IR_PATH_MAX ||
	    (src && strlen(src) >= CP_IR_PATH_MAX))
		return cp_diag_set(diag, -CP_EINVAL, "initramfs: bad path '%s'", dest);
	if (kind == CP_IR_FILE && src[0] != '/')
		return cp_diag_set(diag, -CP_EINVAL, "initramfs: '%s' is not an absolute path",
				   src);
	if (cp_ir_manifest_find(m, dest))
		return 0; /* first one wins (a library two binaries need) */
	{
		struct cp_ir_entry *ne = cp_grow(m->e, &m->cap, m->n + 1, sizeof(*ne), 64);

		if (!ne)
			return cp_diag_set(diag, -CP_ENOMEM, "out of memory");
		m->e = ne;
	}
	e = &m->e[m->n++];
	memset(e, 0, sizeof(*e));
	e->kind = kind;
	snprintf(e->dest, sizeof(e->dest), "%s", dest);
	if (src)
		snprintf(e->src, sizeof(e->src), "%s", src);
	e->mode = mode;
	return 0;
}

/* Adds every parent directory of dest ("/a/b/c" adds /a and /a/b). */
static int add_parents(struct cp_ir_manifest *m, const char *dest, struct cp_diag *diag)
{
	char dir[CP_IR_PATH_MAX];
	char *slash;
	int rc;

	snprintf(dir, sizeof(dir), "%s", dest);
	for (slash = strchr(dir + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		rc = add_entry(m, CP_IR_DIR, dir, NULL, 0755, diag);
		*slash = '/';
		if (rc)
			return rc;
	}
	return 0;
}

struct lib_ctx {
	struct cp_ir_manifest *m;
	struct cp_diag *diag;
};

static int add_library(void *arg, const char *path)
{
	struct lib_ctx *c = arg;
	int rc = add_parents(c->m, path, c->diag);

	return rc ? rc : add_entry(c->m, CP_IR_FILE, path, path, 0755, c->diag);
}

static int add_program(struct cp_ir_manifest *m, const char *src, const char *dest,
		       const char *ldd_out, struct cp_diag *diag)
{
	struct lib_ctx c = { m, diag };
	int rc;

	if (!src || !dest)
		return cp_diag_set(diag, -CP_EINVAL, "initramfs: a program without a path");
	rc = add_parents(m, dest, diag);
	if (!rc)
		rc = add_entry(m, CP_IR_FILE, dest, src, 0755, diag);
	if (!rc && ldd_out)
		rc = cp_ir_ldd_parse(ldd_out, add_library, &c, diag);
	return rc;
}

int cp_ir_manifest_build(const struct cp_ir_inputs *in, struct cp_ir_manifest *out,
			 struct cp_diag *diag)
{
	static const char *const dirs[] = { "/bin", "/cachepressure", "/dev",	  "/proc",
					    "/sys", "/tmp",	     "/usr", "/usr/bin" };
	struct cp_ir_manifest m = { NULL, 0, 0 };
	struct cp_ir_entry *e;
	size_t i;
	int rc = 0;

	for (i = 0; !rc && i < sizeof(dirs) / sizeof(dirs[0]); i++)
		rc = add_entry(&m, CP_IR_DIR, dirs[i], NULL, 0755, diag);
	if (!rc)
		rc = add_program(&m, in->busybox, "/bin/busybox", in->busybox_ldd, diag);
	for (i = 0; !rc && i < cp_ir_nr_applets; i++) {
		char dest[64];

		snprintf(dest, sizeof(dest), "/bin/%s", cp_ir_applets[i]);
		rc = add_entry(&m, CP_IR_SYMLINK, dest, "busybox", 0777, diag);
	}
	if (!rc)
		rc = add_entry(&m, CP_IR_DATA, "/init", NULL, 0755, diag);
	if (!rc) {
		e = &m.e[m.n - 1];
		e->data = in->init_text;
		e->len = in->init_len;
		rc = add_entry(&m, CP_IR_DATA, "/cachepressure/guest", NULL, 0644, diag);
	}
	if (!rc) {
		e = &m.e[m.n - 1];
		e->data = "cachepressure lab guest\n";
		e->len = strlen(e->data);
	}
	for (i = 0; !rc && i < in->nr_bins; i++)
		rc = add_program(&m, in->bins[i].src, in->bins[i].dest, in->bins[i].ldd_out, diag);
	if (rc) {
		cp_ir_manifest_release(&m);
		return rc;
	}
	qsort(m.e, m.n, sizeof(*m.e), entry_cmp);
	*out = m;
	return 0;
}

int cp_ir_manifest_add(struct cp_ir_manifest *m, enum cp_ir_kind kind, const char *dest,
		       const char *src, unsigned mode, const void *data, size_t len,
		       struct cp_diag *diag)
{
	size_t before = m->n;
	int rc = add_parents(m, dest, diag);

	if (!rc)
		rc = add_entry(m, kind, dest, src, mode, diag);
	if (rc)
		return rc;
	if (m->n > before && kind == CP_IR_DATA && strcmp(m->e[m->n - 1].dest, dest) == 0) {
		m->e[m->n - 1].data = data;
		m->e[m->n - 1].len = len;
	}
	qsort(m->e, m->n, sizeof(*m->e), entry_cmp);
	return 0;
}

void cp_ir_manifest_release(struct cp_ir_manifest *m)
{
	cp_free(m->e);
	m->e = NULL;
	m->n = m->cap = 0;
}

/* ---- key ----------------------------------------------------------- */

#define FNV_OFFSET 14695981039346656037ULL
#define FNV_PRIME 1099511628211ULL

static uint64_t fnv(uint64_t h, const void *data, size_t len)
{
	const unsigned char *p = data;
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= p[i];
		h *= FNV_PRIME;
	}
	return h;
}

int cp_ir_manifest_key(const struct cp_ir_manifest *m, uint64_t *key, struct cp_diag *diag)
{
	static char buf[1 << 16];
	uint64_t h = FNV_OFFSET;
	size_t i;

	for (i = 0; i < m->n; i++) {
		const struct cp_ir_entry *e = &m->e[i];
		unsigned char hdr[5] = { (unsigned char)e->kind, (unsigned char)(e->mode & 0xff),
					 (unsigned char)((e->mode >> 8) & 0xff),
					 (unsigned char)((e->mode >> 16) & 0xff), 0 };

		h = fnv(h, hdr, sizeof(hdr));
		h = fnv(h, e->dest, strlen(e->dest) + 1);
		if (e->kind == CP_IR_SYMLINK) {
			h = fnv(h, e->src, strlen(e->src) + 1);
		} else if (e->kind == CP_IR_DATA) {
			h = fnv(h, e->data, e->len);
		} else if (e->kind == CP_IR_FILE) {
			int fd = open(e->src, O_RDONLY | O_CLOEXEC);
			ssize_t n;

			if (fd < 0)
				return cp_diag_set(diag, -CP_ESYS, "initramfs: %s: %s", e->src,
						   strerror(errno));
			while ((n = read(fd, buf, sizeof(buf))) > 0)
				h = fnv(h, buf, (size_t)n);
			close(fd);
			if (n < 0)
				return cp_diag_set(diag, -CP_ESYS, "initramfs: reading %s: %s",
						   e->src, strerror(errno));
		}
	}
	*key = h;
	return 0;
}

/* ---- staging and cpio ---------------------------------------------- */

static int copy_file(const char *src, const char *dst, unsigned mode, struct cp_diag *diag)
{
	static char buf[1 << 16];
	int in = open(src, O_RDONLY | O_CLOEXEC), out;
	ssize_t n;

	if (in < 0)
		return cp_diag_set(diag, -CP_ESYS, "initramfs: %s: %s", src, strerror(errno));
	out = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
	if (out < 0) {
		close(in);
		return cp_diag_set(diag, -CP_ESYS, "initramfs: %s: %s", dst, strerror(errno));
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n) {
			n = -1;
			break;
		}
	close(in);
	if (close(out) || n < 0)
		return cp_diag_set(diag, -CP_ESYS, "initramfs: copying %s: %s", src,
				   strerror(errno));
	return 0;
}

static int write_data(const char *dst, const void *data, size_t len, unsigned mode,
		      struct cp_diag *diag)
{
	int fd = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
	ssize_t n;

	if (fd < 0)
		return cp_diag_set(diag, -CP_ESYS, "initramfs: %s: %s", dst, strerror(errno));
	n = len ? write(fd, data, len) : 0;
	if (close(fd) || n != (ssize_t)len)
		return cp_diag_set(diag, -CP_ESYS, "initramfs: writing %s: %s", dst,
				   strerror(errno));
	return 0;
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

/* Removes the staging tree (only ever our own <dir>/cachepressure-*.stage). */
static void stage_remove(const char *stage)
{
	nftw(stage, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

int cp_ir_write(const struct cp_ir_manifest *m, const char *dir, const char *cpio,
		const char *out, struct cp_diag *diag)
{
	char stage[CP_IR_PATH_MAX], list[CP_IR_PATH_MAX], path[CP_IR_PATH_MAX * 2];
	char *argv[] = { "cpio", "-o", "-H", "newc", "--quiet", "-R", "0:0", "-O", (char *)out,
			 NULL };
	struct cp_spawn_opts so;
	FILE *f = NULL;
	size_t i;
	int rc = 0, fd;

	snprintf(stage, sizeof(stage), "%s/" CP_IR_PREFIX "%d.stage", dir, (int)getpid());
	snprintf(list, sizeof(list), "%s/" CP_IR_PREFIX "%d.list", dir, (int)getpid());
	stage_remove(stage);
	if (mkdir(stage, 0700))
		return cp_diag_set(diag, -CP_ESYS, "mkdir %s: %s", stage, strerror(errno));
	f = fopen(list, "we");
	if (!f) {
		rc = cp_diag_set(diag, -CP_ESYS, "%s: %s", list, strerror(errno));
		goto out;
	}
	for (i = 0; !rc && i < m->n; i++) { /* sorted: parents come first */
		const struct cp_ir_entry *e = &m->e[i];

		snprintf(path, sizeof(path), "%s%s", stage, e->dest);
		switch (e->kind) {
		case CP_IR_DIR:
			if (mkdir(path, e->mode))
				rc = cp_diag_set(diag, -CP_ESYS, "mkdir %s: %s", path,
						 strerror(errno));
			break;
		case CP_IR_FILE:
			rc = copy_file(e->src, path, e->mode, diag);
			break;
		case CP_IR_SYMLINK:
			if (symlink(e->src, path))
				rc = cp_diag_set(diag, -CP_ESYS, "symlink %s: %s", path,
						 strerror(errno));
			break;
		case CP_IR_DATA:
			rc = write_data(path, e->data, e->len, e->mode, diag);
			break;
		}
		if (!rc && e->kind != CP_IR_SYMLINK)
			chmod(path, e->mode); /* umask */
		if (!rc)
			fprintf(f, "%s\n", e->dest + 1);
	}
	if (fclose(f) && !rc)
		rc = cp_diag_set(diag, -CP_ESYS, "%s: %s", list, strerror(errno));
	if (rc)
		goto out;
	fd = open(list, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		rc = cp_diag_set(diag, -CP_ESYS, "%s: %s", list, strerror(errno));
		goto out;
	}
	cp_spawn_opts_init(&so);
	so.cwd = stage;
	so.stdin_fd = fd;
	rc = cp_proc_run(cpio, argv, &so, 300000000000ULL, NULL, 0, diag);
	close(fd);
out:
	unlink(list);
	stage_remove(stage);
	if (rc)
		unlink(out);
	return rc;
}

/* Removes the archives of older contents (cachepressure-initramfs-*.cpio
 * other than keep): a session copies the base archive into its own
 * initrd at open, so none is in use. */
static void prune(const char *dir, const char *keep)
{
	const char *base = strrchr(keep, '/') + 1;
	size_t plen = strlen(CP_IR_PREFIX);
	struct dirent *de;
	DIR *d = opendir(dir);

	if (!d)
		return;
	while ((de = readdir(d))) {
		size_t n = strlen(de->d_name);
		char path[CP_IR_PATH_MAX * 2];

		if (strncmp(de->d_name, CP_IR_PREFIX, plen) != 0 || n < plen + 5 ||
		    strcmp(de->d_name + n - 5, ".cpio") != 0 || strcmp(de->d_name, base) == 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		unlink(path);
	}
	closedir(d);
}

int cp_ir_build(const struct cp_ir_manifest *m, const char *dir, const char *cpio, char *out,
		size_t out_len, bool *reused, struct cp_diag *diag)
{
	char tmp[CP_IR_PATH_MAX];
	uint64_t key;
	int rc;

	*reused = false;
	rc = cp_ir_manifest_key(m, &key, diag);
	if (rc)
		return rc;
	if ((size_t)snprintf(out, out_len, "%s/" CP_IR_PREFIX "%016" PRIx64 ".cpio", dir, key) >=
	    out_len)
		return cp_diag_set(diag, -CP_EINVAL, "initramfs path too long");
	if (access(out, R_OK) == 0) {
		*reused = true;
		return 0;
	}
	snprintf(tmp, sizeof(tmp), "%s/" CP_IR_PREFIX "%d.tmp", dir, (int)getpid());
	rc = cp_ir_write(m, dir, cpio, tmp, diag);
	if (rc)
		return rc;
	if (rename(tmp, out)) {
		rc = cp_diag_set(diag, -CP_ESYS, "rename %s: %s", tmp, strerror(errno));
		unlink(tmp);
		return rc;
	}
	prune(dir, out);
	return 0;
}
