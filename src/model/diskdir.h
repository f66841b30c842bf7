/*
 * diskdir.h - the filesystem's on-disk namespace: which inode number a
 * (directory inode, name) pair names, whether it is a directory, and the
 * page-cache mapping that stands for a file's data. Lookups that miss the
 * dcache read it (the cost of that read is the engine's business).
 */
#ifndef CP_DISKDIR_H
#define CP_DISKDIR_H

#include <stdbool.h>
#include <stdint.h>

#define CP_DIRENT_NONE UINT32_MAX

/* 32 bytes per name on disk; the model keeps millions. */
struct cp_dirent {
	uint64_t name_id;
	uint32_t parent_ino;
	uint32_t ino;
	uint32_t next;     /* hash chain (entry index) */
	uint32_t mapping;  /* page-cache mapping of the data, CP_DIRENT_NONE if none */
	uint16_t name_len;
	uint8_t is_dir;
	uint8_t pad;
};

struct cp_diskdir {
	struct cp_dirent *ents; /* nr entries, never removed; may move on growth */
	uint32_t nr, cap;
	uint32_t *buckets;      /* nr_buckets chain heads, power of two */
	uint32_t nr_buckets;
};

/* Returns 0 or -CP_ENOMEM. */
int cp_diskdir_init(struct cp_diskdir *dd);
void cp_diskdir_release(struct cp_diskdir *dd);

/* The entry for (parent_ino, name_id), or NULL. The pointer is valid
 * until the next cp_diskdir_reserve(). */
const struct cp_dirent *cp_diskdir_lookup(const struct cp_diskdir *dd, uint32_t parent_ino,
					  uint64_t name_id);

/* Make room so the next cp_diskdir_add() cannot fail: 0 or -CP_ENOMEM
 * (nothing changed). */
int cp_diskdir_reserve(struct cp_diskdir *dd);

/* Record a new name (reserved before; the pair must not exist). */
void cp_diskdir_add(struct cp_diskdir *dd, const struct cp_dirent *e);

/* Invariant: every entry reachable from its bucket exactly once. */
bool cp_diskdir_check(const struct cp_diskdir *dd);

#endif /* CP_DISKDIR_H */
