/*
 * abrun.h - the A/B driver of `cachepressure real compare`: N runs of
 * each of two kernels, alternated A B A B ... (repetition 0 of A, then
 * repetition 0 of B, then repetition 1 of A, ...), so that a slow drift
 * of the host (thermal, other load, the page cache of the host's disk
 * images) falls on both kernels alike instead of on whichever ran last.
 *
 * The driver does not know how a run is made: a runner callback boots
 * the kernel and measures one repetition (the kernel lab's cp_lab_run(),
 * or a fake in the unit tests). It stops between runs, and the runner
 * stops within one, when a stop signal arrives (sig.h); what was
 * measured until then is an unbalanced, incomplete A/B and is handed
 * back only so the caller can free it, never as a result.
 */
#ifndef CP_ABRUN_H
#define CP_ABRUN_H

#include <stdint.h>

struct cp_run_result;
struct cp_diag;

/* Runs repetition rep (0-based) of kernel kernel_index (0 = A, 1 = B)
 * into r, which the driver has initialised. Returns 0 when the run
 * completed - r->failed set when the repetition failed (timeout, crash,
 * invalid measurement) - or a -CP_E* code when it could not be made or a
 * stop signal arrived (-CP_EBUSY), with diag saying why. */
typedef int (*cp_ab_run_fn)(void *arg, unsigned kernel_index, unsigned rep,
			    struct cp_run_result *r, struct cp_diag *diag);

/* A progress line for the user (the CLI prints it on stderr). */
typedef void (*cp_ab_progress_fn)(void *arg, const char *msg);

struct cp_ab_driver {
	const char *names[2];         /* the kernels' names, for progress lines */
	unsigned repeat;              /* runs per kernel, >= 1 */
	cp_ab_run_fn run;
	void *run_arg;
	cp_ab_progress_fn progress;   /* may be NULL */
	void *progress_arg;
	int (*interrupted)(void);     /* stop asked for? NULL: cp_real_interrupted() */
};

/* What the driver measured. runs[k][0..nr_done[k]) are the completed
 * runs of kernel k (failed ones included, r->failed set). */
struct cp_ab_runs {
	struct cp_run_result *runs[2];
	unsigned nr_done[2];
	unsigned repeat;
};

/* Runs the 2 * repeat repetitions in the order A0 B0 A1 B1 ..., with a
 * progress line before and after each. Returns
 *   0          every run completed (some may have failed: r->failed);
 *   -CP_EBUSY  a stop signal arrived: before a run, or the runner
 *              returned because of it; out holds the runs before it,
 *              which are NOT a result;
 *   -CP_E*     the runner's error (diag from the runner), or -CP_ENOMEM;
 *              out holds the runs before it.
 *   -CP_EINVAL repeat is 0 or run is NULL (out zeroed).
 * The run that returned an error is released, not kept. In every case
 * release out with cp_ab_runs_release(). */
int cp_ab_drive(const struct cp_ab_driver *d, struct cp_ab_runs *out, struct cp_diag *diag);

/* Releases every completed run and the arrays; out is zeroed. */
void cp_ab_runs_release(struct cp_ab_runs *out);

/* The bytes all readers of r re-read during the counted loops. */
uint64_t cp_ab_run_total_bytes(const struct cp_run_result *r);

#endif /* CP_ABRUN_H */
