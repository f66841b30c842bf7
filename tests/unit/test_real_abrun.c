/*
 * test_real_abrun.c - the A/B driver of `real compare`
 * (harness/lib/abrun.c) with a fake runner: alternation A B A B, a
 * progress line before and after each run, failed runs kept and
 * counted, a runner error or a stop signal ends the A/B with what was
 * measured so far handed back only to be freed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include <cachepressure/error.h>
#include <cachepressure/result.h>

#include "abrun.h"
#include "core/alloc.h"
#include "sig.h"

#define MAX_CALLS 32

struct fake {
	unsigned calls;
	unsigned kernel[MAX_CALLS], rep[MAX_CALLS];
	int fail_call;      /* this call sets r->failed (-1: none) */
	int error_call;     /* this call returns -CP_EIO (-1: none) */
	int raise_call;     /* this call raises SIGINT (-1: none) */
	char lines[2 * MAX_CALLS][160];
	unsigned nr_lines;
};

static unsigned stop_after; /* fake_interrupted(): stop once this many calls were made */
static struct fake *current;

static int fake_interrupted(void)
{
	return stop_after && current->calls >= stop_after ? SIGINT : 0;
}

/* Reader "/r" re-reads 1000 * (kernel + 1) + rep bytes. */
static int fake_run(void *arg, unsigned k, unsigned rep, struct cp_run_result *r,
		    struct cp_diag *diag)
{
	struct fake *f = arg;
	struct cp_reader_result *rd;
	unsigned c = f->calls++;

	f->kernel[c] = k;
	f->rep[c] = rep;
	if ((int)c == f->error_call)
		return cp_diag_set(diag, -CP_EIO, "qemu: cannot start");
	assert_int_equal(cp_run_result_add_reader(r, "/r", &rd), 0);
	assert_int_equal(cp_reader_add_pass(rd, 1000 * (k + 1) + rep, 1), 0);
	if ((int)c == f->fail_call) {
		r->failed = 1;
		assert_int_equal(cp_run_result_set_str(&r->failure, "guest timed out"), 0);
	}
	if ((int)c == f->raise_call)
		raise(SIGINT);
	return 0;
}

static void record(void *arg, const char *msg)
{
	struct fake *f = arg;

	if (f->nr_lines < 2 * MAX_CALLS)
		snprintf(f->lines[f->nr_lines++], sizeof(f->lines[0]), "%s", msg);
}

static void fake_init(struct fake *f, struct cp_ab_driver *d, unsigned repeat)
{
	memset(f, 0, sizeof(*f));
	f->fail_call = f->error_call = f->raise_call = -1;
	current = f;
	stop_after = 0;
	*d = (struct cp_ab_driver){ { "stock", "legacy" }, repeat, fake_run, f, record, f,
				    fake_interrupted };
}

/* 3 repetitions: calls go A0 B0 A1 B1 A2 B2 and each result lands in
 * its kernel's slot: B's repetition 2 re-read 1000 * 2 + 2 = 2002. */
static void runs_alternate_a_b_a_b(void **state)
{
	static const unsigned want_k[] = { 0, 1, 0, 1, 0, 1 }, want_rep[] = { 0, 0, 1, 1, 2, 2 };
	struct cp_ab_driver d;
	struct cp_ab_runs out;
	struct fake f;
	unsigned i;

	(void)state;
	fake_init(&f, &d, 3);
	assert_int_equal(cp_ab_drive(&d, &out, NULL), 0);
	assert_int_equal(f.calls, 6);
	for (i = 0; i < 6; i++) {
		assert_int_equal(f.kernel[i], want_k[i]);
		assert_int_equal(f.rep[i], want_rep[i]);
	}
	assert_int_equal(out.nr_done[0], 3);
	assert_int_equal(out.nr_done[1], 3);
	assert_int_equal(cp_ab_run_total_bytes(&out.runs[1][2]), 2002);
	assert_int_equal(cp_ab_run_total_bytes(&out.runs[0][1]), 1001);
	cp_ab_runs_release(&out);
	assert_null(out.runs[0]);
}

/* Two lines per run on the progress callback: which run is next, and
 * how it ended. */
static void a_progress_line_before_and_after_each_run(void **state)
{
	struct cp_ab_driver d;
	struct cp_ab_runs out;
	struct fake f;

	(void)state;
	fake_init(&f, &d, 2);
	assert_int_equal(cp_ab_drive(&d, &out, NULL), 0);
	assert_int_equal(f.nr_lines, 8);
	assert_string_equal(f.lines[0], "run 1/4: A stock, repetition 1/2");
	assert_string_equal(f.lines[1], "run 1/4: A stock done: 0.00 GB re-read");
	assert_string_equal(f.lines[2], "run 2/4: B legacy, repetition 1/2");
	assert_string_equal(f.lines[6], "run 4/4: B legacy, repetition 2/2");
	cp_ab_runs_release(&out);
}

/* A failed repetition (timeout) is kept with r->failed and does not stop
 * the A/B; the table leaves it out later. */
static void a_failed_run_is_kept_and_the_ab_goes_on(void **state)
{
	struct cp_ab_driver d;
	struct cp_ab_runs out;
	struct fake f;

	(void)state;
	fake_init(&f, &d, 2);
	f.fail_call = 1; /* B0 */
	assert_int_equal(cp_ab_drive(&d, &out, NULL), 0);
	assert_int_equal(f.calls, 4);
	assert_true(out.runs[1][0].failed);
	assert_false(out.runs[1][1].failed);
	assert_int_equal(out.nr_done[1], 2);
	assert_string_equal(f.lines[3], "run 2/4: B legacy failed: guest timed out");
	cp_ab_runs_release(&out);
}

/* The runner cannot make run 4 (B1): the A/B ends with its error, the
 * three runs before are handed back for freeing, the fourth is not. */
static void a_runner_error_ends_the_ab(void **state)
{
	struct cp_diag diag = { "" };
	struct cp_ab_driver d;
	struct cp_ab_runs out;
	struct fake f;

	(void)state;
	fake_init(&f, &d, 3);
	f.error_call = 3;
	assert_int_equal(cp_ab_drive(&d, &out, &diag), -CP_EIO);
	assert_string_equal(diag.msg, "qemu: cannot start");
	assert_int_equal(f.calls, 4);
	assert_int_equal(out.nr_done[0], 2);
	assert_int_equal(out.nr_done[1], 1);
	assert_string_equal(f.lines[f.nr_lines - 1], "run 4/6: B legacy: qemu: cannot start");
	cp_ab_runs_release(&out);
}

/* A stop asked for while run 3 (A1) ran: that run is dropped even
 * though the runner returned 0, no further run starts, -CP_EBUSY. */
static void a_stop_during_a_run_drops_it_and_starts_no_other(void **state)
{
	struct cp_diag diag = { "" };
	struct cp_ab_driver d;
	struct cp_ab_runs out;
	struct fake f;

	(void)state;
	fake_init(&f, &d, 3);
	stop_after = 3; /* after A0 B0 A1; the check after A1 drops A1 as well */
	assert_int_equal(cp_ab_drive(&d, &out, &diag), -CP_EBUSY);
	assert_int_equal(f.calls, 3);
	assert_int_equal(out.nr_done[0], 1);
	assert_int_equal(out.nr_done[1], 1);
	assert_non_null(strstr(diag.msg, "stopped by signal 2 during run 3/6"));
	cp_ab_runs_release(&out);
}

static void bad_driver_is_einval(void **state)
{
	struct cp_ab_driver d;
	struct cp_ab_runs out;
	struct fake f;

	(void)state;
	fake_init(&f, &d, 0);
	assert_int_equal(cp_ab_drive(&d, &out, NULL), -CP_EINVAL);
	assert_null(out.runs[0]);
	d.repeat = 2;
	d.run = NULL;
	assert_int_equal(cp_ab_drive(&d, &out, NULL), -CP_EINVAL);
	assert_int_equal(f.calls, 0);
}

static void out_of_memory_runs_nothing(void **state)
{
	struct cp_ab_driver d;
	struct cp_ab_runs out;
	struct fake f;

	(void)state;
	fake_init(&f, &d, 2);
	cp_alloc_fail_after(1); /* the second array */
	assert_int_equal(cp_ab_drive(&d, &out, NULL), -CP_ENOMEM);
	cp_alloc_fail_after(-1);
	assert_int_equal(f.calls, 0);
	assert_null(out.runs[0]);
}

/* A real SIGINT (sig.h) during run 2: that run is dropped, nothing after
 * it starts. Last in the file: the recorded signal stays for the
 * process. */
static void sigint_during_a_run_stops_the_ab(void **state)
{
	struct cp_diag diag = { "" };
	struct cp_ab_driver d;
	struct cp_ab_runs out;
	struct fake f;

	(void)state;
	fake_init(&f, &d, 3);
	d.interrupted = NULL; /* cp_real_interrupted() */
	f.raise_call = 1;
	assert_int_equal(cp_real_signals_install(), 0);
	assert_int_equal(cp_ab_drive(&d, &out, &diag), -CP_EBUSY);
	cp_real_signals_restore();
	assert_int_equal(cp_real_interrupted(), SIGINT);
	assert_int_equal(f.calls, 2);
	assert_int_equal(out.nr_done[0], 1);
	assert_int_equal(out.nr_done[1], 0);
	cp_ab_runs_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(runs_alternate_a_b_a_b),
		cmocka_unit_test(a_progress_line_before_and_after_each_run),
		cmocka_unit_test(a_failed_run_is_kept_and_the_ab_goes_on),
		cmocka_unit_test(a_runner_error_ends_the_ab),
		cmocka_unit_test(a_stop_during_a_run_drops_it_and_starts_no_other),
		cmocka_unit_test(bad_driver_is_einval),
		cmocka_unit_test(out_of_memory_runs_nothing),
		cmocka_unit_test(sigint_during_a_run_stops_the_ab),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
