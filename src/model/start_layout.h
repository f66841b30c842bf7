/*
 * start_layout.h - a measured layout of free memory (the real harness's
 * /proc/pagetypeinfo after its balloon) laid into one zone's buddy
 * allocator; how in start_layout.c.
 */
#ifndef CP_MODEL_START_LAYOUT_H
#define CP_MODEL_START_LAYOUT_H

#include <stdint.h>

#include "model/buddy.h"

struct cp_mem;

/* One zone's fragments: its free blocks below pageblock_order by
 * migratetype, and the pageblocks each type's fragments are laid into
 * (0: not measured, each fragment beside an allocated buddy). */
struct cp_start_layout {
	uint64_t frag[CP_MIGRATE_TYPES][CP_BUDDY_PAGEBLOCK_ORDER];
	uint64_t pageblocks[CP_MIGRATE_TYPES];
};

/*
 * The layout of one zone from its measured free blocks (all orders) and,
 * when measured (else NULL), its pageblocks of each type (pagetypeinfo's
 * "Number of blocks type"), scaled down in proportion when the fragments
 * do not fit in `room` pages.
 */
void cp_start_layout_plan(const uint64_t blocks[CP_MIGRATE_TYPES][CP_BUDDY_MAX_ORDER],
			  const uint64_t *pageblocks, uint64_t room, struct cp_start_layout *out);

/* The pages the layout adds to the zone: its pageblocks less their free
 * pages, in *pages. 0 or -CP_ENOMEM. */
int cp_start_layout_extra_pages(const struct cp_start_layout *l, uint64_t *pages);

/*
 * Lay the fragments into the zone's buddy b (zone-local pfns; the zone
 * starts at global pfn start_pfn in m): for each type take whole free
 * pageblocks, give them the type while all their pages are allocated
 * (set_pageblock_migratetype), free the fragments. The pages left
 * allocated in MOVABLE pageblocks become m's movable fillers. The zone
 * must have the room (cp_start_layout_extra_pages, in whole free
 * pageblocks). 0, -CP_ENOMEM, or -CP_ENOSPC when it has not (b is then
 * half laid: release it).
 */
int cp_start_layout_apply(struct cp_mem *m, struct cp_buddy *b, uint32_t start_pfn,
			  const struct cp_start_layout *l);

#endif /* CP_MODEL_START_LAYOUT_H */
