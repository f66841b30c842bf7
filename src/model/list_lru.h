/*
 * list_lru.h - the generic object LRU of mm/list_lru.c: one intrusive
 * list per memcg, appended at the tail, walked from the head by a
 * shrinker with an isolate callback that returns a verdict.
 */
#ifndef CP_LIST_LRU_H
#define CP_LIST_LRU_H

#include <stdbool.h>
#include <stdint.h>

#include "core/list.h"

/* Verdicts of an isolate callback (enum lru_status). */
enum cp_lru_status {
	CP_LRU_REMOVED, /* the callback took the item off the list (isolate helpers) */
	CP_LRU_ROTATE,  /* move the item to the tail */
	CP_LRU_SKIP,    /* leave it where it is */
	CP_LRU_RETRY,   /* the list may have changed: restart from the head */
};

/* One list (struct list_lru_one). */
struct cp_list_lru_one {
	struct cp_list list;
	uint64_t nr_items; /* invariant: length of list */
};

struct cp_list_lru {
	struct cp_list_lru_one **lists; /* by memcg id; NULL: not prepared yet */
	unsigned nr_lists;
	uint64_t nr_items;              /* invariant: sum of nr_items */
	struct cp_list_lru_one *walking; /* list of the walk in progress */
};

/* Called for each visited item; may use cp_list_lru_isolate() or
 * cp_list_lru_isolate_move() and must then return CP_LRU_REMOVED. */
typedef enum cp_lru_status (*cp_list_lru_isolate_fn)(struct cp_list_lru *lru,
						      struct cp_list *item, void *arg);

/* list_lru_init_memcg(): an LRU with the root list (memcg id 0).
 * Returns 0 or -CP_ENOMEM (nothing allocated). */
int cp_list_lru_init(struct cp_list_lru *lru);

/* Free the lists (not the items; they are left linked to freed heads and
 * must not be touched through the LRU again). */
void cp_list_lru_release(struct cp_list_lru *lru);

/* memcg_list_lru_alloc(): make sure the list of memcg_id exists before an
 * object charged to it can be added. Returns 0 or -CP_ENOMEM (unchanged). */
int cp_list_lru_prepare(struct cp_list_lru *lru, int memcg_id);

/* list_lru_add(): append at the tail of memcg_id's list (prepared) and
 * return true; false (nothing done) when the item is already on a list. */
bool cp_list_lru_add(struct cp_list_lru *lru, struct cp_list *item, int memcg_id);

/* list_lru_del(): unlink from memcg_id's list; false if it was not linked. */
bool cp_list_lru_del(struct cp_list_lru *lru, struct cp_list *item, int memcg_id);

/* list_lru_count_one(): items on memcg_id's list (lazily in-use ones too). */
uint64_t cp_list_lru_count(const struct cp_list_lru *lru, int memcg_id);

/*
 * list_lru_walk_one(): visit memcg_id's list from the head. Before each
 * callback *nr_to_walk is decremented; the walk stops when it reaches 0.
 * ROTATE moves the item to the tail; as in the kernel's
 * list_for_each_safe the next item was read before the callback, so a
 * rotated item is visited again in the same walk only if other items
 * followed it (rotating the last item ends the walk). RETRY restarts
 * from the head without refunding the budget. The callback may unlink
 * the current item only. Returns the number of REMOVED verdicts.
 */
uint64_t cp_list_lru_walk(struct cp_list_lru *lru, int memcg_id, cp_list_lru_isolate_fn isolate,
			  void *arg, uint64_t *nr_to_walk);

/* For isolate callbacks: list_lru_isolate() unlinks the item from the
 * list being walked; list_lru_isolate_move() moves it to the tail of a
 * private dispose list. Both decrement nr_items. */
void cp_list_lru_isolate(struct cp_list_lru *lru, struct cp_list *item);
void cp_list_lru_isolate_move(struct cp_list_lru *lru, struct cp_list *item,
			      struct cp_list *dispose);

/* Invariants: every list's nr_items equals its length, totals add up.
 * O(items). */
bool cp_list_lru_check(const struct cp_list_lru *lru);

#endif /* CP_LIST_LRU_H */
