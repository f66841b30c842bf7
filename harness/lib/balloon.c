/*
 * balloon.c - the mlock() balloon of --confine global.
 *
 * Locked pages sit on the unevictable LRU (mm/mlock.c), so reclaim never
 * scans them: the watermarks of the zones stay those of the whole
 * machine, but the memory reclaim can work with is what is left.
 * The balloon's own page tables come out of the same free memory when it
 * faults its pages in (x86-64, 4 KiB pages, four levels: one PTE page per
 * 2 MiB mapped, one PMD page per 1 GiB, one PUD page per 512 GiB), so the
 * locked bytes are the span (MemAvailable - SIZE) less those tables:
 * measured, a 21713 MiB balloon raised PageTables by 42 MiB (= 21713/512),
 * which an earlier version took from the experiment's SIZE.
 * SIMPLIFIED: the kernel's watermarks (min_free_kbytes) are those of the
 * big machine, not of a SIZE machine; the balloon only takes memory away.
 */
#include "balloon.h"

#include <cachepressure/error.h>
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kfile.h"
#include "proc.h"
#include "sig.h"

int cp_meminfo_available(const char *meminfo, uint64_t *out, struct cp_diag *diag)
{
	struct cp_kv kv = { 0 };
	int64_t v;
	int rc;

	rc = cp_kv_read(meminfo, &kv, diag);
	if (rc)
		return rc;
	rc = cp_kv_get(&kv, "MemAvailable", &v);
	cp_kv_release(&kv);
	if (rc || v < 0)
		return cp_diag_set(diag, -CP_ENOENT, "%s: no MemAvailable line", meminfo);
	*out = (uint64_t)v;
	return 0;
}

int cp_balloon_size_headroom(uint64_t available, uint64_t mem_bytes, uint64_t headroom_bytes,
			     uint64_t *out, struct cp_diag *diag)
{
	if (available < mem_bytes + headroom_bytes)
		return cp_diag_set(diag, -CP_ENOSPC,
				   "--confine global needs MemAvailable >= SIZE + %" PRIu64
				   " MiB: available %" PRIu64 " MiB, SIZE %" PRIu64 " MiB",
				   headroom_bytes >> 20, available >> 20, mem_bytes >> 20);
	*out = cp_balloon_lockable(available - mem_bytes);
	return 0;
}

static uint64_t div_up(uint64_t a, uint64_t b)
{
	return a / b + (a % b != 0);
}

uint64_t cp_balloon_page_table_bytes(uint64_t bytes)
{
	const uint64_t page = 4096;

	return (div_up(bytes, 2ULL << 20) + div_up(bytes, 1ULL << 30) +
		div_up(bytes, 512ULL << 30)) *
	       page;
}

uint64_t cp_balloon_lockable(uint64_t span)
{
	uint64_t b = span - cp_balloon_page_table_bytes(span);

	/* the tables of b are no larger than those of span: b + pt(b) <= span */
	return b & ~(uint64_t)4095;
}

uint64_t cp_balloon_topup_bytes(uint64_t available, uint64_t mem_bytes)
{
	if (available < mem_bytes + CP_BALLOON_TOPUP_MIN_BYTES)
		return 0;
	return cp_balloon_lockable(available - mem_bytes);
}

int cp_balloon_size(uint64_t available, uint64_t mem_bytes, uint64_t *out,
		    struct cp_diag *diag)
{
	return cp_balloon_size_headroom(available, mem_bytes, CP_BALLOON_HEADROOM_BYTES, out,
					diag);
}

int cp_drop_caches(struct cp_diag *diag)
{
	sync();
	return cp_kfile_write("/proc/sys/vm/drop_caches", "3", diag);
}

int cp_balloon_inflate(const char *prog, uint64_t bytes, struct cp_balloon *b,
		       struct cp_diag *diag)
{
	char num[32], buf[128];
	char *argv[] = { "cachepressure-balloon", num, NULL };
	struct cp_spawn_opts so;
	size_t len = 0;
	int fds[2], rc;
	pid_t pid;

	snprintf(num, sizeof(num), "%" PRIu64, bytes);
	if (cp_proc_pipe(fds))
		return cp_diag_set(diag, -CP_ESYS, "pipe: %s", strerror(errno));
	cp_spawn_opts_init(&so);
	so.stdout_fd = fds[1];
	rc = cp_proc_spawn(prog, argv, &so, &pid, diag);
	close(fds[1]);
	if (rc) {
		close(fds[0]);
		return rc;
	}
	b->pid = pid;
	b->bytes = 0;
	for (;;) {
		struct pollfd pfd = { fds[0], POLLIN, 0 };
		ssize_t n;
		int st;

		if (cp_real_interrupted()) {
			rc = cp_diag_set(diag, -CP_EBUSY, "interrupted while the balloon inflated");
			break;
		}
		if (poll(&pfd, 1, 100) <= 0)
			continue;
		n = read(fds[0], buf + len, sizeof(buf) - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			rc = cp_diag_set(diag, -CP_ENOSPC,
					 "the balloon could not lock %" PRIu64 " MiB (see its message)",
					 bytes >> 20);
			if (cp_proc_wait(pid, 5000000000ULL, 0, &st) == 1)
				b->pid = 0;
			break;
		}
		len += (size_t)n;
		buf[len] = '\0';
		if (strchr(buf, '\n')) {
			if (strncmp(buf, "locked ", 7) == 0) {
				b->bytes = bytes;
				rc = 0;
			} else {
				rc = cp_diag_set(diag, -CP_ESYS, "balloon said '%s'", buf);
			}
			break;
		}
		if (len + 1 >= sizeof(buf)) {
			rc = cp_diag_set(diag, -CP_ESYS, "balloon output too long");
			break;
		}
	}
	close(fds[0]);
	if (rc)
		cp_balloon_deflate(b);
	return rc;
}

int cp_balloon_alive(struct cp_balloon *b)
{
	int st;

	if (b->pid <= 0)
		return 0;
	if (waitpid(b->pid, &st, WNOHANG) == b->pid) {
		b->pid = 0;
		return 0;
	}
	return 1;
}

void cp_balloon_deflate(struct cp_balloon *b)
{
	if (b->pid > 0)
		cp_proc_stop(b->pid, SIGTERM, 10000000000ULL, NULL);
	b->pid = 0;
	b->bytes = 0;
}
