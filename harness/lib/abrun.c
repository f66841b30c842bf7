/*
 * abrun.c - run two kernels alternately, A B A B ... (see abrun.h).
 */
#include "abrun.h"

#include <cachepressure/error.h>
#include <cachepressure/result.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "sig.h"

static void say(const struct cp_ab_driver *d, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

static void say(const struct cp_ab_driver *d, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (!d->progress)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	d->progress(d->progress_arg, msg);
}

uint64_t cp_ab_run_total_bytes(const struct cp_run_result *r)
{
	uint64_t t = 0;
	size_t i;

	for (i = 0; i < r->nr_readers; i++)
		t += r->readers[i].total_read_bytes;
	return t;
}

int cp_ab_drive(const struct cp_ab_driver *d, struct cp_ab_runs *out, struct cp_diag *diag)
{
	int (*interrupted)(void) = d->interrupted ? d->interrupted : cp_real_interrupted;
	unsigned i, nr = 2 * d->repeat;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	if (d->repeat == 0 || !d->run)
		return cp_diag_set(diag, -CP_EINVAL, "A/B: %s",
				   d->run ? "repeat is 0" : "no runner");
	out->repeat = d->repeat;
	out->runs[0] = cp_calloc(d->repeat, sizeof(*out->runs[0]));
	out->runs[1] = cp_calloc(d->repeat, sizeof(*out->runs[1]));
	if (!out->runs[0] || !out->runs[1]) {
		cp_ab_runs_release(out);
		return cp_diag_set(diag, -CP_ENOMEM, "A/B: out of memory");
	}
	for (i = 0; i < nr; i++) {
		unsigned k = i % 2, rep = i / 2;
		struct cp_run_result *r = &out->runs[k][rep];
		const char *ab = k ? "B" : "A";

		if (interrupted()) {
			rc = cp_diag_set(diag, -CP_EBUSY, "stopped by signal %d before run %u/%u",
					 interrupted(), i + 1, nr);
			break;
		}
		say(d, "run %u/%u: %s %s, repetition %u/%u", i + 1, nr, ab, d->names[k], rep + 1,
		    d->repeat);
		cp_run_result_init(r);
		rc = d->run(d->run_arg, k, rep, r, diag);
		if (!rc && interrupted())
			rc = cp_diag_set(diag, -CP_EBUSY, "stopped by signal %d during run %u/%u",
					 interrupted(), i + 1, nr);
		if (rc) {
			cp_run_result_release(r);
			say(d, "run %u/%u: %s %s: %s", i + 1, nr, ab, d->names[k],
			    diag ? diag->msg : cp_strerror(rc));
			break;
		}
		out->nr_done[k]++;
		if (r->failed)
			say(d, "run %u/%u: %s %s failed: %s", i + 1, nr, ab, d->names[k],
			    r->failure ? r->failure : "(no reason given)");
		else
			say(d, "run %u/%u: %s %s done: %.2f GB re-read", i + 1, nr, ab,
			    d->names[k], (double)cp_ab_run_total_bytes(r) / 1e9);
	}
	return rc;
}

void cp_ab_runs_release(struct cp_ab_runs *out)
{
	unsigned k, i;

	for (k = 0; k < 2; k++) {
		for (i = 0; out->runs[k] && i < out->nr_done[k]; i++)
			cp_run_result_release(&out->runs[k][i]);
		cp_free(out->runs[k]);
	}
	memset(out, 0, sizeof(*out));
}
