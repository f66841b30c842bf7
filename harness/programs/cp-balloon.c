/*
 * cp-balloon - takes memory away from the kernel for `cachepressure real
 * --confine global`: mlock()s SIZE bytes of anonymous memory so that only
 * what is left is available to the page cache and slab caches, and reclaim
 * stays global (kswapd and direct reclaim against the zone watermarks).
 *
 * BYTES is a plain byte count. It sets its own oom_score_adj to 1000 first, so when memory runs out the
 * OOM killer takes the balloon rather than another process. It locks in
 * 256 MiB steps (a stop signal interrupts it between steps), prints
 * "locked BYTES" on stdout when done, and holds the memory until
 * SIGTERM/SIGINT. `cachepressure real` starts it as "cachepressure-balloon".
 *
 * Exit: 0 released after a signal, 1 could not lock, 2 usage.
 */
#include "progutil.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <fcntl.h>

#define STEP_BYTES (256ULL << 20)

static void set_oom_score_adj(void)
{
	int fd = open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		return;
	if (write(fd, "1000", 4) != 4)
		fprintf(stderr, "cp-balloon: cannot set oom_score_adj: %s\n", strerror(errno));
	close(fd);
}

int main(int argc, char **argv)
{
	uint64_t size, off;
	sigset_t block, old;
	char *mem;

	if (argc != 2 || cp_prog_parse_u64(argv[1], &size) || size == 0) {
		fprintf(stderr, "Usage: cp-balloon BYTES\n"
				"mlock()s BYTES bytes of memory until SIGTERM/SIGINT.\n");
		return 2;
	}
	size = (size + 4095) & ~4095ULL;

	(void)cp_prog_catch_stop_signals();
	set_oom_score_adj();

	mem = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED) {
		fprintf(stderr, "cp-balloon: mmap %" PRIu64 " bytes: %s\n", size, strerror(errno));
		return 1;
	}
	/* Huge pages fault in faster; failure is harmless. */
	madvise(mem, size, MADV_HUGEPAGE);
	for (off = 0; off < size && !cp_prog_stop; off += STEP_BYTES) {
		uint64_t len = size - off < STEP_BYTES ? size - off : STEP_BYTES;

		if (mlock(mem + off, len)) {
			fprintf(stderr, "cp-balloon: mlock at %" PRIu64 " of %" PRIu64 " bytes: %s\n",
				off, size, strerror(errno));
			return 1;
		}
	}
	if (cp_prog_stop)
		return 0;
	printf("locked %" PRIu64 "\n", size);
	fflush(stdout);

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, &old);
	while (!cp_prog_stop)
		sigsuspend(&old);
	return 0;
}
