/*
 * zone.h - the zones of the node: which zones the model has, their
 * watermarks split by managed pages, the lowmem reserve (protection) of
 * a lower zone against allocations that could use a higher one, and the
 * split of a model's memory into ZONE_DMA32 and ZONE_NORMAL. The
 * mechanism and what is SIMPLIFIED are described in zone.c.
 */
#ifndef CP_ZONE_H
#define CP_ZONE_H

#include <stdbool.h>
#include <stdint.h>

#include "model/memory.h"

/* sysctl_lowmem_reserve_ratio[] defaults (mm/page_alloc.c, 4.11 and 6.1):
 * 256 for DMA and DMA32, 32 for Normal. */
#define CP_LOWMEM_RESERVE_RATIO_DMA 256u
#define CP_LOWMEM_RESERVE_RATIO_DMA32 256u

/* ZONE_DMA on x86-64: the first 16 MiB (MAX_DMA_PFN), 4 KiB pages. */
#define CP_ZONE_DMA_SPAN_PAGES 4096u

/*
 * __setup_per_zone_wmarks() for the zones of a node: managed[z] pages
 * of each zone (0: not populated). Each zone's min is its share of
 * min_free_kbytes / 4 pages by managed pages (rounded down), tmp =
 * max(min / 4, managed * wsf / 10000), low = min + tmp, high = min +
 * 2 * tmp (4.11 and 6.1 agree). out[z] of an empty zone is all 0.
 */
void cp_zone_watermarks_setup(const uint64_t managed[CP_NR_ZONE_TYPES], uint64_t min_free_kbytes,
			      unsigned watermark_scale_factor,
			      struct cp_watermarks out[CP_NR_ZONE_TYPES]);

/*
 * setup_per_zone_lowmem_reserve(): zone `lower`'s lowmem_reserve for
 * allocations whose highest zone is `upper` (> lower): the managed pages
 * of the zones above lower up to upper, divided by ratio; 0 when the
 * lower zone has no managed pages or ratio is 0.
 */
uint64_t cp_zone_lowmem_reserve(const uint64_t managed[CP_NR_ZONE_TYPES], enum cp_zone_type lower,
				enum cp_zone_type upper, unsigned ratio);

/*
 * calculate_totalreserve_pages(): the pages of a zone that
 * si_mem_available() (MemAvailable) does not count as available - its
 * high watermark plus its largest lowmem_reserve, at most its managed
 * pages.
 */
uint64_t cp_zone_totalreserve(uint64_t managed, uint64_t high, uint64_t lowmem_reserve);

/*
 * The global regime's zones of `size_pages` of RAM on a machine whose
 * ZONE_DMA32 manages dma32_pages (0: not known): DMA32 gets
 * min(dma32_pages, size_pages), Normal the rest. *dma32 and *normal in
 * pages; with dma32_pages 0 everything is one zone (*dma32 = 0, *normal
 * = size_pages: the model's single zone of old).
 */
void cp_zone_split(uint64_t size_pages, uint64_t dma32_pages, uint64_t *dma32, uint64_t *normal);

#endif /* CP_ZONE_H */
