/*
 * balloon.h - global reclaim on a big machine: a process of our own
 * (cp-balloon, shown as "cachepressure-balloon") mlock()s MemAvailable
 * minus SIZE, so the page cache and slab caches of the experiment have
 * only SIZE, and reclaim is the kernel's global one (kswapd, direct
 * reclaim), as on the seed's 16 GiB box.
 */
#ifndef CP_BALLOON_H
#define CP_BALLOON_H

#include <stdint.h>
#include <sys/types.h>

struct cp_diag;

/* The room the run refuses to start without, beyond SIZE. */
#define CP_BALLOON_HEADROOM_BYTES (1536ULL << 20)

/* After the balloon has locked its memory the kernel has often freed more
 * than MemAvailable promised (reclaim overshoots its targets while the
 * balloon faults in); more balloons then take what is above SIZE, at most
 * this many, while the excess is at least CP_BALLOON_TOPUP_MIN_BYTES. */
#define CP_BALLOON_MAX_TOPUPS 3
#define CP_BALLOON_TOPUP_MIN_BYTES (32ULL << 20)

/* MemAvailable of a meminfo file (normally /proc/meminfo), in bytes. */
int cp_meminfo_available(const char *meminfo, uint64_t *out, struct cp_diag *diag);

/* Bytes the balloon must lock so that mem_bytes stay available:
 * cp_balloon_lockable(available - mem_bytes). Returns 0, or -CP_ENOSPC when available <
 * mem_bytes + CP_BALLOON_HEADROOM_BYTES (diag gives the numbers). */
int cp_balloon_size(uint64_t available, uint64_t mem_bytes, uint64_t *out,
		    struct cp_diag *diag);

/* Page-table bytes of an anonymous mapping of bytes, faulted in with
 * 4 KiB pages on x86-64 (4-level): PTE pages per 2 MiB, PMD per 1 GiB,
 * PUD per 512 GiB. */
uint64_t cp_balloon_page_table_bytes(uint64_t bytes);

/* The most the balloon may lock inside span bytes of free memory once its
 * own page tables are paid for, rounded down to a page. */
uint64_t cp_balloon_lockable(uint64_t span);

/* The same with another headroom (a lab guest: CP_LAB_GUEST_HEADROOM_BYTES). */
/* The top-up for MemAvailable `available` after a balloon: the lockable
 * part of available - mem_bytes when that excess is at least
 * CP_BALLOON_TOPUP_MIN_BYTES, else 0 (nothing to add). */
uint64_t cp_balloon_topup_bytes(uint64_t available, uint64_t mem_bytes);

int cp_balloon_size_headroom(uint64_t available, uint64_t mem_bytes, uint64_t headroom_bytes,
			     uint64_t *out, struct cp_diag *diag);

/* echo 3 > /proc/sys/vm/drop_caches, after sync(). */
int cp_drop_caches(struct cp_diag *diag);

struct cp_balloon {
	pid_t pid;        /* 0 = none */
	uint64_t bytes;   /* locked */
};

/* Starts prog (cp-balloon) and waits until it reports its memory locked
 * (or fails, or a stop signal arrives: then it is stopped again and
 * -CP_EBUSY returned). */
int cp_balloon_inflate(const char *prog, uint64_t bytes, struct cp_balloon *b,
		       struct cp_diag *diag);

/* 1 while the balloon process lives, 0 once it died (OOM kill). */
int cp_balloon_alive(struct cp_balloon *b);

/* Stops the balloon (SIGTERM, then SIGKILL) and reaps it. */
void cp_balloon_deflate(struct cp_balloon *b);

#endif /* CP_BALLOON_H */
