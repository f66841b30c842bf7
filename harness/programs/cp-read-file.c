/*
 * cp-read-file - the seed's reader: loop over one file with 1 MiB read()s
 * and, at each end of file, report how many bytes this process had to read
 * from the block device during that pass.
 *
 * Same measurement as read-file.c of the seed's scripts
 * (josefbacik/debug-scripts cache-pressure/): the device bytes come from
 * the read_bytes line of /proc/self/io, which the block layer charges to
 * the task that submits a read bio (cache misses and the readahead they
 * trigger). Only completed passes count; the pass in progress when
 * SIGINT/SIGTERM arrives is dropped. Output lines are the seed's:
 *
 *   PATH: loop N read bytes is X        (only for passes with X != 0; N from 0)
 *   PATH: total read during loops X
 *
 * With --json FILE ("-" = stdout) it also writes one JSON record:
 *   {"kind": "reader", "path": ..., "total_read_bytes": N,
 *    "passes": [{"pass": 1, "read_bytes": x, "end_ns": t}, ...]}
 * where end_ns is CLOCK_MONOTONIC minus --clock-base (default: start).
 *
 * --passes N stops after N passes (a streaming read is --passes 1);
 * --read-size BYTES changes the read() size (cat reads 128 KiB);
 * --random sets POSIX_FADV_RANDOM on the file first: no readahead, so each
 * read() brings in exactly its own pages as order-0 folios (FMODE_RANDOM
 * in page_cache_sync_ra(); scripts/measure-reclaim-cost.sh uses it to get
 * order-0 page cache on xfs, which otherwise uses large folios).
 *
 * Exit: 0 done, 1 I/O error, 2 usage.
 */
#include "progutil.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DEFAULT_READ_BYTES (1024 * 1024)
#define MAX_READ_BYTES (64ULL << 20)

static uint64_t read_bytes = DEFAULT_READ_BYTES;
static bool fadv_random;

/* Fills buf as far as the file goes; returns bytes read (0 = EOF), -1 on
 * error, -2 when a stop signal interrupted the read. */
static ssize_t full_read(int fd, char *buf, size_t size)
{
	size_t got = 0;

	while (got < size) {
		ssize_t n = read(fd, buf + got, size - got);

		if (n < 0) {
			if (errno == EINTR) {
				if (cp_prog_stop)
					return -2;
				continue;
			}
			return -1;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	return (ssize_t)got;
}

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: cp-read-file [--json FILE|-] [--quiet] [--passes N] [--clock-base NS]\n"
		"                    [--read-size BYTES] [--random] FILE\n"
		"Reads FILE in a loop with 1 MiB read()s until SIGINT/SIGTERM (or N passes)\n"
		"and reports the bytes read from the device per completed pass.\n"
		"--random: POSIX_FADV_RANDOM first (no readahead, order-0 page cache).\n");
}

static int option(int argc, char **argv, int *i)
{
	if (strcmp(argv[*i], "--random") == 0) {
		fadv_random = true;
		return 1;
	}
	if (strcmp(argv[*i], "--read-size") != 0 || *i + 1 >= argc)
		return 0;
	if (cp_prog_parse_u64(argv[++*i], &read_bytes) || read_bytes == 0 ||
	    read_bytes > MAX_READ_BYTES) {
		fprintf(stderr, "cp-read-file: bad --read-size '%s' (1..64M bytes)\n", argv[*i]);
		return -1;
	}
	return 1;
}

static const struct cp_prog_desc desc = {
	.name = "cp-read-file", .operand = "FILE", .usage = usage, .option = option,
	.json_kind = "reader", .json_entries = 0,
};

/* Reads the file at fd until a stop signal or --passes; returns the exit
 * code. */
static int read_passes(const struct cp_prog_opts *o, struct cp_prog_passes *ps, int fd,
		       int iofd, char *buf)
{
	while (!cp_prog_stop) {
		ssize_t n = full_read(fd, buf, (size_t)read_bytes);
		int end;

		if (n == -2)
			break;
		if (n < 0) {
			fprintf(stderr, "cp-read-file: %s: read: %s\n", o->path, strerror(errno));
			return 1;
		}
		if (n > 0)
			continue;
		/* end of file: one completed pass */
		end = cp_prog_pass_end(&desc, o, ps, iofd, 0);
		if (end)
			return end < 0;
		if (lseek(fd, 0, SEEK_SET) < 0) {
			fprintf(stderr, "cp-read-file: %s: lseek: %s\n", o->path, strerror(errno));
			return 1;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct cp_prog_opts o;
	struct cp_prog_passes ps = { 0 };
	int fd, iofd, rc = cp_prog_start(&desc, argc, argv, &o);
	char *buf;

	if (rc >= 0)
		return rc;
	iofd = open("/proc/self/io", O_RDONLY | O_CLOEXEC);
	if (iofd < 0) {
		fprintf(stderr, "cp-read-file: /proc/self/io: %s\n", strerror(errno));
		return 1;
	}
	fd = open(o.path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "cp-read-file: %s: %s\n", o.path, strerror(errno));
		return 1;
	}
	if (fadv_random && (errno = posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM)) != 0) {
		fprintf(stderr, "cp-read-file: %s: posix_fadvise: %s\n", o.path, strerror(errno));
		return 1;
	}
	buf = malloc((size_t)read_bytes);
	if (!buf || cp_prog_io_read_bytes(iofd, &ps.prev_read_bytes)) {
		fprintf(stderr, "cp-read-file: no read_bytes in /proc/self/io\n");
		return 1;
	}
	rc = read_passes(&o, &ps, fd, iofd, buf);
	if (!o.quiet)
		printf("%s: total read during loops %" PRIu64 "\n", o.path, ps.total_read_bytes);
	if (cp_prog_write_json(&desc, &o, &ps))
		rc = 1;
	free(ps.v);
	free(buf);
	close(fd);
	close(iofd);
	return rc;
}
