/*
 * cachedrate.c - the readers' cached read rate from a real run's passes.
 *
 * This VM's copy rates drift by a third within minutes (docs/fidelity.md,
 * session 25), and the readers' speed against reclaim sets how many of
 * the pages it deactivates they rescue (session 30: copy bandwidth 6.0 /
 * 7.57 / 9.0 GB/s gave 0.92 / 0.90 / 0.72 GB re-read). Before fs_mark
 * starts, a real run's two readers copy cached files side by side with
 * nothing else running - what `calibrate` times for memory_bandwidth -
 * for about a hundred passes each, so the run measures that rate itself.
 */
#include "report/cachedrate.h"

#include <cachepressure/error.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "scenario/scenario.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The first creator's start: the end of the readers-only phase (0: none
 * starts at a fixed time). */
static uint64_t readers_only_until(const struct cp_scenario *sc)
{
	uint64_t until = 0;
	size_t i;

	for (i = 0; i < sc->nr_creators; i++) {
		const struct cp_sc_actor *a = &sc->creators[i].actor;

		if (a->start_after)
			continue;
		if (!until || a->start_ns < until)
			until = a->start_ns;
	}
	return until;
}

static uint64_t file_bytes_of(const struct cp_scenario *sc, const char *path)
{
	size_t i;

	for (i = 0; i < sc->nr_readers; i++) {
		const struct cp_sc_file *f = &sc->files[sc->readers[i].file_idx];

		if (path && !strcmp(f->path, path))
			return f->size_bytes;
	}
	return 0;
}

long cp_cached_rate_from_runs(const struct cp_run_result *runs, size_t n,
			      const struct cp_scenario *sc, uint64_t *bps)
{
	uint64_t until = readers_only_until(sc), *rates = NULL;
	size_t nr = 0, cap = 0, k, i, j;

	if (!until)
		return 0;
	for (k = 0; k < n; k++) {
		if (runs[k].failed)
			continue;
		for (i = 0; i < runs[k].nr_readers; i++) {
			const struct cp_reader_result *rd = &runs[k].readers[i];
			uint64_t bytes = file_bytes_of(sc, rd->path);

			for (j = 1; bytes && j < rd->nr_passes; j++) {
				const struct cp_pass *p = &rd->passes[j];
				uint64_t prev = rd->passes[j - 1].end_ns;

				if (p->read_bytes || p->end_ns > until || p->end_ns <= prev)
					continue;
				uint64_t *r = cp_grow(rates, &cap, nr + 1, sizeof(*rates), 256);

				if (!r) {
					cp_free(rates);
					return -CP_ENOMEM;
				}
				rates = r;
				rates[nr++] = (uint64_t)((double)bytes * 1e9 /
							 (double)(p->end_ns - prev));
			}
		}
	}
	if (nr >= CP_CACHED_RATE_MIN_PASSES) {
		qsort(rates, nr, sizeof(*rates), cmp_u64);
		*bps = nr % 2 ? rates[nr / 2] : (rates[nr / 2 - 1] + rates[nr / 2]) / 2;
	} else {
		nr = 0;
	}
	cp_free(rates);
	return (long)nr;
}
