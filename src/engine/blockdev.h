/*
 * blockdev.h - the block device: one FIFO queue shared by every
 * submitter, a serial transfer at the device's bandwidth, and a
 * per-request latency that overlaps for up to queue_depth requests in
 * flight.
 *
 * It knows nothing of the engine: a submitter passes the current time
 * and gets back the time its I/O completes, then waits for it.
 */
#ifndef CP_BLOCKDEV_H
#define CP_BLOCKDEV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cp_diag;
struct cp_machine;

struct cp_blockdev_params {
	uint64_t read_bandwidth_bps;  /* > 0 */
	uint64_t write_bandwidth_bps; /* > 0 */
	uint64_t read_latency_ns;     /* per request, from dispatch to data ready */
	uint64_t write_latency_ns;
	uint64_t max_request_bytes;   /* larger submissions are split; > 0 */
	unsigned queue_depth;         /* requests in flight at most; >= 1 */
};

struct cp_blockdev {
	struct cp_blockdev_params p;
	/* Ring of the completion times of the last queue_depth requests, in
	 * submission order; done_ns[pos] is the oldest (0 = free slot). */
	uint64_t *done_ns;            /* owned, queue_depth entries */
	size_t pos;
	uint64_t last_submit_ns;      /* submissions are taken in time order */
	uint64_t channel_free_ns;     /* the transfer channel is idle from here on;
				       * = completion of the last request (FIFO) */
	uint64_t rate_num, rate_den;  /* the next transfers' share of the bandwidth
				       * (cp_blockdev_set_rate(); 1/1 at init) */

	/* counters */
	uint64_t nr_read_requests;    /* after splitting */
	uint64_t nr_write_requests;
	uint64_t read_bytes;
	uint64_t write_bytes;
	/* Time with at least one request in flight (the kernel's io_ticks,
	 * iostat %util), counted up to each request's completion when it is
	 * submitted: it can run ahead of now; see cp_blockdev_busy_ns(). */
	uint64_t busy_ns;
};

/* The [device] section of a machine profile. */
void cp_blockdev_params_from_machine(struct cp_blockdev_params *p, const struct cp_machine *m);

/* Returns 0, -CP_EINVAL (a zero bandwidth, request size or queue depth;
 * diag names it) or -CP_ENOMEM. On failure dev needs no release. */
int cp_blockdev_init(struct cp_blockdev *dev, const struct cp_blockdev_params *p,
		     struct cp_diag *diag);
void cp_blockdev_release(struct cp_blockdev *dev);

/*
 * Submits bytes of reads or writes at now_ns, split into requests of at
 * most max_request_bytes, all queued behind everything submitted
 * before. Returns the time the last of them completes (now_ns when
 * bytes is 0). A now_ns earlier than a previous submission is taken as
 * that submission's moment: the queue is FIFO in time. Cannot fail.
 */
uint64_t cp_blockdev_submit(struct cp_blockdev *dev, uint64_t now_ns, uint64_t bytes,
			    bool is_write);

/*
 * The requests submitted from now on transfer at num/den (0 < num <= den)
 * of the device's bandwidths, whole: a VM's disk whose emulation gets
 * less of the host's CPUs while the vCPUs are busy (engine.h
 * cp_engine_device_rate()). Requests already queued keep their times.
 */
void cp_blockdev_set_rate(struct cp_blockdev *dev, uint64_t num, uint64_t den);

/* busy_ns up to now_ns (not counting the part of in-flight requests
 * that lies in the future). now_ns must be >= the last submission. */
uint64_t cp_blockdev_busy_ns(const struct cp_blockdev *dev, uint64_t now_ns);

/* Invariants: completions in the ring never decrease in FIFO order and
 * none is later than channel_free_ns. */
bool cp_blockdev_check(const struct cp_blockdev *dev);

#endif /* CP_BLOCKDEV_H */
