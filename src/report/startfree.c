/*
 * startfree.c - the measured start layout of free memory, from the real
 * harness's counters to the model's struct cp_mem_start_free.
 */
#include "report/startfree.h"

#include <stdio.h>
#include <string.h>

static const char *const type_names[CP_MIGRATE_TYPES] = {
	[CP_MIGRATE_UNMOVABLE] = "unmovable",
	[CP_MIGRATE_MOVABLE] = "movable",
	[CP_MIGRATE_RECLAIMABLE] = "reclaimable",
};

void cp_start_free_counter_name(unsigned type, unsigned order, char *buf, size_t len)
{
	snprintf(buf, len, "start_free_%s_order_%u",
		 type < CP_MIGRATE_TYPES ? type_names[type] : "unknown", order);
}

/* All 33 counters of one run, or false. */
static bool run_layout(const struct cp_run_result *r, int64_t v[CP_MIGRATE_TYPES][CP_BUDDY_MAX_ORDER])
{
	char name[64];
	unsigned t, o;

	for (t = 0; t < CP_MIGRATE_TYPES; t++)
		for (o = 0; o < CP_BUDDY_MAX_ORDER; o++) {
			cp_start_free_counter_name(t, o, name, sizeof(name));
			v[t][o] = cp_run_result_counter(r, name, -1);
			if (v[t][o] < 0)
				return false;
		}
	return true;
}

size_t cp_start_free_from_runs(const struct cp_run_result *runs, size_t n,
			       struct cp_mem_start_free *out)
{
	uint64_t sum[CP_MIGRATE_TYPES][CP_BUDDY_MAX_ORDER] = { { 0 } };
	int64_t v[CP_MIGRATE_TYPES][CP_BUDDY_MAX_ORDER];
	size_t i, used = 0;
	unsigned t, o;

	for (i = 0; i < n; i++) {
		if (!run_layout(&runs[i], v))
			continue;
		for (t = 0; t < CP_MIGRATE_TYPES; t++)
			for (o = 0; o < CP_BUDDY_MAX_ORDER; o++)
				sum[t][o] += (uint64_t)v[t][o];
		used++;
	}
	if (!used)
		return 0;
	memset(out, 0, sizeof(*out));
	for (t = 0; t < CP_MIGRATE_TYPES; t++)
		for (o = 0; o < CP_BUDDY_MAX_ORDER; o++)
			out->blocks[t][o] = (sum[t][o] + used / 2) / used;
	return used;
}
