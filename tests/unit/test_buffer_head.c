/*
 * test_buffer_head.c - buffer heads on written pages (buffer_head.c):
 * who attaches them, one per page, and their release with the page.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "model/buffer_head.h"
#include "model/fs_profile.h"
#include "model/gfp.h"
#include "model/lru.h"
#include "model/memory.h"
#include "model/pagecache.h"
#include "model/profile.h"

struct fixture {
	struct cp_vmstat vs;
	struct cp_mem mem;
	struct cp_pagecache pc;
	struct cp_buffer_heads bh;
	struct cp_alloc_ctx ctx;
	uint32_t id;
};

static struct fixture *fixture_new(uint32_t nr_index)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct cp_mem_params mp = {
		.total_pages = 1 << 20, .min_free_kbytes = 1024, .watermark_scale_factor = 10,
		.min_free_kbytes_max = 65536, .memcg_reclaim_retries = 5,
	};
	struct cp_pagecache_params pp = { .nr_cpus = 1, .lru_add_batch = 1 };

	assert_non_null(f);
	assert_int_equal(cp_mem_init(&f->mem, &mp, &f->vs, NULL), 0);
	assert_int_equal(cp_pagecache_init(&f->pc, &pp, &f->mem, &f->vs), 0);
	assert_int_equal(cp_buffer_heads_init(&f->bh, &f->mem, &f->vs), 0);
	f->pc.release_private = cp_buffer_heads_release_page;
	f->pc.release_private_priv = &f->bh;
	f->ctx.gfp = CP_GFP_NOFS;
	assert_int_equal(cp_pagecache_add_mapping(&f->pc, nr_index, NULL, NULL, &f->id), 0);
	return f;
}

static void fixture_free(struct fixture *f)
{
	cp_buffer_heads_release(&f->bh);
	cp_pagecache_release(&f->pc);
	cp_mem_release(&f->mem);
	free(f);
}

/* What a buffered write does to page `index`: the page and its head. */
static void write_page(struct fixture *f, uint32_t index)
{
	struct cp_slab_obj o;

	assert_int_equal(cp_create_empty_buffers(&f->bh, &f->ctx, &o), 0);
	assert_int_equal(cp_add_to_page_cache_lru(&f->pc, f->id, index, &f->ctx), 0);
	cp_page_attach_private(&f->pc, cp_mapping_slot(&f->pc, f->id, index), o.slab);
}

/* Pages 0 .. n-1, as dd writes them. */
static void write_pages(struct fixture *f, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		write_page(f, i);
}

/* XFS on 4.11 writes through iomap_write_begin -> __block_write_begin_int
 * (buffer heads); XFS on 6.1 only for IOMAP_F_BUFFER_HEAD, which it never
 * sets; ext4 goes through __block_write_begin on both. */
static void who_attaches_buffer_heads(void **state)
{
	const struct cp_fs_profile *xfs = cp_fs_profile_find("xfs");
	const struct cp_fs_profile *ext4 = cp_fs_profile_find("ext4");
	const struct cp_kernel_profile *k411 = cp_kernel_profile_find("linux-4.11");
	const struct cp_kernel_profile *k61 = cp_kernel_profile_find("linux-6.1");
	const struct cp_kernel_profile *k6x = cp_kernel_profile_find("linux-6.x");

	(void)state;
	assert_true(cp_write_attaches_buffers(xfs, k411));
	assert_false(cp_write_attaches_buffers(xfs, k61));
	assert_false(cp_write_attaches_buffers(xfs, k6x));
	assert_true(cp_write_attaches_buffers(ext4, k411));
	assert_true(cp_write_attaches_buffers(ext4, k61));
}

/* One 104-byte head per 4 KiB-block page, 39 to an order-0 slab: 78
 * written pages hold 2 slab pages of heads, the 79th a third. */
static void one_head_per_page_39_to_a_slab_page(void **state)
{
	struct fixture *f = fixture_new(128);

	(void)state;
	write_pages(f, 78);
	assert_int_equal(cp_buffer_head_pages(&f->bh), 2);
	write_page(f, 78);
	assert_int_equal(cp_buffer_head_pages(&f->bh), 3);
	assert_int_equal(f->vs.v[CP_VM_BUFFER_HEADS_ALLOCATED], 79);
	assert_int_equal(f->mem.nr_owner[CP_OWNER_PAGECACHE], 79);
	assert_true(cp_pagecache_check(&f->pc));
	fixture_free(f);
}

/* Reclaim: shrink_page_list -> try_to_release_page -> try_to_free_buffers.
 * Evicting the 39 pages whose heads share the first slab frees that
 * slab's page as well as the 39 data pages. */
static void reclaim_frees_the_heads_with_the_pages(void **state)
{
	struct fixture *f = fixture_new(128);
	uint32_t i;

	(void)state;
	write_pages(f, 78);
	for (i = 0; i < 39; i++) {
		uint32_t slot = cp_lru_tail(&f->pc, CP_LRU_INACTIVE_FILE);

		assert_int_equal(slot, cp_mapping_slot(&f->pc, f->id, i));
		cp_lru_del(&f->pc, slot);
		cp_pagecache_evict(&f->pc, slot);
		assert_false(f->pc.pages[slot].pflags & CP_PG_PRIVATE);
	}
	assert_int_equal(f->vs.v[CP_VM_BUFFER_HEADS_FREED], 39);
	assert_int_equal(cp_buffer_head_pages(&f->bh), 1);
	assert_int_equal(f->mem.nr_owner[CP_OWNER_PAGECACHE], 39);
	assert_true(cp_pagecache_check(&f->pc));
	fixture_free(f);
}

/* Truncation (block_invalidatepage) frees them too; a page read back
 * after eviction (readahead, no __block_write_begin) has none. */
static void truncation_frees_them_and_reads_attach_none(void **state)
{
	struct fixture *f = fixture_new(16);
	uint32_t slot;

	(void)state;
	write_pages(f, 4);
	slot = cp_lru_tail(&f->pc, CP_LRU_INACTIVE_FILE);
	cp_lru_del(&f->pc, slot);
	cp_pagecache_evict(&f->pc, slot);
	assert_int_equal(cp_add_to_page_cache_lru(&f->pc, f->id, 0, &f->ctx), 0);
	assert_false(f->pc.pages[cp_mapping_slot(&f->pc, f->id, 0)].pflags & CP_PG_PRIVATE);
	assert_int_equal(cp_invalidate_mapping_pages(&f->pc, f->id), 4);
	assert_int_equal(f->vs.v[CP_VM_BUFFER_HEADS_FREED], 4);
	assert_int_equal(cp_buffer_head_pages(&f->bh), 0);
	assert_true(cp_pagecache_check(&f->pc));
	fixture_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(who_attaches_buffer_heads),
		cmocka_unit_test(one_head_per_page_39_to_a_slab_page),
		cmocka_unit_test(reclaim_frees_the_heads_with_the_pages),
		cmocka_unit_test(truncation_frees_them_and_reads_attach_none),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
