/*
 * pcplists.h - empty the kernel's per-CPU page lists before the start
 * layout is recorded (global runs): the pages on them are free memory
 * that neither /proc/pagetypeinfo nor MemAvailable shows, thousands of
 * them with 6.7+ pcp high auto-tuning (16-17 K pages in ZONE_NORMAL after
 * the balloon on the 6.18 machine), which the kernel hands out or drains
 * into the free lists as the run starts.
 */
#ifndef CP_PCPLISTS_H
#define CP_PCPLISTS_H

#include <stdbool.h>

struct cp_diag;

/* /proc/sys/vm/percpu_pagelist_high_fraction as it was, while shrunk. */
struct cp_pcp_shrink {
	bool active;
	char saved[32];
};

/* The fraction the lists are shrunk with: each CPU's pcp->high becomes
 * managed / fraction / CPUs, at least 4 x batch (zone_highsize). */
#define CP_PCP_SHRINK_FRACTION "1000000"

/*
 * Saves percpu_pagelist_high_fraction and sets it to
 * CP_PCP_SHRINK_FRACTION, then waits (at most max_ms) for the kernel to
 * free what is above the new high (free_pcppages_bulk on the next free,
 * decay_pcp_high every second): until the pages on the lists of every
 * zone (/proc/zoneinfo) stop falling for 500 ms. The lists stay short
 * until cp_pcp_restore(). Returns 0 or -CP_E* (diag says which file);
 * on failure nothing is changed.
 */
int cp_pcp_shrink(struct cp_pcp_shrink *s, unsigned max_ms, struct cp_diag *diag);

/* Writes the saved value back (auto-tuned lists again); nothing when not
 * shrunk. Returns 0 or -CP_E*. */
int cp_pcp_restore(struct cp_pcp_shrink *s, struct cp_diag *diag);

#endif /* CP_PCPLISTS_H */
