/*
 * buffer_head.c - buffer heads on page-cache pages written through the
 * buffered write path, and their release with the page.
 *
 * Mechanism (fs/buffer.c, 4.11 and 6.1): a buffered write that goes
 * through __block_write_begin() finds the page without buffers and calls
 * create_empty_buffers() -> alloc_page_buffers() -> alloc_buffer_head(),
 * one struct buffer_head per filesystem block (4 KiB blocks: one a page).
 * They stay attached after writeback; they are freed only when the page
 * leaves the page cache: reclaim (shrink_page_list -> try_to_release_page
 * -> ->releasepage, e.g. xfs_vm_releasepage -> try_to_free_buffers ->
 * free_buffer_head) or truncation (block_invalidatepage). Pages that
 * readahead brings in over contiguous blocks get none (mpage_readpages
 * maps through a buffer head on the stack).
 *
 * Who attaches them:
 * - XFS on 4.11: fs/iomap.c iomap_write_begin() calls
 *   __block_write_begin_int() for every page it writes [V: read in a
 *   4.9-based tree, the code 4.11 has];
 * - XFS on 6.1: no; fs/iomap/buffered-io.c iomap_write_begin() calls it
 *   only for an iomap with IOMAP_F_BUFFER_HEAD, which XFS never sets
 *   [V 6.1 source];
 * - ext4 on both: ext4_write_begin()/ext4_da_write_begin() go through
 *   __block_write_begin() [I: recalled, not re-read].
 *
 * struct buffer_head is 104 bytes, 39 to an order-0 SLUB slab: measured
 * on this project's machines (6.18.44, `grep ^buffer_head /proc/slabinfo`
 * -> "buffer_head ... 104 39 1"); 4.11 has the same members except
 * b_uptodate_lock (5.8), a 4-byte lock that sits in the padding after
 * b_count, so 104 there too [I].
 *
 * SIMPLIFIED: buffer_heads_over_limit (reclaim stripping buffers from
 * active pages once buffer heads take more than 10 % of lowmem) is not
 * modelled: one 104-byte head per 4 KiB page is 2.5 % of the page cache;
 * the cache is not charged to memory cgroups (alloc_buffer_head's
 * __GFP_ACCOUNT is not modelled).
 */
#include "model/buffer_head.h"

#include "model/fs_profile.h"
#include "model/profile.h"

bool cp_write_attaches_buffers(const struct cp_fs_profile *fs,
			       const struct cp_kernel_profile *kernel)
{
	if (fs->kind == CP_FS_EXT4)
		return true;
	return kernel->iomap_write_buffer_heads;
}

int cp_buffer_heads_init(struct cp_buffer_heads *bh, struct cp_mem *mem,
			 struct cp_vmstat *vmstat)
{
	const struct cp_slab_geometry g = {
		"buffer_head", CP_BUFFER_HEAD_SIZE, CP_BUFFER_HEADS_PER_SLAB, 0, false,
		/* fs/buffer.c buffer_init: SLAB_RECLAIM_ACCOUNT (4.11, 6.1) */
		CP_MIGRATE_RECLAIMABLE,
	};

	bh->vmstat = vmstat;
	return cp_slab_cache_init(&bh->cache, mem, &g);
}

void cp_buffer_heads_release(struct cp_buffer_heads *bh)
{
	cp_slab_cache_release(&bh->cache);
}

int cp_create_empty_buffers(struct cp_buffer_heads *bh, struct cp_alloc_ctx *ctx,
			    struct cp_slab_obj *out)
{
	int rc = cp_slab_alloc(&bh->cache, ctx, out);

	if (!rc)
		cp_count(bh->vmstat, CP_VM_BUFFER_HEADS_ALLOCATED, 1);
	return rc;
}

void cp_try_to_free_buffers(struct cp_buffer_heads *bh, struct cp_slab_obj obj)
{
	cp_slab_free(&bh->cache, obj);
	cp_count(bh->vmstat, CP_VM_BUFFER_HEADS_FREED, 1);
}

void cp_buffer_heads_release_page(void *priv, uint32_t private)
{
	cp_try_to_free_buffers(priv, (struct cp_slab_obj){ .slab = private });
}
