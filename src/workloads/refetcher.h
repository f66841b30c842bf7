/*
 * refetcher.h - the real harness's read-back, after the set-up's
 * writers, of the data-file pages reclaim took while they were written
 * (harness/lib/resident.c cp_refetch_missing), on the engine's clock.
 */
#ifndef CP_REFETCHER_H
#define CP_REFETCHER_H

#include <stdint.h>

#include "model/filemap.h"
#include "sim/world.h"
#include "workloads/writer.h"

struct cp_refetcher {
	struct cp_task task;
	const struct cp_writer *files; /* the writers' files, read back in turn */
	size_t nr_files;
	size_t file;                /* the file being read back */
	unsigned round;             /* its round (0..CP_REFETCH_ROUNDS - 1) */
	bool in_round;              /* missing[] holds this round's snapshot */
	uint8_t *missing;           /* mincore() at the round's start: 1 = not resident */
	uint32_t pos;               /* next page of the round to look at */
	uint64_t round_bytes;       /* bytes pread() in this round */
	struct cp_file_ra_state ra; /* the round's descriptor's readahead state */
	uint64_t bytes;             /* bytes pread() in all: cp_setup_refetched_bytes */
	uint64_t started_ns;        /* when it started (the last writer's end) */
	int rc;                     /* 0, or the read's error that stopped it */
	/* called once it has stopped: done, or rc set */
	void (*done)(void *priv, uint64_t now_ns);
	void *done_priv;
};

/* Rounds per file: the harness calls cp_refetch_missing() at most three
 * times, stopping when a call read nothing. */
#define CP_REFETCH_ROUNDS 3

/* The engine actor ops of the refetcher. */
extern const struct cp_actor_ops cp_refetcher_ops;

/* A refetcher of the files of the n writers (which must outlive it;
 * task, done and done_priv set by the caller, which adds it as an actor
 * started blocked and wakes it after the last writer). Returns 0 or
 * -CP_ENOMEM; cp_refetcher_release() frees it. */
int cp_refetcher_setup(struct cp_refetcher *rf, const struct cp_writer *writers, size_t n);
void cp_refetcher_release(struct cp_refetcher *rf);

#endif /* CP_REFETCHER_H */
