/*
 * kfile.c - reading and writing small kernel files (procfs, sysfs,
 * cgroupfs) for the real harness.
 */
#include "kfile.h"

#include <cachepressure/error.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/alloc.h"

#define KFILE_MAX_BYTES (1 << 20)

int cp_kfile_read(const char *path, char **out, struct cp_diag *diag)
{
	size_t len = 0, cap = 4096;
	char *buf, *nbuf;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return cp_diag_set(diag, errno == ENOENT ? -CP_ENOENT : -CP_EIO, "%s: %s", path,
				   strerror(errno));
	buf = cp_malloc(cap);
	if (!buf) {
		close(fd);
		return cp_diag_set(diag, -CP_ENOMEM, "%s: out of memory", path);
	}
	for (;;) {
		ssize_t n;

		if (len + 1 == cap) {
			if (cap >= KFILE_MAX_BYTES) {
				cp_free(buf);
				close(fd);
				return cp_diag_set(diag, -CP_EIO, "%s: larger than 1 MiB", path);
			}
			nbuf = cp_realloc(buf, cap * 2);
			if (!nbuf) {
				cp_free(buf);
				close(fd);
				return cp_diag_set(diag, -CP_ENOMEM, "%s: out of memory", path);
			}
			buf = nbuf;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - 1 - len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			cp_diag_set(diag, -CP_EIO, "%s: %s", path, strerror(errno));
			cp_free(buf);
			close(fd);
			return -CP_EIO;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	*out = buf;
	return 0;
}

int cp_kfile_read_u64(const char *path, uint64_t *out, struct cp_diag *diag)
{
	char *text, *p, *end;
	unsigned long long v;
	int rc;

	rc = cp_kfile_read(path, &text, diag);
	if (rc)
		return rc;
	p = text;
	while (isspace((unsigned char)*p))
		p++;
	if (strncmp(p, "max", 3) == 0) {
		cp_free(text);
		*out = UINT64_MAX;
		return 0;
	}
	if (!isdigit((unsigned char)*p)) {
		cp_free(text);
		return cp_diag_set(diag, -CP_EIO, "%s: no number", path);
	}
	errno = 0;
	v = strtoull(p, &end, 10);
	cp_free(text);
	if (errno)
		return cp_diag_set(diag, -CP_ERANGE, "%s: number out of range", path);
	*out = v;
	return 0;
}

int cp_kfile_write(const char *path, const char *text, struct cp_diag *diag)
{
	size_t len = strlen(text);
	ssize_t n;
	int fd, e;

	/* O_TRUNC as a shell's `>` does; never O_CREAT. */
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0) {
		e = errno;
		return cp_diag_set(diag,
				   e == ENOENT ? -CP_ENOENT : e == EACCES || e == EPERM ? -CP_EPERM
											 : -CP_ESYS,
				   "open %s: %s", path, strerror(e));
	}
	do
		n = write(fd, text, len);
	while (n < 0 && errno == EINTR);
	e = errno;
	if (close(fd) && n >= 0) {
		e = errno;
		n = -1;
	}
	if (n < 0 || (size_t)n != len)
		return cp_diag_set(diag, -CP_ESYS, "write '%s' to %s: %s", text, path,
				   n < 0 ? strerror(e) : "short write");
	return 0;
}

static int kv_add(struct cp_kv *kv, const char *name, size_t name_len, int64_t value)
{
	char *copy;

	{
		struct cp_kv_entry *e = cp_grow(kv->e, &kv->cap, kv->nr + 1, sizeof(*e), 64);

		if (!e)
			return -CP_ENOMEM;
		kv->e = e;
	}
	copy = cp_malloc(name_len + 1);
	if (!copy)
		return -CP_ENOMEM;
	memcpy(copy, name, name_len);
	copy[name_len] = '\0';
	kv->e[kv->nr].name = copy;
	kv->e[kv->nr].value = value;
	kv->nr++;
	return 0;
}

int cp_kv_parse(const char *text, struct cp_kv *kv)
{
	const char *line = text;

	while (*line) {
		const char *eol = strchr(line, '\n'), *p = line, *name = line;
		size_t name_len;
		long long v;
		char *end;
		int neg = 0;

		if (!eol)
			eol = line + strlen(line);
		while (p < eol && !isspace((unsigned char)*p) && *p != ':')
			p++;
		name_len = (size_t)(p - name);
		if (p < eol && *p == ':')
			p++;
		while (p < eol && isspace((unsigned char)*p))
			p++;
		if (*p == '-') {
			neg = 1;
			p++;
		}
		if (name_len > 0 && p < eol && isdigit((unsigned char)*p)) {
			errno = 0;
			v = strtoll(p, &end, 10);
			if (!errno && end <= eol) {
				while (end < eol && (*end == ' ' || *end == '\t'))
					end++;
				if (end + 2 <= eol && strncmp(end, "kB", 2) == 0)
					v *= 1024;
				if (kv_add(kv, name, name_len, neg ? -v : v))
					return -CP_ENOMEM;
			}
		}
		line = *eol ? eol + 1 : eol;
	}
	return 0;
}

int cp_kv_read(const char *path, struct cp_kv *kv, struct cp_diag *diag)
{
	char *text;
	int rc;

	rc = cp_kfile_read(path, &text, diag);
	if (rc)
		return rc;
	rc = cp_kv_parse(text, kv);
	cp_free(text);
	if (rc)
		return cp_diag_set(diag, rc, "%s: out of memory", path);
	return 0;
}

int cp_kv_get(const struct cp_kv *kv, const char *name, int64_t *out)
{
	size_t i;

	for (i = 0; i < kv->nr; i++)
		if (strcmp(kv->e[i].name, name) == 0) {
			*out = kv->e[i].value;
			return 0;
		}
	return -CP_ENOENT;
}

void cp_kv_release(struct cp_kv *kv)
{
	size_t i;

	for (i = 0; i < kv->nr; i++)
		cp_free(kv->e[i].name);
	cp_free(kv->e);
	kv->e = NULL;
	kv->nr = kv->cap = 0;
}
