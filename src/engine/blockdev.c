/*
 * blockdev.c - a block device with one FIFO queue, a serial transfer
 * channel and overlapping per-request latency.
 *
 * Each submission is split into requests of at most max_request bytes
 * (the block layer's bio splitting at max_sectors_kb,
 * block/blk-merge.c:bio_split_rw() / blk_queue_split() in 4.11). Request
 * i is dispatched when it is submitted and fewer than queue_depth
 * requests are in flight (the driver's tag limit, blk_mq_get_tag()),
 * i.e. when request i - queue_depth has completed. After a fixed latency
 * from dispatch (command overhead, flash read) its data is ready; the
 * data then crosses one serial channel at the device's bandwidth, in
 * FIFO order. So:
 *
 *   dispatch_i = max(submit_i, done_{i - queue_depth})
 *   done_i     = max(dispatch_i + latency, done_{i-1}) + bytes_i / bandwidth
 *
 * A lone request takes latency + transfer; a burst of n requests with a
 * deep queue takes latency + n transfers; with queue_depth = 1 every
 * request pays latency + transfer in turn.
 *
 * SIMPLIFIED: one hardware queue, no I/O scheduler, no merging of
 * adjacent requests from different submitters, no read/write
 * prioritisation, latency independent of request size and of the
 * position on the device, no device cache; reads and writes share the
 * channel, each at its own bandwidth.
 *
 * A request transfers at the rate set when it was submitted
 * (cp_blockdev_set_rate(): a VM's disk, slower while the vCPUs leave its
 * emulation little of the host); a later change does not reach it.
 */
#include "engine/blockdev.h"

#include <cachepressure/error.h>
#include <string.h>

#include "core/alloc.h"
#include "core/bug.h"
#include "engine/machine.h"
#include "engine/work.h"

void cp_blockdev_params_from_machine(struct cp_blockdev_params *p, const struct cp_machine *m)
{
	*p = (struct cp_blockdev_params){
		.read_bandwidth_bps = m->read_bandwidth_bps,
		.write_bandwidth_bps = m->write_bandwidth_bps,
		.read_latency_ns = m->read_latency_ns,
		.write_latency_ns = m->write_latency_ns,
		.max_request_bytes = m->max_request_bytes,
		.queue_depth = m->queue_depth,
	};
}

int cp_blockdev_init(struct cp_blockdev *dev, const struct cp_blockdev_params *p,
		     struct cp_diag *diag)
{
	uint64_t *ring;

	if (!p->read_bandwidth_bps || !p->write_bandwidth_bps)
		return cp_diag_set(diag, -CP_EINVAL, "block device: bandwidth must be > 0");
	if (!p->max_request_bytes)
		return cp_diag_set(diag, -CP_EINVAL, "block device: max_request must be > 0");
	if (!p->queue_depth)
		return cp_diag_set(diag, -CP_EINVAL, "block device: queue_depth must be >= 1");
	ring = cp_calloc(p->queue_depth, sizeof(*ring));
	if (!ring)
		return -CP_ENOMEM;
	memset(dev, 0, sizeof(*dev));
	dev->p = *p;
	dev->done_ns = ring;
	dev->rate_num = dev->rate_den = 1;
	return 0;
}

void cp_blockdev_release(struct cp_blockdev *dev)
{
	if (!dev)
		return;
	cp_free(dev->done_ns);
	dev->done_ns = NULL;
}

/* One request of at most max_request bytes, submitted at now. */
static uint64_t submit_one(struct cp_blockdev *dev, uint64_t now, uint64_t bytes, bool is_write)
{
	uint64_t latency = is_write ? dev->p.write_latency_ns : dev->p.read_latency_ns;
	uint64_t bps = is_write ? dev->p.write_bandwidth_bps : dev->p.read_bandwidth_bps;
	uint64_t dispatch, start, done;

	if (dev->rate_num != dev->rate_den) {
		bps = cp_mul_div_u64(bps, dev->rate_num, dev->rate_den);
		if (!bps)
			bps = 1;
	}
	/* the oldest of the last queue_depth requests must have completed */
	dispatch = now > dev->done_ns[dev->pos] ? now : dev->done_ns[dev->pos];
	start = dispatch + latency;
	if (start < dev->channel_free_ns)
		start = dev->channel_free_ns;
	done = start + cp_transfer_ns(bytes, bps);

	/* union of in-flight intervals [submit, done]; done never decreases */
	dev->busy_ns += done - (now > dev->channel_free_ns ? now : dev->channel_free_ns);
	dev->channel_free_ns = done;
	dev->done_ns[dev->pos] = done;
	dev->pos = (dev->pos + 1) % dev->p.queue_depth;
	if (is_write) {
		dev->nr_write_requests++;
		dev->write_bytes += bytes;
	} else {
		dev->nr_read_requests++;
		dev->read_bytes += bytes;
	}
	return done;
}

uint64_t cp_blockdev_submit(struct cp_blockdev *dev, uint64_t now_ns, uint64_t bytes,
			    bool is_write)
{
	uint64_t done = now_ns;

	if (now_ns < dev->last_submit_ns)
		now_ns = dev->last_submit_ns;
	dev->last_submit_ns = now_ns;
	while (bytes) {
		uint64_t len = bytes < dev->p.max_request_bytes ? bytes : dev->p.max_request_bytes;

		done = submit_one(dev, now_ns, len, is_write);
		bytes -= len;
	}
	CP_DEBUG_CHECK(cp_blockdev_check(dev));
	return done;
}

void cp_blockdev_set_rate(struct cp_blockdev *dev, uint64_t num, uint64_t den)
{
	CP_BUG_ON(!num || num > den);
	dev->rate_num = num;
	dev->rate_den = den;
}

uint64_t cp_blockdev_busy_ns(const struct cp_blockdev *dev, uint64_t now_ns)
{
	if (dev->channel_free_ns > now_ns)
		return dev->busy_ns - (dev->channel_free_ns - now_ns);
	return dev->busy_ns;
}

bool cp_blockdev_check(const struct cp_blockdev *dev)
{
	unsigned i, qd = dev->p.queue_depth;
	uint64_t prev = 0;

	if (!dev->done_ns || !qd)
		return false;
	/* from the oldest slot (pos) to the newest (pos - 1) */
	for (i = 0; i < qd; i++) {
		uint64_t d = dev->done_ns[(dev->pos + i) % qd];

		if (d && d < prev)
			return false;
		if (d > dev->channel_free_ns)
			return false;
		if (d)
			prev = d;
	}
	return true;
}
