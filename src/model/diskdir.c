/*
 * diskdir.c - the on-disk namespace as a hash of (parent inode, name).
 *
 * Not a kernel cache: it stands for the directory blocks on disk, which
 * outlive every dentry and inode. XFS/ext4 directory formats, block
 * reads and their buffer memory are not modelled here.
 *
 * SIMPLIFIED: names are never removed (no unlink/rename); inode numbers
 * fit in 32 bits.
 */
#include "model/diskdir.h"

#include <cachepressure/error.h>
#include <string.h>

#include "core/alloc.h"
#include "core/bug.h"

static uint32_t bucket_of(uint32_t parent_ino, uint64_t name_id, uint32_t nr_buckets)
{
	uint64_t x = (name_id ^ ((uint64_t)parent_ino * 0xC2B2AE3D27D4EB4Full)) *
		     0x9E3779B97F4A7C15ull;

	return (uint32_t)(x >> 32) & (nr_buckets - 1);
}

int cp_diskdir_init(struct cp_diskdir *dd)
{
	uint32_t i;

	memset(dd, 0, sizeof(*dd));
	dd->nr_buckets = 1024;
	dd->buckets = cp_malloc(dd->nr_buckets * sizeof(*dd->buckets));
	if (!dd->buckets)
		return -CP_ENOMEM;
	for (i = 0; i < dd->nr_buckets; i++)
		dd->buckets[i] = CP_DIRENT_NONE;
	return 0;
}

void cp_diskdir_release(struct cp_diskdir *dd)
{
	cp_free(dd->ents);
	cp_free(dd->buckets);
	memset(dd, 0, sizeof(*dd));
}

const struct cp_dirent *cp_diskdir_lookup(const struct cp_diskdir *dd, uint32_t parent_ino,
					  uint64_t name_id)
{
	uint32_t i = dd->buckets[bucket_of(parent_ino, name_id, dd->nr_buckets)];

	while (i != CP_DIRENT_NONE) {
		const struct cp_dirent *e = &dd->ents[i];

		if (e->parent_ino == parent_ino && e->name_id == name_id)
			return e;
		i = e->next;
	}
	return NULL;
}

static int rehash(struct cp_diskdir *dd)
{
	uint32_t n = dd->nr_buckets * 2, i;
	uint32_t *b = cp_malloc(n * sizeof(*b));

	if (!b)
		return -CP_ENOMEM;
	for (i = 0; i < n; i++)
		b[i] = CP_DIRENT_NONE;
	for (i = 0; i < dd->nr; i++) {
		uint32_t k = bucket_of(dd->ents[i].parent_ino, dd->ents[i].name_id, n);

		dd->ents[i].next = b[k];
		b[k] = i;
	}
	cp_free(dd->buckets);
	dd->buckets = b;
	dd->nr_buckets = n;
	return 0;
}

int cp_diskdir_reserve(struct cp_diskdir *dd)
{
	if (dd->nr < dd->cap)
		return 0;
	if (dd->cap >= CP_DIRENT_NONE / 2)
		return -CP_ENOMEM;
	{
		uint32_t cap = dd->cap ? dd->cap * 2 : 1024;
		struct cp_dirent *e = cp_realloc(dd->ents, (size_t)cap * sizeof(*e));

		if (!e)
			return -CP_ENOMEM;
		dd->ents = e;
		dd->cap = cap;
	}
	/* keep about one entry per bucket; a failed rehash only lengthens
	 * chains */
	if (dd->nr >= dd->nr_buckets && dd->nr_buckets < (1u << 30))
		(void)rehash(dd);
	return 0;
}

void cp_diskdir_add(struct cp_diskdir *dd, const struct cp_dirent *e)
{
	uint32_t k = bucket_of(e->parent_ino, e->name_id, dd->nr_buckets);

	CP_BUG_ON(dd->nr >= dd->cap);
	CP_BUG_ON(cp_diskdir_lookup(dd, e->parent_ino, e->name_id) != NULL);
	dd->ents[dd->nr] = *e;
	dd->ents[dd->nr].next = dd->buckets[k];
	dd->buckets[k] = dd->nr;
	dd->nr++;
}

bool cp_diskdir_check(const struct cp_diskdir *dd)
{
	uint64_t seen = 0;
	uint32_t b, i;

	for (b = 0; b < dd->nr_buckets; b++) {
		for (i = dd->buckets[b]; i != CP_DIRENT_NONE; i = dd->ents[i].next) {
			if (i >= dd->nr || ++seen > dd->nr ||
			    bucket_of(dd->ents[i].parent_ino, dd->ents[i].name_id, dd->nr_buckets) != b)
				return false;
		}
	}
	return seen == dd->nr;
}
