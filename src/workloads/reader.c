/*
 * reader.c - the seed author's read-file, and cat for a streamer.
 *
 * read-file (josefbacik/debug-scripts cache-pressure/read-file.c) opens
 * one file and loops: read() 1 MiB at a time until end of file; at end
 * of file it reads its own read_bytes from /proc/self/io, adds the
 * difference since the last end of file to its total, prints
 * "PATH: loop N read bytes is X", and seeks back to 0. On SIGINT it
 * prints "PATH: total read during loops X": the loop in progress is not
 * counted. A step here is one read() call; the bytes of a pass are the
 * device reads its read() calls submitted (cp_filemap_read), which is
 * what read_bytes counts.
 *
 * A streamer (cat of a large, possibly sparse file) is the same with one
 * pass and 128 KiB reads.
 */
#include "workloads/reader.h"

#include <cachepressure/error.h>

#include "model/filemap.h"

static void finish_pass(struct cp_reader *r, uint64_t now_ns)
{
	r->nr_passes++;
	if (r->result) /* times count from the measured phase's start */
		cp_reader_add_pass(r->result, r->pass_read_bytes, now_ns - r->task.w->t0_ns);
	r->pos = 0;
	r->pass_read_bytes = 0;
}

void cp_read_work(struct cp_work *work, uint32_t nr_pages, const struct cp_read_result *res)
{
	work->nr_read_calls++;
	work->nr_copied_bytes += (uint64_t)nr_pages * CP_PAGE_SIZE;
	work->nr_cached_folios += res->nr_cached_folios;
	work->nr_inserted_folios += res->nr_inserted_folios;
	work->nr_inserted_pages += res->nr_inserted_pages;
}

void cp_read_submit(struct cp_world *w, uint64_t now_ns, const struct cp_read_result *res,
		    struct cp_step *out)
{
	uint64_t i, submitted = 0;

	for (i = 0; i < res->nr_io_requests; i++) {
		/* requests past the recorded ones go out as one */
		uint64_t bytes = i < 64 ? res->io_bytes[i] : res->nr_io_bytes - submitted;
		uint64_t done = cp_world_read(w, now_ns, bytes);

		submitted += bytes;
		if (done > out->io_until_ns)
			out->io_until_ns = done;
		if (i >= 64)
			break;
	}
}

static int reader_step(struct cp_engine *e, void *priv, uint64_t now_ns, struct cp_step *out)
{
	struct cp_reader *r = priv;
	struct cp_world *w = r->task.w;
	struct cp_read_result res;
	struct cp_work work = { 0 };
	uint32_t n;
	int rc;

	(void)e;
	if (cp_task_gate(&r->task, out))
		return 0;
	if (r->pos >= r->nr_pages) {
		finish_pass(r, now_ns);
		if (r->max_passes && r->nr_passes >= r->max_passes) {
			out->next = CP_STEP_STOP;
			return 0;
		}
	}
	cp_task_begin(&r->task);
	n = r->nr_pages - r->pos < r->read_pages ? r->nr_pages - r->pos : r->read_pages;
	rc = cp_filemap_read(&w->pc, r->mapping, r->pos, n, w->ra_pages, r->sparse, &r->ra,
			     &r->task.ctx, &res);
	if (rc) {
		cp_world_fail(w, r->task.name, rc);
		out->next = CP_STEP_STOP;
		return 0;
	}
	r->pos += n;
	r->pass_read_bytes += res.nr_io_bytes;
	w->nr_pages_accessed += n;
	cp_read_work(&work, n, &res);
	cp_task_end(&r->task, &work, now_ns, out);
	cp_read_submit(w, now_ns, &res, out);
	return 0;
}

static void reader_stopped(struct cp_engine *e, void *priv, uint64_t now_ns)
{
	(void)now_ns;
	cp_task_stopped(e, &((struct cp_reader *)priv)->task);
}

const struct cp_actor_ops cp_reader_ops = {
	.name = "reader",
	.step = reader_step,
	.stopped = reader_stopped,
};
