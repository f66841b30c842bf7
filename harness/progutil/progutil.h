/*
 * progutil - what the stand-alone harness programs (harness/programs/cp-*.c)
 * share: the stop-signal flag, CLOCK_MONOTONIC in ns, read_bytes of
 * /proc/self/io, the common command line (--json, --quiet, --passes,
 * --clock-base, -h, one operand), the per-pass record and its report
 * line, and the JSON record of a run.
 *
 * The programs print and exit, so unlike src/ these helpers print their
 * own messages to stderr, prefixed with the program's name.
 */
#ifndef CP_PROGUTIL_H
#define CP_PROGUTIL_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Set by SIGINT/SIGTERM once cp_prog_catch_stop_signals() ran. */
extern volatile sig_atomic_t cp_prog_stop;

/* SIGINT and SIGTERM set cp_prog_stop; no SA_RESTART, so a blocking
 * read() returns EINTR. Returns 0 or -1 (errno from sigaction). */
int cp_prog_catch_stop_signals(void);

uint64_t cp_prog_now_ns(void);

/* The read_bytes line of /proc/self/io open at iofd; 0 or -1. */
int cp_prog_io_read_bytes(int iofd, uint64_t *out);

/* A plain decimal count (no sign, no suffix, no trailing text); 0 or -1. */
int cp_prog_parse_u64(const char *s, uint64_t *out);

/* What a program adds to the common command line and JSON record. */
struct cp_prog_desc {
	const char *name;	/* "cp-read-dir": prefix of every message */
	const char *operand;	/* "DIR": the one positional argument */
	const char *json_kind;	/* "kind" of the JSON record */
	int json_entries;	/* each JSON pass also has "entries" */
	void (*usage)(FILE *out);
	/* The program's own options, or NULL. Returns 1 when argv[*i] is one
	 * of them (*i moved past its value), 0 when it is not, -1 after
	 * printing why its value is bad. */
	int (*option)(int argc, char **argv, int *i);
};

struct cp_prog_opts {
	const char *json;	/* --json FILE, "-" = stdout; NULL = none */
	const char *path;	/* the operand */
	uint64_t max_passes;	/* --passes; 0 = until a stop signal */
	uint64_t base_ns;	/* --clock-base, else CLOCK_MONOTONIC at start */
	int quiet;		/* --quiet */
};

/* Parses argv into *o, then catches the stop signals and makes stdout
 * line-buffered. Returns -1 to go on, else the exit code (0 after --help,
 * 2 on a usage error, 1 when sigaction fails; message printed). */
int cp_prog_start(const struct cp_prog_desc *d, int argc, char **argv,
		  struct cp_prog_opts *o);

struct cp_prog_pass {
	uint64_t read_bytes;	/* device bytes read during the pass */
	uint64_t end_ns;	/* end of the pass, from base_ns */
	uint64_t entries;	/* directory entries seen (walker only) */
};

struct cp_prog_passes {
	struct cp_prog_pass *v;
	size_t nr, cap;
	uint64_t prev_read_bytes;	/* /proc/self/io at the last pass end */
	uint64_t total_read_bytes;
};

/* Ends a completed pass: reads /proc/self/io at iofd, records the pass
 * and, unless --quiet, prints "PATH: loop N read bytes is X" when X != 0.
 * Returns 0, 1 when --passes is reached, -1 on error (message printed). */
int cp_prog_pass_end(const struct cp_prog_desc *d, const struct cp_prog_opts *o,
		     struct cp_prog_passes *ps, int iofd, uint64_t entries);

/* Writes the JSON record when --json was given. Returns 0, or 1 after
 * printing that it could not. */
int cp_prog_write_json(const struct cp_prog_desc *d, const struct cp_prog_opts *o,
		       const struct cp_prog_passes *ps);

#endif /* CP_PROGUTIL_H */
