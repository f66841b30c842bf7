/*
 * test_cachedrate.c - the readers' cached read rate taken from a real
 * run's passes (report/cachedrate.c): which passes count (cached, not a
 * reader's first, ended before fs_mark started), the median over all
 * readers, and the cases that give no rate. Rates derived by hand.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <cachepressure/error.h>
#include <cachepressure/result.h>

#include "core/alloc.h"
#include "report/cachedrate.h"
#include "scenario/scenario.h"

/* Two 100 MB files (100 000 000 bytes), fs_mark at 1 s. */
static const char scenario_text[] = "[scenario]\n"
				    "name = t\n"
				    "ram = 1G\n"
				    "fs = xfs\n"
				    "mount = /mnt/t\n"
				    "[file a]\n"
				    "path = /mnt/t/a\n"
				    "size = 100000000\n"
				    "[file b]\n"
				    "path = /mnt/t/b\n"
				    "size = 100000000\n"
				    "[reader a]\n"
				    "file = a\n"
				    "stop_with = fs_mark\n"
				    "[reader b]\n"
				    "file = b\n"
				    "stop_with = fs_mark\n"
				    "[creator fs_mark]\n"
				    "dirs = /mnt/t/0\n"
				    "files_per_loop = 10\n"
				    "start = 1s\n";

static int setup(void **state)
{
	struct cp_scenario *sc = NULL;
	struct cp_diag d = { "" };

	if (cp_scenario_load_string(scenario_text, "test", &sc, &d))
		fail_msg("%s", d.msg);
	*state = sc;
	return 0;
}

static int teardown(void **state)
{
	cp_scenario_destroy(*state);
	return 0;
}

static void add_passes(struct cp_run_result *r, const char *path, const uint64_t *end_ms,
		       const uint64_t *read_bytes, size_t n)
{
	struct cp_reader_result *rd;
	size_t i;

	assert_int_equal(cp_run_result_add_reader(r, path, &rd), 0);
	for (i = 0; i < n; i++)
		assert_int_equal(cp_reader_add_pass(rd, read_bytes[i], end_ms[i] * 1000000), 0);
}

/* The rate of one run with readers a and b (their first na and nb
 * passes): the number of passes it is over; *bps as the function leaves
 * it. */
static long rate_of(const struct cp_scenario *sc, const uint64_t *a_end, const uint64_t *a_read,
		    size_t na, const uint64_t *b_end, const uint64_t *b_read, size_t nb,
		    uint64_t *bps)
{
	struct cp_run_result r;
	long n;

	cp_run_result_init(&r);
	add_passes(&r, "/mnt/t/a", a_end, a_read, na);
	add_passes(&r, "/mnt/t/b", b_end, b_read, nb);
	n = cp_cached_rate_from_runs(&r, 1, sc, bps);
	cp_run_result_release(&r);
	return n;
}

/* Reader a: passes end at 60, 110, 160, 210 ms, all cached: 50 ms each
 * after the first (whose start is not a pass end): 100 MB / 0.05 s = 2 GB/s.
 * Reader b: 80, 120, 160, 200 ms: 40 ms each, 2.5 GB/s. Six rates, 2 x3
 * and 2.5 x3: the median is their mean, 2.25 GB/s. */
static void median_over_both_readers(void **state)
{
	static const uint64_t a_end[] = { 60, 110, 160, 210 }, b_end[] = { 80, 120, 160, 200 };
	static const uint64_t none[] = { 0, 0, 0, 0 };
	uint64_t bps = 0;

	assert_int_equal(rate_of(*state, a_end, none, 4, b_end, none, 4, &bps), 6);
	assert_int_equal(bps, 2250000000u);
}

/* A pass that read from the device, and the passes ending after fs_mark
 * started (1 s), are not the cached readers-only rate: reader a's 50-ms
 * passes count (3 of them: 2 GB/s), its 25-ms pass with device reads
 * does not, nor its passes ending at 1005, 1010 and 1030 ms (5 - 20 ms);
 * reader b's 100-ms passes count (1 GB/s, 3). Median of 2, 2, 2, 1, 1, 1:
 * 1.5 GB/s. */
static void device_reads_and_fs_mark_passes_are_left_out(void **state)
{
	static const uint64_t a_end[] = { 60, 110, 160, 185, 235, 1005, 1010, 1030 };
	static const uint64_t a_read[] = { 0, 0, 0, 4096, 0, 0, 0, 0 };
	static const uint64_t b_end[] = { 100, 200, 300, 400, 1020 };
	static const uint64_t b_read[] = { 0, 0, 0, 0, 0 };
	uint64_t bps = 0;

	assert_int_equal(rate_of(*state, a_end, a_read, 5, b_end, b_read, 4, &bps), 6);
	assert_int_equal(bps, 1500000000u);
	/* the same readers with their late passes: they do not count */
	bps = 0;
	assert_int_equal(rate_of(*state, a_end, a_read, 8, b_end, b_read, 5, &bps), 6);
	assert_int_equal(bps, 1500000000u);
}

/* Fewer than CP_CACHED_RATE_MIN_PASSES qualifying passes, or readers the
 * scenario does not have: no rate, *bps untouched. */
static void too_few_passes_give_no_rate(void **state)
{
	static const uint64_t end[] = { 50, 100, 150, 200 }, none[] = { 0, 0, 0, 0 };
	struct cp_run_result r;
	uint64_t bps = 7;

	cp_run_result_init(&r);
	add_passes(&r, "/mnt/t/a", end, none, 4); /* 3 passes after the first */
	assert_int_equal(cp_cached_rate_from_runs(&r, 1, *state, &bps), 0);
	add_passes(&r, "/mnt/t/other", end, none, 4);
	assert_int_equal(cp_cached_rate_from_runs(&r, 1, *state, &bps), 0);
	assert_int_equal(bps, 7);
	cp_run_result_release(&r);
}

/* A failed real run measured nothing. */
static void failed_runs_are_skipped(void **state)
{
	static const uint64_t end[] = { 50, 100, 150, 200, 250, 300 };
	static const uint64_t none[] = { 0, 0, 0, 0, 0, 0 };
	struct cp_run_result r[2];
	uint64_t bps = 0;

	cp_run_result_init(&r[0]);
	cp_run_result_init(&r[1]);
	add_passes(&r[0], "/mnt/t/a", end, none, 6);
	r[0].failed = 1;
	assert_int_equal(cp_cached_rate_from_runs(r, 1, *state, &bps), 0);
	add_passes(&r[1], "/mnt/t/b", end, none, 6);
	/* run 2's five 50-ms passes: 2 GB/s */
	assert_int_equal(cp_cached_rate_from_runs(r, 2, *state, &bps), 5);
	assert_int_equal(bps, 2000000000u);
	cp_run_result_release(&r[0]);
	cp_run_result_release(&r[1]);
}

/* Out of memory for the rates: -CP_ENOMEM, *bps untouched. */
static void no_memory_is_reported(void **state)
{
	static const uint64_t end[] = { 50, 100, 150, 200, 250, 300 };
	static const uint64_t none[] = { 0, 0, 0, 0, 0, 0 };
	struct cp_run_result r;
	uint64_t bps = 7;
	long n;

	cp_run_result_init(&r);
	add_passes(&r, "/mnt/t/a", end, none, 6);
	cp_alloc_fail_after(0);
	n = cp_cached_rate_from_runs(&r, 1, *state, &bps);
	cp_alloc_fail_after(-1);
	cp_run_result_release(&r);
	assert_int_equal(n, -CP_ENOMEM);
	assert_int_equal(bps, 7);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(median_over_both_readers, setup, teardown),
		cmocka_unit_test_setup_teardown(device_reads_and_fs_mark_passes_are_left_out,
						setup, teardown),
		cmocka_unit_test_setup_teardown(too_few_passes_give_no_rate, setup, teardown),
		cmocka_unit_test_setup_teardown(failed_runs_are_skipped, setup, teardown),
		cmocka_unit_test_setup_teardown(no_memory_is_reported, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
