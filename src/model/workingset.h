/*
 * workingset.h - refault detection with shadow entries (mm/workingset.c).
 */
#ifndef CP_WORKINGSET_H
#define CP_WORKINGSET_H

#include <stdbool.h>
#include <stdint.h>

#include "model/pagecache.h"

/*
 * workingset_eviction(): the timestamp to store in the evicted page's
 * shadow entry. 4.11 stamps after aging the clock (inactive_age is
 * incremented and the new value stored); 6.1 stores the clock before
 * aging it by the folio's pages (profile: workingset_flag).
 */
uint32_t cp_workingset_eviction(struct cp_pagecache *pc, uint32_t nr_pages);

/*
 * workingset_refault(): a page is read back into a slot holding a shadow.
 * distance = (clock now - eviction stamp) mod 2^32; the page is activated
 * when distance <= active file pages (no swap: anon does not count).
 * Counts workingset_refault_file always, workingset_activate_file on
 * activation and, in 6.1 when the shadow recorded PG_workingset,
 * workingset_restore_file, each by nr_pages (the folio's pages: 6.1
 * workingset_refault() counts folio_nr_pages()). Returns true when the page should start on
 * the active list; *restore says it gets PG_workingset back.
 */
bool cp_workingset_refault(struct cp_pagecache *pc, uint32_t stamp, bool shadow_workingset,
			   uint32_t nr_pages, bool *restore);

/* workingset_activation() / workingset_age_nonresident(): an activation
 * ages the clock, so pages promoted by use count like evictions. */
static inline void cp_workingset_activation(struct cp_pagecache *pc, uint32_t nr_pages)
{
	pc->lruvec.nonresident_age += nr_pages;
}

#endif /* CP_WORKINGSET_H */
