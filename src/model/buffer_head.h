/*
 * buffer_head.h - buffer heads that a buffered write attaches to a
 * page-cache page, freed when the page leaves the cache.
 */
#ifndef CP_BUFFER_HEAD_H
#define CP_BUFFER_HEAD_H

#include <stdbool.h>
#include <stdint.h>

#include "model/memory.h"
#include "model/slab.h"

struct cp_fs_profile;
struct cp_kernel_profile;

/* struct buffer_head on x86-64 and its SLUB slab (see buffer_head.c). */
#define CP_BUFFER_HEAD_SIZE 104
#define CP_BUFFER_HEADS_PER_SLAB 39

struct cp_buffer_heads {
	struct cp_slab_cache cache; /* "buffer_head" */
	struct cp_vmstat *vmstat;
};

/* Does a buffered write on this filesystem under this kernel attach
 * buffer heads to the page (__block_write_begin)? */
bool cp_write_attaches_buffers(const struct cp_fs_profile *fs,
			       const struct cp_kernel_profile *kernel);

/* The "buffer_head" cache. Returns 0 or a negative CP_E* code. */
int cp_buffer_heads_init(struct cp_buffer_heads *bh, struct cp_mem *mem,
			 struct cp_vmstat *vmstat);
void cp_buffer_heads_release(struct cp_buffer_heads *bh);

/* create_empty_buffers() for a page of one 4 KiB block: one buffer head
 * (alloc_buffer_head, GFP_NOFS in the write path; may reclaim). Returns
 * 0 and the object in *out, or the slab allocator's error. */
int cp_create_empty_buffers(struct cp_buffer_heads *bh, struct cp_alloc_ctx *ctx,
			    struct cp_slab_obj *out);

/* try_to_free_buffers(): the page is going; free its buffer head. */
void cp_try_to_free_buffers(struct cp_buffer_heads *bh, struct cp_slab_obj obj);

/* The page cache's release_private hook: priv is the cp_buffer_heads,
 * private the page's buffer head (cp_slab_obj.slab). */
void cp_buffer_heads_release_page(void *priv, uint32_t private);

/* Pages held by the cache. */
static inline uint64_t cp_buffer_head_pages(const struct cp_buffer_heads *bh)
{
	return cp_slab_pages(&bh->cache);
}

#endif /* CP_BUFFER_HEAD_H */
