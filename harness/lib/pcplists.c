/*
 * pcplists.c - shrink the per-CPU page lists for the start of a run
 * (see pcplists.h): mm/page_alloc.c percpu_pagelist_high_fraction_sysctl_handler
 * -> zone_set_pageset_high_and_batch() lowers every CPU's high; the pages
 * above it go back to the buddy lists of their pageblocks.
 */
#include "pcplists.h"

#include <cachepressure/error.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/alloc.h"
#include "kfile.h"
#include "sample.h"

#define FRACTION_PATH "/proc/sys/vm/percpu_pagelist_high_fraction"

/* Pages on the per-CPU lists of every zone, or -1. */
static int64_t pcp_pages(void)
{
	char *text;
	uint64_t sum;

	if (cp_kfile_read("/proc/zoneinfo", &text, NULL))
		return -1;
	sum = cp_zoneinfo_pcp_pages_all(text);
	cp_free(text);
	return (int64_t)sum;
}

static void sleep_ms(unsigned ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) != 0)
		;
}

int cp_pcp_shrink(struct cp_pcp_shrink *s, unsigned max_ms, struct cp_diag *diag)
{
	char *text;
	int64_t last, now;
	unsigned waited = 0, steady = 0;
	int rc;

	memset(s, 0, sizeof(*s));
	rc = cp_kfile_read(FRACTION_PATH, &text, diag);
	if (rc)
		return rc;
	snprintf(s->saved, sizeof(s->saved), "%s", text);
	s->saved[strcspn(s->saved, "\n")] = '\0';
	cp_free(text);
	rc = cp_kfile_write(FRACTION_PATH, CP_PCP_SHRINK_FRACTION, diag);
	if (rc)
		return rc;
	s->active = true;
	last = pcp_pages();
	while (waited < max_ms && steady < 500) {
		sleep_ms(100);
		waited += 100;
		now = pcp_pages();
		steady = now < last ? 0 : steady + 100;
		last = now;
	}
	return 0;
}

int cp_pcp_restore(struct cp_pcp_shrink *s, struct cp_diag *diag)
{
	int rc;

	if (!s->active)
		return 0;
	rc = cp_kfile_write(FRACTION_PATH, s->saved, diag);
	if (!rc)
		s->active = false;
	return rc;
}
