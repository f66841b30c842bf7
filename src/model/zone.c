/*
 * zone.c - the node's zones: watermarks by managed share, lowmem reserve,
 * and how the model's memory splits into ZONE_DMA32 and ZONE_NORMAL.
 *
 * Mechanism (mm/page_alloc.c, 4.11 and 6.1): min_free_kbytes is one
 * node-wide (system-wide) number; __setup_per_zone_wmarks() gives each
 * lowmem zone the part of it in proportion to the zone's managed pages,
 * then low and high one and two steps of max(min / 4, managed * wsf /
 * 10000) above. setup_per_zone_lowmem_reserve() protects a lower zone
 * from allocations that could have used a higher one: zone i keeps
 * lowmem_reserve[j] = (managed pages of zones i+1..j) / ratio[i] free
 * for its own, which __zone_watermark_ok() adds to the mark when an
 * allocation whose highest zone is j looks at zone i.
 *
 * On x86-64 GFP_KERNEL, GFP_NOFS and GFP_HIGHUSER_MOVABLE all have
 * highest zone Normal (no ZONE_MOVABLE configured), so the zonelist of
 * every allocation the model makes is Normal, then DMA32, then DMA.
 *
 * SIMPLIFIED: ZONE_DMA is not modelled. Its protection for Normal-index
 * allocations ((DMA32 + Normal managed) / 256, 24 090 pages on the
 * measured 24 GiB machine) is larger than its managed pages (3 840), so
 * none of the model's allocations can take a page from it; its pages
 * count as reserve. Its managed pages still take their share of
 * min_free_kbytes (cp_zone_watermarks_setup with managed[DMA]).
 * No ZONE_MOVABLE, no highmem, one node.
 */
#include "model/zone.h"

void cp_zone_watermarks_setup(const uint64_t managed[CP_NR_ZONE_TYPES], uint64_t min_free_kbytes,
			      unsigned watermark_scale_factor,
			      struct cp_watermarks out[CP_NR_ZONE_TYPES])
{
	uint64_t pages_min = min_free_kbytes / 4; /* KiB -> 4 KiB pages */
	uint64_t lowmem = 0;
	unsigned z;

	for (z = 0; z < CP_NR_ZONE_TYPES; z++)
		lowmem += managed[z];
	for (z = 0; z < CP_NR_ZONE_TYPES; z++) {
		uint64_t min, tmp;

		if (!managed[z] || !lowmem) {
			out[z] = (struct cp_watermarks){ 0, 0, 0 };
			continue;
		}
		/* pages_min * managed fits 64 bits for any model size */
		min = pages_min * managed[z] / lowmem;
		tmp = managed[z] * watermark_scale_factor / 10000;
		if (tmp < min / 4)
			tmp = min / 4;
		out[z] = (struct cp_watermarks){ min, min + tmp, min + 2 * tmp };
	}
}

uint64_t cp_zone_lowmem_reserve(const uint64_t managed[CP_NR_ZONE_TYPES], enum cp_zone_type lower,
				enum cp_zone_type upper, unsigned ratio)
{
	uint64_t above = 0;
	unsigned z;

	if (ratio == 0 || lower >= upper || upper >= CP_NR_ZONE_TYPES || !managed[lower])
		return 0;
	for (z = (unsigned)lower + 1; z <= (unsigned)upper; z++)
		above += managed[z];
	return above / ratio;
}

void cp_zone_split(uint64_t size_pages, uint64_t dma32_pages, uint64_t *dma32, uint64_t *normal)
{
	if (dma32_pages == 0) {
		*dma32 = 0;
		*normal = size_pages;
		return;
	}
	*dma32 = dma32_pages < size_pages ? dma32_pages : size_pages;
	*normal = size_pages - *dma32;
}
