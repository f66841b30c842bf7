/*
 * writer.h - the real harness's data-file writer (dd if=/dev/zero bs=1M),
 * on the engine's clock so that kswapd and kcompactd run while it writes.
 */
#ifndef CP_WRITER_H
#define CP_WRITER_H

#include <stdint.h>

#include "sim/world.h"

struct cp_writer {
	struct cp_task task;
	uint32_t mapping;
	uint32_t nr_pages;       /* file size in pages */
	uint32_t pos;            /* next page to write */
	uint64_t io_done_ns;     /* when its last device write completes */
	/* each 1 MiB chunk's device write completes at chunk_done_ns[k];
	 * chunks before wb_next have ended their writeback */
	uint64_t *chunk_done_ns;
	uint32_t wb_next;
	/* its first write() began / its last ended (the set-up's write
	 * time, before the syncfs), UINT64_MAX until then */
	uint64_t started_ns, written_ns;
	/* called once it has stopped (its data on disk, or failed) */
	void (*done)(void *priv, uint64_t now_ns);
	void *done_priv;
};

/* The engine actor ops of a writer. */
extern const struct cp_actor_ops cp_writer_ops;

/* A writer of mapping's nr_pages (task and done set by the caller).
 * Returns 0 or -CP_ENOMEM; cp_writer_release() frees it. */
int cp_writer_setup(struct cp_writer *wr, uint32_t mapping, uint32_t nr_pages);
void cp_writer_release(struct cp_writer *wr);

/*
 * One page of a buffered write: the page, and (4.11 XFS, ext4) the
 * buffer head __block_write_begin attaches to it. The kernel allocates
 * the head after the page, with the page locked so that reclaim cannot
 * take it; the model allocates it first, which needs no lock. Returns 0
 * or a -CP_E* of the allocation (nothing added then).
 */
int cp_write_one_page(struct cp_world *w, uint32_t mapping, uint32_t index,
		      struct cp_alloc_ctx *ctx);

#endif /* CP_WRITER_H */
