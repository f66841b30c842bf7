/*
 * startfree.h - the machine's free memory at the start of a real run
 * (the start_free_<type>_order_<o> counters the harness records from
 * /proc/pagetypeinfo), as a start layout for the model (memory.h
 * struct cp_mem_start_free).
 */
#ifndef CP_REPORT_STARTFREE_H
#define CP_REPORT_STARTFREE_H

#include <stddef.h>

#include <cachepressure/result.h>

#include "model/memory.h"

/* The counter of (type, order): "start_free_movable_order_3" etc. */
void cp_start_free_counter_name(unsigned type, unsigned order, char *buf, size_t len);

/* The per-zone counter of (zone, type, order), zone an enum
 * cp_zone_type: "start_free_dma32_movable_order_3" etc.; and the
 * zone's managed pages: "zone_normal_managed_pages". */
void cp_start_free_zone_counter_name(unsigned zone, unsigned type, unsigned order, char *buf,
				     size_t len);
void cp_zone_managed_counter_name(unsigned zone, char *buf, size_t len);

/* The zone's pageblocks of the type (/proc/pagetypeinfo's "Number of
 * blocks type"), `when` "start" (the start layout, after the balloon) or
 * "measured" (when the measured phase starts): real and model alike,
 * "start_pageblocks_normal_reclaimable". */
void cp_pageblocks_counter_name(const char *when, unsigned zone, unsigned type, char *buf,
				size_t len);

/* The pages on the zone's per-CPU lists (/proc/zoneinfo pagesets'
 * "count:"), `when` "start" or "measured": "start_pcp_normal_pages". */
void cp_pcp_counter_name(const char *when, unsigned zone, char *buf, size_t len);

/* The free pages of (zone, type) when the measured phase starts, real
 * (/proc/pagetypeinfo) and model alike: "measured_free_dma32_movable_pages". */
void cp_measured_free_counter_name(unsigned zone, unsigned type, char *buf, size_t len);

/* Of those, the pages in free blocks of order 8 or more - half a
 * pageblock: try_to_claim_block() claims such a block's pageblock on its
 * free pages alone, without a watermark boost when the block is a whole
 * pageblock - "measured_free_normal_movable_order8_pages". */
#define CP_MEASURED_FREE_HALF_BLOCK_ORDER 8u
void cp_measured_free_half_block_counter_name(unsigned zone, unsigned type, char *buf,
					      size_t len);

/* The free blocks of (zone, type, order) then, real (/proc/pagetypeinfo)
 * and model alike, as start_free_* counts them after the balloon: which
 * block sizes the set-up left, e.g. whether an order-2 slab finds a block
 * of its own type - "measured_free_normal_reclaimable_order_2". */
void cp_measured_free_order_counter_name(unsigned zone, unsigned type, unsigned order,
					 char *buf, size_t len);

/* The zone's file LRU pages (nr_zone_active_file + nr_zone_inactive_file)
 * then, real and model alike: "measured_file_dma32_pages". */
void cp_measured_file_counter_name(unsigned zone, char *buf, size_t len);

/* The zone's watermark boost then (/proc/zoneinfo "boost", the model's
 * zone watermark_boost), real and model alike: "measured_boost_normal_pages". */
void cp_measured_boost_counter_name(unsigned zone, char *buf, size_t len);

/*
 * The mean, rounded to the nearest block, of the start_free counters
 * over the runs that carry all 33 of them (failed runs too: the start
 * is measured before anything can fail). When each of those runs also
 * carries the per-zone counters of DMA32 and Normal (33 each) and
 * their zone_<zone>_managed_pages, out->has_zones and the per-zone
 * means too (DMA's counters count as 0 when absent); else has_zones is
 * false (older runs: one zone). With has_zones, when every one of those
 * runs carries the start_pageblocks counters of DMA32 and Normal, their
 * means too (has_pageblocks). With has_zones, zone_free_measured (the
 * blocks are all of the run's free memory) and the mean of the
 * start_pcp_<zone>_pages counters (0 where a run has none). Returns the number of runs used (0: none
 * carries them, *out untouched).
 */
size_t cp_start_free_from_runs(const struct cp_run_result *runs, size_t n,
			       struct cp_mem_start_free *out);

#endif /* CP_REPORT_STARTFREE_H */
