/*
 * test_blockdev.c - the block device's FIFO arithmetic, checked against
 * completion times worked out by hand.
 *
 * Parameters: reads at 1e9 B/s (1 byte per ns), writes at 5e8 B/s (2 ns
 * per byte), 128 KiB = 131072-byte requests (131072 ns of transfer).
 * done_i = max(dispatch_i + latency, done_{i-1}) + transfer_i, where
 * dispatch_i = max(submit_i, done_{i - queue_depth}).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <string.h>

#include <cachepressure/error.h>

#include "core/alloc.h"
#include "engine/blockdev.h"
#include "engine/machine.h"

#define KIB128 131072ULL

static void dev_init(struct cp_blockdev *dev, uint64_t read_latency_ns, unsigned queue_depth)
{
	struct cp_blockdev_params p = {
		.read_bandwidth_bps = 1000000000ULL,
		.write_bandwidth_bps = 500000000ULL,
		.read_latency_ns = read_latency_ns,
		.write_latency_ns = 50000,
		.max_request_bytes = KIB128,
		.queue_depth = queue_depth,
	};

	assert_int_equal(cp_blockdev_init(dev, &p, NULL), 0);
}

/* A lone 4 KiB read: 20000 latency + 4096 transfer = 24096. */
static void lone_request_pays_latency_plus_transfer(void **state)
{
	struct cp_blockdev dev;

	(void)state;
	dev_init(&dev, 20000, 4);
	assert_int_equal(cp_blockdev_submit(&dev, 0, 4096, false), 24096);
	assert_int_equal(dev.nr_read_requests, 1);
	assert_int_equal(dev.read_bytes, 4096);
	assert_int_equal(dev.busy_ns, 24096);
	cp_blockdev_release(&dev);
}

/* Four 128 KiB reads at t=0, latency 200000 > transfer 131072.
 * queue_depth 2:
 *   r0: dispatch 0,      ready 200000, done 200000 + 131072 = 331072
 *   r1: dispatch 0,      ready 200000, waits for r0: 331072 + 131072 = 462144
 *   r2: dispatch 331072 (r0 done), ready 531072, done 531072 + 131072 = 662144
 *   r3: dispatch 462144 (r1 done), ready 662144, done 662144 + 131072 = 793216 */
static void burst_overlaps_latency_up_to_queue_depth(void **state)
{
	static const uint64_t want[] = { 331072, 462144, 662144, 793216 };
	struct cp_blockdev dev;
	unsigned i;

	(void)state;
	dev_init(&dev, 200000, 2);
	for (i = 0; i < 4; i++)
		assert_int_equal(cp_blockdev_submit(&dev, 0, KIB128, false), want[i]);
	assert_int_equal(dev.busy_ns, 793216);
	assert_true(cp_blockdev_check(&dev));
	cp_blockdev_release(&dev);
}

/* The same burst with queue_depth 1: each request pays latency +
 * transfer in turn, 4 x 331072 = 1324288; with queue_depth 4 all four
 * latencies overlap: 200000 + 4 x 131072 = 724288. */
static void queue_depth_one_serialises_latency(void **state)
{
	struct cp_blockdev dev;

	(void)state;
	dev_init(&dev, 200000, 1);
	assert_int_equal(cp_blockdev_submit(&dev, 0, 4 * KIB128, false), 1324288);
	cp_blockdev_release(&dev);
	dev_init(&dev, 200000, 4);
	assert_int_equal(cp_blockdev_submit(&dev, 0, 4 * KIB128, false), 724288);
	assert_int_equal(dev.nr_read_requests, 4);
	cp_blockdev_release(&dev);
}

/* 300000 bytes at max_request 131072: requests of 131072, 131072 and
 * 37856 bytes; deep queue, latency 20000: done = 20000 + 300000. */
static void large_submission_is_split_at_max_request(void **state)
{
	struct cp_blockdev dev;

	(void)state;
	dev_init(&dev, 20000, 8);
	assert_int_equal(cp_blockdev_submit(&dev, 0, 300000, false), 320000);
	assert_int_equal(dev.nr_read_requests, 3);
	assert_int_equal(dev.read_bytes, 300000);
	/* exactly max_request: one request */
	assert_int_equal(cp_blockdev_submit(&dev, 1000000, KIB128, false), 1000000 + 20000 + KIB128);
	assert_int_equal(dev.nr_read_requests, 4);
	cp_blockdev_release(&dev);
}

/* One FIFO for everybody: a 4 KiB write at t=1000 (latency 50000,
 * transfer 4096 x 2 = 8192) queues behind a 128 KiB read submitted at 0
 * (done 20000 + 131072 = 151072): ready at 51000 but the channel is busy
 * until 151072, so done = 151072 + 8192 = 159264. */
static void writes_and_reads_share_one_fifo(void **state)
{
	struct cp_blockdev dev;

	(void)state;
	dev_init(&dev, 20000, 2);
	assert_int_equal(cp_blockdev_submit(&dev, 0, KIB128, false), 151072);
	assert_int_equal(cp_blockdev_submit(&dev, 1000, 4096, true), 159264);
	assert_int_equal(dev.nr_write_requests, 1);
	assert_int_equal(dev.write_bytes, 4096);
	assert_int_equal(dev.nr_read_requests, 1);
	cp_blockdev_release(&dev);
}

/* Busy time is the union of in-flight intervals: [0, 24096] and
 * [100000, 124096] -> 48192. At t=110000 the second is 10000 ns old:
 * 24096 + 10000 = 34096. */
static void busy_time_counts_in_flight_intervals_once(void **state)
{
	struct cp_blockdev dev;

	(void)state;
	dev_init(&dev, 20000, 4);
	cp_blockdev_submit(&dev, 0, 4096, false);
	cp_blockdev_submit(&dev, 0, 4096, false); /* overlaps: done 28192 */
	assert_int_equal(dev.busy_ns, 28192);
	cp_blockdev_submit(&dev, 100000, 4096, false);
	assert_int_equal(dev.busy_ns, 28192 + 24096);
	assert_int_equal(cp_blockdev_busy_ns(&dev, 110000), 28192 + 10000);
	assert_int_equal(cp_blockdev_busy_ns(&dev, 200000), 28192 + 24096);
	cp_blockdev_release(&dev);
}

/* A submission dated before the previous one is taken at that time. */
static void submissions_are_kept_in_time_order(void **state)
{
	struct cp_blockdev dev;

	(void)state;
	dev_init(&dev, 20000, 4);
	assert_int_equal(cp_blockdev_submit(&dev, 500000, 4096, false), 524096);
	assert_int_equal(cp_blockdev_submit(&dev, 0, 4096, false), 528192);
	assert_int_equal(cp_blockdev_submit(&dev, 0, 0, false), 0); /* nothing to wait for */
	cp_blockdev_release(&dev);
}

static void params_come_from_the_machine_profile(void **state)
{
	struct cp_machine m;
	struct cp_blockdev_params p;

	(void)state;
	cp_machine_init(&m);
	m.read_bandwidth_bps = 1;
	m.write_bandwidth_bps = 2;
	m.read_latency_ns = 3;
	m.write_latency_ns = 4;
	m.max_request_bytes = 5;
	m.queue_depth = 6;
	cp_blockdev_params_from_machine(&p, &m);
	assert_int_equal(p.read_bandwidth_bps, 1);
	assert_int_equal(p.write_bandwidth_bps, 2);
	assert_int_equal(p.read_latency_ns, 3);
	assert_int_equal(p.write_latency_ns, 4);
	assert_int_equal(p.max_request_bytes, 5);
	assert_int_equal(p.queue_depth, 6);
}

static void init_rejects_impossible_devices(void **state)
{
	struct cp_blockdev dev;
	struct cp_blockdev_params p = {
		.read_bandwidth_bps = 1, .write_bandwidth_bps = 1,
		.max_request_bytes = 4096, .queue_depth = 1,
	};
	struct cp_diag d = { "" };

	(void)state;
	p.queue_depth = 0;
	assert_int_equal(cp_blockdev_init(&dev, &p, &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "queue_depth"));
	p.queue_depth = 1;
	p.read_bandwidth_bps = 0;
	assert_int_equal(cp_blockdev_init(&dev, &p, &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "bandwidth"));
	p.read_bandwidth_bps = 1;
	p.max_request_bytes = 0;
	assert_int_equal(cp_blockdev_init(&dev, &p, &d), -CP_EINVAL);
	assert_non_null(strstr(d.msg, "max_request"));
	p.max_request_bytes = 4096;
	cp_alloc_fail_after(0);
	assert_int_equal(cp_blockdev_init(&dev, &p, &d), -CP_ENOMEM);
	cp_alloc_fail_after(-1);
}

/* cp_blockdev_set_rate(): a request submitted at half the rate transfers
 * 4096 bytes in 8192 ns (20000 + 8192 = 28192); the one before it and
 * the one after the rate is back keep theirs: 0 + 20000 + 4096 = 24096,
 * then at 100000: 120000 + 4096 = 124096. */
static void a_request_transfers_at_the_rate_set_when_submitted(void **state)
{
	struct cp_blockdev dev;

	(void)state;
	dev_init(&dev, 20000, 4);
	assert_int_equal(cp_blockdev_submit(&dev, 0, 4096, false), 24096);
	cp_blockdev_set_rate(&dev, 1, 2);
	assert_int_equal(cp_blockdev_submit(&dev, 50000, 4096, false), 50000 + 28192);
	cp_blockdev_set_rate(&dev, 1, 1);
	assert_int_equal(cp_blockdev_submit(&dev, 100000, 4096, false), 124096);
	cp_blockdev_release(&dev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(lone_request_pays_latency_plus_transfer),
		cmocka_unit_test(burst_overlaps_latency_up_to_queue_depth),
		cmocka_unit_test(queue_depth_one_serialises_latency),
		cmocka_unit_test(large_submission_is_split_at_max_request),
		cmocka_unit_test(writes_and_reads_share_one_fifo),
		cmocka_unit_test(busy_time_counts_in_flight_intervals_once),
		cmocka_unit_test(submissions_are_kept_in_time_order),
		cmocka_unit_test(params_come_from_the_machine_profile),
		cmocka_unit_test(init_rejects_impossible_devices),
		cmocka_unit_test(a_request_transfers_at_the_rate_set_when_submitted),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
