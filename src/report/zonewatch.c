/*
 * zonewatch.c - the Normal zone against its boosted watermarks, from
 * samples (see zonewatch.h). No kernel mechanism is modelled here.
 */
#include "report/zonewatch.h"

void cp_zonewatch_add(struct cp_zonewatch *zw, uint64_t free_pages, uint64_t boost,
		      uint64_t boosted_min)
{
	zw->samples++;
	zw->boost_sum += boost;
	if (boost)
		zw->boosted++;
	/* __zone_watermark_ok(): free_pages <= min fails */
	if (free_pages <= boosted_min)
		zw->below_min++;
}

int cp_zonewatch_counters(const struct cp_zonewatch *zw, struct cp_run_result *r)
{
	int rc = cp_run_result_set_counter(r, "zonewatch_samples", (int64_t)zw->samples);

	if (rc || !zw->samples)
		return rc;
	rc = cp_run_result_set_counter(r, "normal_boosted_pm",
				       (int64_t)(zw->boosted * 1000 / zw->samples));
	if (!rc)
		rc = cp_run_result_set_counter(r, "normal_boost_mean_pages",
					       (int64_t)(zw->boost_sum / zw->samples));
	if (!rc)
		rc = cp_run_result_set_counter(r, "normal_below_min_pm",
					       (int64_t)(zw->below_min * 1000 / zw->samples));
	return rc;
}
