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

static const char *const zone_names[CP_NR_ZONE_TYPES] = {
	[CP_ZONE_DMA] = "dma",
	[CP_ZONE_DMA32] = "dma32",
	[CP_ZONE_NORMAL] = "normal",
};

void cp_start_free_counter_name(unsigned type, unsigned order, char *buf, size_t len)
{
	snprintf(buf, len, "start_free_%s_order_%u",
		 type < CP_MIGRATE_TYPES ? type_names[type] : "unknown", order);
}

void cp_start_free_zone_counter_name(unsigned zone, unsigned type, unsigned order, char *buf,
				     size_t len)
{
	snprintf(buf, len, "start_free_%s_%s_order_%u",
		 zone < CP_NR_ZONE_TYPES ? zone_names[zone] : "unknown",
		 type < CP_MIGRATE_TYPES ? type_names[type] : "unknown", order);
}

void cp_measured_free_counter_name(unsigned zone, unsigned type, char *buf, size_t len)
{
	snprintf(buf, len, "measured_free_%s_%s_pages",
		 zone < CP_NR_ZONE_TYPES ? zone_names[zone] : "unknown",
		 type < CP_MIGRATE_TYPES ? type_names[type] : "unknown");
}

void cp_measured_free_half_block_counter_name(unsigned zone, unsigned type, char *buf,
					      size_t len)
{
	snprintf(buf, len, "measured_free_%s_%s_order%u_pages",
		 zone < CP_NR_ZONE_TYPES ? zone_names[zone] : "unknown",
		 type < CP_MIGRATE_TYPES ? type_names[type] : "unknown",
		 CP_MEASURED_FREE_HALF_BLOCK_ORDER);
}

void cp_measured_free_order_counter_name(unsigned zone, unsigned type, unsigned order,
					 char *buf, size_t len)
{
	snprintf(buf, len, "measured_free_%s_%s_order_%u",
		 zone < CP_NR_ZONE_TYPES ? zone_names[zone] : "unknown",
		 type < CP_MIGRATE_TYPES ? type_names[type] : "unknown", order);
}

void cp_measured_file_counter_name(unsigned zone, char *buf, size_t len)
{
	snprintf(buf, len, "measured_file_%s_pages",
		 zone < CP_NR_ZONE_TYPES ? zone_names[zone] : "unknown");
}

void cp_measured_boost_counter_name(unsigned zone, char *buf, size_t len)
{
	snprintf(buf, len, "measured_boost_%s_pages",
		 zone < CP_NR_ZONE_TYPES ? zone_names[zone] : "unknown");
}

void cp_pageblocks_counter_name(const char *when, unsigned zone, unsigned type, char *buf,
				size_t len)
{
	snprintf(buf, len, "%s_pageblocks_%s_%s", when,
		 zone < CP_NR_ZONE_TYPES ? zone_names[zone] : "unknown",
		 type < CP_MIGRATE_TYPES ? type_names[type] : "unknown");
}

void cp_pcp_counter_name(const char *when, unsigned zone, char *buf, size_t len)
{
	snprintf(buf, len, "%s_pcp_%s_pages", when,
		 zone < CP_NR_ZONE_TYPES ? zone_names[zone] : "unknown");
}

void cp_zone_managed_counter_name(unsigned zone, char *buf, size_t len)
{
	snprintf(buf, len, "zone_%s_managed_pages",
		 zone < CP_NR_ZONE_TYPES ? zone_names[zone] : "unknown");
}

/* The 33 per-zone counters of DMA32 and Normal (DMA's too when there;
 * missing DMA counters count as 0) and their managed pages, or false. */
static bool run_zone_layout(const struct cp_run_result *r,
			    int64_t v[CP_NR_ZONE_TYPES][CP_MIGRATE_TYPES][CP_BUDDY_MAX_ORDER],
			    int64_t managed[CP_NR_ZONE_TYPES])
{
	char name[64];
	unsigned z, t, o;

	for (z = 0; z < CP_NR_ZONE_TYPES; z++) {
		int64_t dflt = z == CP_ZONE_DMA ? 0 : -1;

		cp_zone_managed_counter_name(z, name, sizeof(name));
		managed[z] = cp_run_result_counter(r, name, dflt);
		if (managed[z] < 0)
			return false;
		for (t = 0; t < CP_MIGRATE_TYPES; t++)
			for (o = 0; o < CP_BUDDY_MAX_ORDER; o++) {
				cp_start_free_zone_counter_name(z, t, o, name, sizeof(name));
				v[z][t][o] = cp_run_result_counter(r, name, dflt);
				if (v[z][t][o] < 0)
					return false;
			}
	}
	return true;
}

/* The start_pageblocks counters of DMA32 and Normal, or false. */
static bool run_zone_pageblocks(const struct cp_run_result *r,
				int64_t v[CP_NR_ZONE_TYPES][CP_MIGRATE_TYPES])
{
	char name[64];
	unsigned z, t;

	memset(v, 0, sizeof(int64_t) * CP_NR_ZONE_TYPES * CP_MIGRATE_TYPES);
	for (z = CP_ZONE_DMA32; z < CP_NR_ZONE_TYPES; z++)
		for (t = 0; t < CP_MIGRATE_TYPES; t++) {
			cp_pageblocks_counter_name("start", z, t, name, sizeof(name));
			v[z][t] = cp_run_result_counter(r, name, -1);
			if (v[z][t] < 0)
				return false;
		}
	return true;
}

/* The per-zone layout: the mean over the runs that carry it, only when
 * every run that carries the summed counters carries it too; and their
 * pageblocks, only when every one of those runs carries them. */
static void zone_layout_from_runs(const struct cp_run_result *runs, size_t n, size_t used,
				  struct cp_mem_start_free *out)
{
	int64_t v[CP_NR_ZONE_TYPES][CP_MIGRATE_TYPES][CP_BUDDY_MAX_ORDER];
	int64_t pb[CP_NR_ZONE_TYPES][CP_MIGRATE_TYPES];
	uint64_t sum[CP_NR_ZONE_TYPES][CP_MIGRATE_TYPES][CP_BUDDY_MAX_ORDER] = { { { 0 } } };
	uint64_t pbsum[CP_NR_ZONE_TYPES][CP_MIGRATE_TYPES] = { { 0 } };
	uint64_t msum[CP_NR_ZONE_TYPES] = { 0 }, pcpsum[CP_NR_ZONE_TYPES] = { 0 };
	int64_t managed[CP_NR_ZONE_TYPES];
	size_t i, nz = 0, npb = 0;
	unsigned z, t, o;
	char name[64];

	for (i = 0; i < n; i++) {
		if (!run_zone_layout(&runs[i], v, managed))
			continue;
		for (z = 0; z < CP_NR_ZONE_TYPES; z++) {
			/* the per-CPU lists then; runs made before they were
			 * recorded count none */
			int64_t pcp;

			cp_pcp_counter_name("start", z, name, sizeof(name));
			pcp = cp_run_result_counter(&runs[i], name, 0);
			pcpsum[z] += pcp > 0 ? (uint64_t)pcp : 0;
			msum[z] += (uint64_t)managed[z];
			for (t = 0; t < CP_MIGRATE_TYPES; t++)
				for (o = 0; o < CP_BUDDY_MAX_ORDER; o++)
					sum[z][t][o] += (uint64_t)v[z][t][o];
		}
		nz++;
		if (!run_zone_pageblocks(&runs[i], pb))
			continue;
		for (z = 0; z < CP_NR_ZONE_TYPES; z++)
			for (t = 0; t < CP_MIGRATE_TYPES; t++)
				pbsum[z][t] += (uint64_t)pb[z][t];
		npb++;
	}
	if (nz == 0 || nz != used)
		return;
	out->has_zones = true;
	out->has_pageblocks = npb == nz;
	out->zone_free_measured = true;
	for (z = 0; z < CP_NR_ZONE_TYPES; z++) {
		out->zone_managed_pages[z] = (msum[z] + nz / 2) / nz;
		out->zone_pcp_pages[z] = (pcpsum[z] + nz / 2) / nz;
		for (t = 0; t < CP_MIGRATE_TYPES; t++) {
			for (o = 0; o < CP_BUDDY_MAX_ORDER; o++)
				out->zone_blocks[z][t][o] = (sum[z][t][o] + nz / 2) / nz;
			if (out->has_pageblocks)
				out->zone_pageblocks[z][t] = (pbsum[z][t] + nz / 2) / nz;
		}
	}
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
	zone_layout_from_runs(runs, n, used, out);
	return used;
}
