/*
 * kfile.h - small kernel files: read, write, and "name value" tables
 * (/proc/vmstat, /proc/meminfo, memory.stat, XFS stats).
 */
#ifndef CP_KFILE_H
#define CP_KFILE_H

#include <stddef.h>
#include <stdint.h>

struct cp_diag;

/* One "name value" pair. */
struct cp_kv_entry {
	char *name; /* owned */
	int64_t value;
};

/* A table of name/value pairs in file order. */
struct cp_kv {
	struct cp_kv_entry *e; /* owned, nr entries */
	size_t nr, cap;
};

/* Reads a file of at most 1 MiB into a NUL-terminated buffer the caller
 * frees with cp_free(). Returns 0, -CP_ENOENT, -CP_EIO or -CP_ENOMEM;
 * *out is untouched on failure. */
int cp_kfile_read(const char *path, char **out, struct cp_diag *diag);

/* Reads the first unsigned decimal number of a file ("max" reads as
 * UINT64_MAX, for cgroup v2 limits). */
int cp_kfile_read_u64(const char *path, uint64_t *out, struct cp_diag *diag);

/* Writes text to an existing file (no O_CREAT: kernel files only).
 * Returns 0, -CP_ENOENT, -CP_EPERM or -CP_ESYS. */
int cp_kfile_write(const char *path, const char *text, struct cp_diag *diag);

/* Parses lines "name value", "name: value" or "Name:  value kB" (kB is
 * turned into bytes) and appends them to kv. Lines that do not fit are
 * skipped. Returns 0 or -CP_ENOMEM (kv then holds what was parsed). */
int cp_kv_parse(const char *text, struct cp_kv *kv);

/* cp_kfile_read() + cp_kv_parse() into a released (empty) kv. */
int cp_kv_read(const char *path, struct cp_kv *kv, struct cp_diag *diag);

/* Value of name; 0 when found, -CP_ENOENT otherwise (*out untouched). */
int cp_kv_get(const struct cp_kv *kv, const char *name, int64_t *out);

void cp_kv_release(struct cp_kv *kv);

#endif /* CP_KFILE_H */
