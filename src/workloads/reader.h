/*
 * reader.h - the seed's read-file (and a one-pass streamer, cat).
 */
#ifndef CP_READER_H
#define CP_READER_H

#include <cachepressure/result.h>

#include "model/filemap.h"
#include "sim/world.h"

struct cp_reader {
	struct cp_task task;
	struct cp_dentry *file;       /* open file (holds the inode) */
	uint32_t mapping;
	uint32_t nr_pages;            /* file size in pages */
	uint32_t read_pages;          /* pages per read() call */
	bool sparse;
	uint32_t max_passes;          /* 0 = loop until stopped; 1 = streamer */
	uint32_t pos;                 /* next page to read */
	struct cp_file_ra_state ra;   /* the open file's readahead state */
	uint64_t pass_read_bytes;     /* device bytes of the pass in progress */
	struct cp_reader_result *result; /* completed passes go here */
	uint64_t nr_passes;
};

/* The engine actor ops of a reader. */
extern const struct cp_actor_ops cp_reader_ops;

/* What one read() call of nr_pages that did res costs: the system call,
 * the copy to user space, the folio lookups and insertions (added to
 * *work). */
void cp_read_work(struct cp_work *work, uint32_t nr_pages, const struct cp_read_result *res);

/* Submit res's device reads at now_ns; the step waits for the last
 * (out->io_until_ns), as a read() waits for the pages it copies. */
void cp_read_submit(struct cp_world *w, uint64_t now_ns, const struct cp_read_result *res,
		    struct cp_step *out);

#endif /* CP_READER_H */
