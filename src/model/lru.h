/*
 * lru.h - the file LRU lists of a lruvec as lists of page slots.
 *
 * Models the list operations of mm/swap.c and include/linux/mm_inline.h
 * (add_page_to_lru_list, del_page_from_lru_list, list_move to the head):
 * new and moved pages enter at the head, reclaim takes from the tail
 * (lru_to_page = head->prev in the kernel's terms). Links are 32-bit
 * slot numbers into the page array, so a page costs 16 bytes.
 */
#ifndef CP_LRU_H
#define CP_LRU_H

#include "core/bug.h"
#include "model/pagecache.h"

static inline enum cp_lru_kind cp_page_lru_kind(const struct cp_page *p)
{
	return (p->flags & CP_PG_ACTIVE) ? CP_LRU_ACTIVE_FILE : CP_LRU_INACTIVE_FILE;
}

static inline void cp_lru_list_init(struct cp_lru_list *l)
{
	l->head = l->tail = CP_NIL;
	l->nr_pages = 0;
	l->nr_top_zone_pages = 0;
}

/* Is the page in the top zone (Normal)? pfns grow with the zone index. */
static inline bool cp_lru_page_in_top_zone(const struct cp_pagecache *pc, const struct cp_page *p)
{
	return p->pfn >= pc->mem->zones[pc->mem->nr_zones - 1].start_pfn;
}

/* add_page_to_lru_list(): at the head of the list its PG_active says. */
static inline void cp_lru_add_head(struct cp_pagecache *pc, uint32_t slot)
{
	struct cp_page *p = &pc->pages[slot];
	struct cp_lru_list *l = &pc->lruvec.lists[cp_page_lru_kind(p)];

	CP_BUG_ON(p->flags & CP_PG_LRU);
	p->prev = CP_NIL;
	p->next = l->head;
	if (l->head != CP_NIL)
		pc->pages[l->head].prev = slot;
	else
		l->tail = slot;
	l->head = slot;
	l->nr_pages++;
	l->nr_top_zone_pages += cp_lru_page_in_top_zone(pc, p);
	p->flags |= CP_PG_LRU;
}

/* del_page_from_lru_list(). */
static inline void cp_lru_del(struct cp_pagecache *pc, uint32_t slot)
{
	struct cp_page *p = &pc->pages[slot];
	struct cp_lru_list *l = &pc->lruvec.lists[cp_page_lru_kind(p)];

	CP_BUG_ON(!(p->flags & CP_PG_LRU));
	if (p->prev != CP_NIL)
		pc->pages[p->prev].next = p->next;
	else
		l->head = p->next;
	if (p->next != CP_NIL)
		pc->pages[p->next].prev = p->prev;
	else
		l->tail = p->prev;
	p->prev = p->next = CP_NIL;
	l->nr_pages--;
	l->nr_top_zone_pages -= cp_lru_page_in_top_zone(pc, p);
	p->flags &= (uint8_t)~CP_PG_LRU;
}

/*
 * A folio is one LRU entry (6.1 lruvec_add_folio / lruvec_del_folio,
 * nr_pages counted by folio_nr_pages()). The model keeps a node per page
 * and moves a folio's pages together, so they stay neighbours: added in
 * index order at the head, the head page ends up nearest the tail.
 */
static inline void cp_lru_add_folio_head(struct cp_pagecache *pc, uint32_t head)
{
	uint32_t nr = 1u << pc->pages[head].order, i;

	for (i = 0; i < nr; i++)
		cp_lru_add_head(pc, head + i);
}

static inline void cp_lru_del_folio(struct cp_pagecache *pc, uint32_t head)
{
	uint32_t nr = 1u << pc->pages[head].order, i;

	for (i = 0; i < nr; i++)
		cp_lru_del(pc, head + i);
}

static inline uint32_t cp_lru_tail(const struct cp_pagecache *pc, enum cp_lru_kind kind)
{
	return pc->lruvec.lists[kind].tail;
}

static inline uint64_t cp_lru_size(const struct cp_pagecache *pc, enum cp_lru_kind kind)
{
	return pc->lruvec.lists[kind].nr_pages;
}

/* lruvec_lru_size(lruvec, lru, zone_idx) below the top zone: the pages
 * of the zones under Normal (DMA32). */
static inline uint64_t cp_lru_size_below_top_zone(const struct cp_pagecache *pc,
						  enum cp_lru_kind kind)
{
	const struct cp_lru_list *l = &pc->lruvec.lists[kind];

	return l->nr_pages - l->nr_top_zone_pages;
}

#endif /* CP_LRU_H */
