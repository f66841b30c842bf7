/*
 * page_writeback.h - the global dirty limits and the pause a task that
 * dirties pages meets in balance_dirty_pages() (mm/page-writeback.c).
 */
#ifndef CP_PAGE_WRITEBACK_H
#define CP_PAGE_WRITEBACK_H

#include <stddef.h>
#include <stdint.h>

/* global_dirtyable_memory(): free pages less totalreserve_pages, plus
 * the file LRU pages (no highmem on x86-64); never 0. */
uint64_t cp_global_dirtyable_memory(uint64_t free_pages, uint64_t totalreserve_pages,
				    uint64_t file_lru_pages);

/* domain_dirty_limits() of the global domain, in pages. */
struct cp_dirty_limits {
	uint64_t thresh;    /* vm.dirty_ratio % of the dirtyable memory */
	uint64_t bg_thresh; /* vm.dirty_background_ratio %; thresh / 2 when not below thresh */
};

void cp_domain_dirty_limits(uint64_t dirtyable, unsigned dirty_ratio, unsigned bg_ratio,
			    struct cp_dirty_limits *out);

/* dirty_freerun_ceiling(): below it a dirtier is not paced. */
uint64_t cp_dirty_freerun_ceiling(const struct cp_dirty_limits *l);

/* wb_position_ratio()'s setpoint, (freerun + limit) / 2: the dirty pages
 * a paced dirtier hovers at (limit: hard_dirty_limit(), taken as thresh). */
uint64_t cp_dirty_setpoint(const struct cp_dirty_limits *l);

/*
 * The data pages written and not yet on the device (NR_FILE_DIRTY +
 * NR_WRITEBACK of the files the writers fill): one entry a write(),
 * with the time its device write completes. The device is one FIFO
 * queue, so the completions come in submission order.
 */
struct cp_wb_entry {
	uint64_t done_ns;
	uint64_t pages;
};

struct cp_wb_domain {
	struct cp_wb_entry *q; /* ring, owned */
	size_t head, n, cap;
	uint64_t nr_pages;     /* the sum of the entries' pages */
};

void cp_wb_domain_init(struct cp_wb_domain *d);
void cp_wb_domain_release(struct cp_wb_domain *d);

/* A write() of pages whose device write completes at done_ns (not before
 * the last one's). 0 or -CP_ENOMEM. */
int cp_wb_domain_add(struct cp_wb_domain *d, uint64_t done_ns, uint64_t pages);

/* The pages still dirty or under writeback at now_ns (completed entries
 * are dropped). */
uint64_t cp_wb_domain_pages(struct cp_wb_domain *d, uint64_t now_ns);

/*
 * balance_dirty_pages() before a write(): 0 when the dirtier may go on at
 * now_ns (the dirty pages are at or below the setpoint), else the time
 * at which enough completes to bring them back to it.
 */
uint64_t cp_balance_dirty_pages(struct cp_wb_domain *d, uint64_t setpoint, uint64_t now_ns);

#endif /* CP_PAGE_WRITEBACK_H */
