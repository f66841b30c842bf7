/*
 * zonewatch.h - how the Normal zone's free pages stood against its
 * watermarks over a run, from samples: how often the watermarks were
 * boosted (zone->watermark_boost > 0: a fallback raised them, mm/
 * page_alloc.c boost_watermark; a boosted kswapd run clears them), by
 * how much on average, and how often the free pages were at or below
 * the boosted min watermark (min_wmark_pages: _watermark[WMARK_MIN] +
 * watermark_boost), where an allocation enters direct reclaim.
 *
 * The real harness samples /proc/zoneinfo ("pages free", "boost",
 * "min", which includes the boost) every CP_ZONEWATCH_REAL_NS; the model
 * samples its zone at its series interval. Both give the same counters,
 * so validate compares them row by row.
 */
#ifndef CP_REPORT_ZONEWATCH_H
#define CP_REPORT_ZONEWATCH_H

#include <stdint.h>

#include <cachepressure/result.h>

/* The real harness's sampling period: 20 ms (a /proc/zoneinfo read costs
 * tens of microseconds: well under 1 % of a CPU). */
#define CP_ZONEWATCH_REAL_NS 20000000ull

struct cp_zonewatch {
	uint64_t samples;
	uint64_t boosted;    /* samples with boost > 0 */
	uint64_t below_min;  /* samples with free <= min (boost included) */
	uint64_t boost_sum;  /* pages, summed over the samples */
};

/* One sample: the zone's free pages (NR_FREE_PAGES), its boost, and its
 * min watermark with the boost included. */
void cp_zonewatch_add(struct cp_zonewatch *zw, uint64_t free_pages, uint64_t boost,
		      uint64_t boosted_min);

/*
 * Sets r's counters: zonewatch_samples; and, with samples,
 * normal_boosted_pm (per mille of the samples boosted),
 * normal_boost_mean_pages (the mean boost, rounded down) and
 * normal_below_min_pm (per mille at or below the boosted min, where
 * __zone_watermark_ok fails). 0 or the
 * error of cp_run_result_set_counter.
 */
int cp_zonewatch_counters(const struct cp_zonewatch *zw, struct cp_run_result *r);

#endif /* CP_REPORT_ZONEWATCH_H */
