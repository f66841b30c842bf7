/*
 * cachedrate.h - the readers' cached read rate a real run measured
 * before anything else started: the machine's copy rate as it was
 * during that run, for the model run against it.
 */
#ifndef CP_REPORT_CACHEDRATE_H
#define CP_REPORT_CACHEDRATE_H

#include <stddef.h>
#include <stdint.h>

#include <cachepressure/result.h>

struct cp_scenario;

/*
 * The median, over the passes of every reader of runs[0..n), of file
 * bytes / pass time, counting only the passes that read nothing from
 * the device, are not a reader's first (its start is not a pass end)
 * and ended before the scenario's first creator started: the readers
 * copying from the page cache side by side, as `calibrate` measures
 * memory_bandwidth, but on the machine as it was during the run.
 * Readers are matched to the scenario's by their file's path. Returns
 * the number of passes the median is over, 0 when fewer than
 * CP_CACHED_RATE_MIN_PASSES qualify or the scenario has no creator
 * (*bps then untouched), or -CP_ENOMEM.
 */
#define CP_CACHED_RATE_MIN_PASSES 5
long cp_cached_rate_from_runs(const struct cp_run_result *runs, size_t n,
			      const struct cp_scenario *sc, uint64_t *bps);

#endif /* CP_REPORT_CACHEDRATE_H */
