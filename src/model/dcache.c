/*
 * dcache.c - the dentry cache and its LRU.
 *
 * Mechanism (fs/dcache.c; ref §2): a dentry names a child of a parent
 * dentry and pins both the parent and its inode. It goes onto the
 * superblock's dentry LRU only when its last reference is dropped and
 * the kernel keeps it (dput: hashed dentries are kept, unhashed ones are
 * killed). The LRU is lazy: a lookup takes a reference and leaves the
 * dentry where it is, with its DCACHE_REFERENCED bit unchanged; the bit
 * is set later, at the dput. The shrinker (prune_dcache_sb) walks the
 * LRU from the head with dentry_lru_isolate(): a dentry in use leaves
 * the LRU (REMOVED, nothing freed), a REFERENCED one loses the bit and
 * goes to the tail, the rest move to a dispose list that
 * shrink_dentry_list() kills: unhash, iput the inode, free the dentry
 * and its external name, and kill the parent too when that drops the
 * parent's count to zero.
 *
 * The commit under study changes the keep path of dput(): 4.11 (legacy)
 * sets DCACHE_REFERENCED on every final put, so a dentry used once enters
 * the LRU already marked and needs two shrinker visits; 4.12+ (patched,
 * dentry_lru_add / 6.1 retain_dentry) adds a new dentry without the bit
 * and sets it only when the dentry is released while already on the LRU.
 *
 * Kernel functions modelled: __d_alloc/d_alloc, d_instantiate, d_lookup,
 * dget, dput (4.11) / retain_dentry (6.1), dentry_lru_add, d_lru_add,
 * d_lru_del, d_lru_isolate, d_lru_shrink_move, d_shrink_del,
 * dentry_lru_isolate, prune_dcache_sb, shrink_dentry_list,
 * __dentry_kill, __d_drop. Versions 4.11 and 6.1.
 *
 * SIMPLIFIED:
 * - No locks: dentry_lru_isolate never answers SKIP; the lockless
 *   fast_dput is the same rule and is not modelled separately.
 * - d_alloc hashes the dentry at once (the kernel hashes it in the
 *   lookup's d_add); no in-lookup hash, no DCACHE_DISCONNECTED, no
 *   ->d_delete, no negative-dentry accounting (6.1 nr_dentry_negative).
 * - Dentries and names are freed at once (no RCU grace period).
 * - Names are an id plus a length; external names use one kmalloc-64
 *   cache, so names longer than 47 bytes are rejected.
 */
#include "model/dcache.h"

#include <cachepressure/error.h>
#include <string.h>

#include "core/alloc.h"
#include "core/bug.h"

/* Millions of dentries: keep the host struct small (ref: 4M+ files). */
_Static_assert(sizeof(struct cp_dentry) <= 72, "struct cp_dentry grew");

#define INITIAL_BUCKETS 1024u
#define MAX_BUCKETS (1u << 30)
#define NAME_MAX_LEN 255

static uint32_t bucket_of(const struct cp_dentry *parent, uint64_t name_id, uint32_t nr_buckets)
{
	uint64_t p = parent ? parent->d_id : UINT32_MAX;
	uint64_t x = (name_id ^ (p * 0xC2B2AE3D27D4EB4Full)) * 0x9E3779B97F4A7C15ull;

	return (uint32_t)(x >> 32) & (nr_buckets - 1);
}

int cp_dcache_init(struct cp_dcache *dc, const struct cp_dcache_params *p)
{
	int rc;

	memset(dc, 0, sizeof(*dc));
	cp_pool_init(&dc->pool, sizeof(struct cp_dentry), 12);
	dc->hash = cp_calloc(INITIAL_BUCKETS, sizeof(*dc->hash));
	if (!dc->hash)
		return -CP_ENOMEM;
	dc->nr_buckets = INITIAL_BUCKETS;
	rc = cp_list_lru_init(&dc->lru);
	if (rc) {
		cp_free(dc->hash);
		dc->hash = NULL;
		return rc;
	}
	dc->dentry_cache = p->dentry_cache;
	dc->name_cache = p->name_cache;
	dc->dname_inline_len = p->dname_inline_len;
	dc->external_name_overhead = p->external_name_overhead;
	dc->policy = p->policy;
	dc->ic = p->ic;
	dc->vmstat = p->vmstat;
	return 0;
}

void cp_dcache_release(struct cp_dcache *dc)
{
	cp_list_lru_release(&dc->lru);
	cp_pool_release(&dc->pool);
	cp_free(dc->hash);
	dc->hash = NULL;
	dc->nr_buckets = 0;
	dc->nr_dentry = dc->nr_hashed = dc->nr_dentry_unused = 0;
}

static void count(struct cp_dcache *dc, enum cp_vmstat_item item)
{
	if (dc->vmstat)
		cp_count(dc->vmstat, item, 1);
}

static void hash_maybe_grow(struct cp_dcache *dc)
{
	struct cp_dentry **nh;
	uint32_t n, i;

	if (dc->nr_hashed < dc->nr_buckets || dc->nr_buckets >= MAX_BUCKETS)
		return;
	n = dc->nr_buckets * 2;
	nh = cp_calloc(n, sizeof(*nh));
	if (!nh)
		return; /* longer chains, still correct */
	for (i = 0; i < dc->nr_buckets; i++) {
		struct cp_dentry *d = dc->hash[i], *next;

		for (; d; d = next) {
			uint32_t b = bucket_of(d->d_parent, d->d_name_id, n);

			next = d->d_hash_next;
			d->d_hash_next = nh[b];
			nh[b] = d;
		}
	}
	cp_free(dc->hash);
	dc->hash = nh;
	dc->nr_buckets = n;
}

static void d_hash(struct cp_dcache *dc, struct cp_dentry *d)
{
	uint32_t b;

	hash_maybe_grow(dc);
	b = bucket_of(d->d_parent, d->d_name_id, dc->nr_buckets);
	d->d_hash_next = dc->hash[b];
	dc->hash[b] = d;
	d->d_flags |= CP_DCACHE_HASHED;
	dc->nr_hashed++;
}

/* __d_drop() */
static void d_unhash(struct cp_dcache *dc, struct cp_dentry *d)
{
	struct cp_dentry **pp = &dc->hash[bucket_of(d->d_parent, d->d_name_id, dc->nr_buckets)];

	while (*pp != d) {
		CP_BUG_ON(*pp == NULL);
		pp = &(*pp)->d_hash_next;
	}
	*pp = d->d_hash_next;
	d->d_hash_next = NULL;
	d->d_flags &= (uint16_t)~CP_DCACHE_HASHED;
	dc->nr_hashed--;
}

static struct cp_dentry *hash_find(const struct cp_dcache *dc, const struct cp_dentry *parent,
				   uint64_t name_id)
{
	struct cp_dentry *d = dc->hash[bucket_of(parent, name_id, dc->nr_buckets)];

	while (d && (d->d_parent != parent || d->d_name_id != name_id))
		d = d->d_hash_next;
	return d;
}

int cp_d_alloc(struct cp_dcache *dc, struct cp_dentry *parent, uint64_t name_id,
	       unsigned name_len, struct cp_alloc_ctx *ctx, struct cp_dentry **out)
{
	bool external = name_len >= dc->dname_inline_len;
	struct cp_slab_obj dobj, nobj = { CP_SLAB_NONE };
	struct cp_dentry *d;
	uint32_t id;
	int rc;

	if (name_len == 0 || name_len > NAME_MAX_LEN ||
	    (external && dc->external_name_overhead + name_len > dc->name_cache->object_size))
		return -CP_EINVAL;
	CP_BUG_ON(parent && parent->d_count == 0);
	rc = cp_list_lru_prepare(&dc->lru, (dc->dentry_cache->accounted && ctx && ctx->memcg)
						   ? ctx->memcg->id
						   : 0);
	if (rc)
		return rc;
	d = cp_pool_alloc(&dc->pool, &id);
	if (!d)
		return -CP_ENOMEM;
	/* Both slab allocations may reclaim and so run this very cache's
	 * shrinker; the caller's reference keeps parent alive and the new
	 * dentry is not visible yet. */
	rc = cp_slab_alloc(dc->dentry_cache, ctx, &dobj);
	if (rc)
		goto out_pool;
	if (external) {
		rc = cp_slab_alloc(dc->name_cache, ctx, &nobj);
		if (rc)
			goto out_dentry;
	}
	CP_BUG_ON(hash_find(dc, parent, name_id) != NULL);
	cp_list_init(&d->d_lru);
	d->d_parent = parent;
	d->d_inode = NULL;
	d->d_name_id = name_id;
	d->d_id = id;
	d->d_count = 1;
	d->d_slab = dobj;
	d->d_name_slab = nobj;
	d->d_name_len = (uint16_t)name_len;
	d->d_flags = CP_DCACHE_ALLOCATED;
	d->d_memcg_id = (uint16_t)cp_slab_obj_memcg_id(dc->dentry_cache, dobj);
	if (parent)
		parent->d_count++;
	d_hash(dc, d);
	dc->nr_dentry++;
	count(dc, CP_VM_DENTRIES_ALLOCATED);
	*out = d;
	return 0;

out_dentry:
	cp_slab_free(dc->dentry_cache, dobj);
out_pool:
	cp_pool_free(&dc->pool, id);
	return rc;
}

void cp_d_instantiate(struct cp_dentry *d, struct cp_inode *inode)
{
	CP_BUG_ON(d->d_inode != NULL || inode->i_count == 0);
	d->d_inode = inode;
}

struct cp_dentry *cp_d_lookup(struct cp_dcache *dc, const struct cp_dentry *parent,
			      uint64_t name_id)
{
	struct cp_dentry *d = hash_find(dc, parent, name_id);

	if (d)
		d->d_count++;
	return d;
}

void cp_dget(struct cp_dentry *d)
{
	CP_BUG_ON(!(d->d_flags & CP_DCACHE_ALLOCATED));
	d->d_count++;
}

void cp_d_drop(struct cp_dcache *dc, struct cp_dentry *d)
{
	if (d->d_flags & CP_DCACHE_HASHED)
		d_unhash(dc, d);
}

/* d_lru_add() */
static void d_lru_add(struct cp_dcache *dc, struct cp_dentry *d)
{
	bool added;

	d->d_flags |= CP_DCACHE_LRU_LIST;
	dc->nr_dentry_unused++;
	added = cp_list_lru_add(&dc->lru, &d->d_lru, d->d_memcg_id);
	CP_BUG_ON(!added);
	(void)added;
}

/* The keep path of the final dput (ref §1 table, §2.2). */
static void retain_dentry(struct cp_dcache *dc, struct cp_dentry *d)
{
	if (dc->policy == CP_POLICY_LEGACY) {
		/* 4.11 dput: always mark, then dentry_lru_add */
		d->d_flags |= CP_DCACHE_REFERENCED;
		if (!(d->d_flags & CP_DCACHE_LRU_LIST))
			d_lru_add(dc, d);
	} else if (!(d->d_flags & CP_DCACHE_LRU_LIST)) {
		/* 4.12+ dentry_lru_add: a new arrival is not marked */
		d_lru_add(dc, d);
	} else {
		d->d_flags |= CP_DCACHE_REFERENCED;
	}
}

/*
 * __dentry_kill(): take the dentry off any list, unhash it, drop its
 * inode and free it. Returns the parent, whose reference (held by the
 * dead child) the caller now has to drop.
 */
static struct cp_dentry *dentry_kill(struct cp_dcache *dc, struct cp_dentry *d)
{
	struct cp_dentry *parent = d->d_parent;
	struct cp_inode *inode = d->d_inode;

	CP_BUG_ON(d->d_count != 0);
	if (d->d_flags & CP_DCACHE_LRU_LIST) {
		if (d->d_flags & CP_DCACHE_SHRINK_LIST)
			cp_list_del(&d->d_lru); /* the dispose list is ours */
		else
			cp_list_lru_del(&dc->lru, &d->d_lru, d->d_memcg_id);
		d->d_flags &= (uint16_t)~(CP_DCACHE_LRU_LIST | CP_DCACHE_SHRINK_LIST);
		dc->nr_dentry_unused--;
	}
	if (d->d_flags & CP_DCACHE_HASHED)
		d_unhash(dc, d);
	d->d_inode = NULL;
	if (inode)
		cp_iput(dc->ic, inode); /* dentry_unlink_inode */
	if (d->d_name_slab.slab != CP_SLAB_NONE)
		cp_slab_free(dc->name_cache, d->d_name_slab);
	cp_slab_free(dc->dentry_cache, d->d_slab);
	d->d_flags = 0;
	cp_pool_free(&dc->pool, d->d_id);
	dc->nr_dentry--;
	count(dc, CP_VM_DENTRIES_FREED);
	return parent;
}

void cp_dput(struct cp_dcache *dc, struct cp_dentry *d)
{
	while (d) {
		CP_BUG_ON(d->d_count == 0 || !(d->d_flags & CP_DCACHE_ALLOCATED));
		if (d->d_count > 1) {
			d->d_count--;
			return;
		}
		if (d->d_flags & CP_DCACHE_HASHED) {
			retain_dentry(dc, d);
			d->d_count = 0;
			return;
		}
		/* unhashed: kill it, then put the parent it pinned (which,
		 * reaching zero here, is retained like any other dput) */
		d->d_count = 0;
		d = dentry_kill(dc, d);
	}
}

struct isolate_arg {
	struct cp_dcache *dc;
	struct cp_list dispose;
};

/* dentry_lru_isolate() (ref §2.5). */
static enum cp_lru_status dentry_lru_isolate(struct cp_list_lru *lru, struct cp_list *item,
					     void *arg)
{
	struct isolate_arg *a = arg;
	struct cp_dentry *d = cp_container_of(item, struct cp_dentry, d_lru);

	if (d->d_count) {
		/* in use: lazily taken off the LRU (d_lru_isolate); it
		 * comes back at its next final dput */
		d->d_flags &= (uint16_t)~CP_DCACHE_LRU_LIST;
		a->dc->nr_dentry_unused--;
		cp_list_lru_isolate(lru, item);
		return CP_LRU_REMOVED;
	}
	if (d->d_flags & CP_DCACHE_REFERENCED) {
		d->d_flags &= (uint16_t)~CP_DCACHE_REFERENCED;
		return CP_LRU_ROTATE;
	}
	/* d_lru_shrink_move() */
	d->d_flags |= CP_DCACHE_SHRINK_LIST;
	cp_list_lru_isolate_move(lru, item, &a->dispose);
	return CP_LRU_REMOVED;
}

/* shrink_dentry_list(): kill the isolated dentries in isolation order;
 * a parent whose count drops to zero here is killed as well. */
static void shrink_dentry_list(struct cp_dcache *dc, struct cp_list *dispose)
{
	struct cp_list *n;

	while ((n = cp_list_first(dispose)) != NULL) {
		struct cp_dentry *d = cp_container_of(n, struct cp_dentry, d_lru);

		/* d_shrink_del() */
		cp_list_del(n);
		d->d_flags &= (uint16_t)~(CP_DCACHE_SHRINK_LIST | CP_DCACHE_LRU_LIST);
		dc->nr_dentry_unused--;
		if (d->d_count > 0)
			continue; /* in use again: just dropped from the list */
		d = dentry_kill(dc, d);
		while (d) {
			if (d->d_count > 1) {
				d->d_count--;
				break;
			}
			d->d_count = 0;
			d = dentry_kill(dc, d);
		}
	}
}

uint64_t cp_prune_dcache_sb(struct cp_dcache *dc, int memcg_id, uint64_t nr_to_scan,
			    struct cp_alloc_ctx *ctx)
{
	struct isolate_arg a = { .dc = dc };
	uint64_t removed;

	(void)ctx;
	cp_list_init(&a.dispose);
	removed = cp_list_lru_walk(&dc->lru, memcg_id, dentry_lru_isolate, &a, &nr_to_scan);
	shrink_dentry_list(dc, &a.dispose);
	return removed;
}

uint64_t cp_dcache_lru_count(const struct cp_dcache *dc, int memcg_id)
{
	return cp_list_lru_count(&dc->lru, memcg_id);
}

static bool in_hash(const struct cp_dcache *dc, const struct cp_dentry *d)
{
	return hash_find(dc, d->d_parent, d->d_name_id) == d;
}

bool cp_dcache_check(const struct cp_dcache *dc)
{
	uint64_t live = 0, hashed = 0, on_lru = 0, names = 0, chained = 0;
	uint32_t *children;
	uint32_t i;
	unsigned k;
	bool ok = true;

	if (!cp_list_lru_check(&dc->lru) || !cp_pool_check(&dc->pool))
		return false;
	/* references held by children, by pool index (best effort: skipped
	 * when the host has no memory for the scratch array) */
	children = cp_calloc(dc->pool.nr_used_slots + 1, sizeof(*children));
	for (i = 0; i < dc->pool.nr_used_slots && ok; i++) {
		const struct cp_dentry *d = cp_pool_at(&dc->pool, i);
		bool lru = d->d_flags & CP_DCACHE_LRU_LIST;

		if (!(d->d_flags & CP_DCACHE_ALLOCATED))
			continue;
		live++;
		names += d->d_name_slab.slab != CP_SLAB_NONE;
		if (d->d_id != i || (d->d_flags & CP_DCACHE_SHRINK_LIST) ||
		    lru != cp_list_linked(&d->d_lru) ||
		    (bool)(d->d_flags & CP_DCACHE_HASHED) != in_hash(dc, d) ||
		    (d->d_parent && !(d->d_parent->d_flags & CP_DCACHE_ALLOCATED)) ||
		    (d->d_inode && (d->d_inode->i_count == 0 ||
				    (d->d_inode->i_state & CP_I_RECLAIMABLE))))
			ok = false;
		hashed += (d->d_flags & CP_DCACHE_HASHED) != 0;
		on_lru += lru;
		if (!lru && d->d_count == 0)
			ok = false; /* unused dentries live on the LRU */
		if (children && d->d_parent)
			children[d->d_parent->d_id]++;
	}
	if (ok && children) {
		for (i = 0; i < dc->pool.nr_used_slots; i++) {
			const struct cp_dentry *d = cp_pool_at(&dc->pool, i);

			if ((d->d_flags & CP_DCACHE_ALLOCATED) && d->d_count < children[i])
				ok = false;
		}
	}
	cp_free(children);
	if (!ok)
		return false;
	for (i = 0; i < dc->nr_buckets; i++) {
		const struct cp_dentry *d;

		for (d = dc->hash[i]; d; d = d->d_hash_next) {
			if (!(d->d_flags & CP_DCACHE_HASHED) ||
			    bucket_of(d->d_parent, d->d_name_id, dc->nr_buckets) != i)
				return false;
			chained++;
		}
	}
	for (k = 0; k < dc->lru.nr_lists; k++) {
		const struct cp_list_lru_one *l = dc->lru.lists[k];
		const struct cp_list *n;

		if (!l)
			continue;
		for (n = l->list.next; n != &l->list; n = n->next) {
			const struct cp_dentry *d = cp_container_of(n, struct cp_dentry, d_lru);

			if (d->d_memcg_id != k)
				return false;
		}
	}
	return live == dc->nr_dentry && hashed == dc->nr_hashed && chained == hashed &&
	       on_lru == dc->lru.nr_items && on_lru == dc->nr_dentry_unused &&
	       dc->pool.nr_live == live && dc->dentry_cache->nr_objects == live &&
	       dc->name_cache->nr_objects == names && cp_slab_check(dc->dentry_cache) &&
	       cp_slab_check(dc->name_cache);
}
