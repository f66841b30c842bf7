/*
 * list_lru.c - generic object LRU lists with walk verdicts.
 *
 * Models mm/list_lru.c (4.11 and 6.1 behave alike, ref §4): objects
 * enter at the tail of the list of the memcg their memory is charged to
 * (list_lru_add reports whether it added, which the patched REFERENCED
 * policy needs), and a shrinker walks a list from the head with an
 * isolate callback. Items already visited and rotated go behind every
 * item still on the list, so the list is a FIFO of arrivals with second
 * chances. The count a shrinker sees is the list length, which includes
 * objects that were used again after they were added (the lists are lazy:
 * nothing takes an object off the LRU when it is looked up).
 *
 * Safety of the walk: like list_for_each_safe, the next item is read
 * before the callback runs, so the callback may remove or rotate the
 * current one; a rotated item can come round again, but every callback
 * costs one unit of budget, so a walk always ends.
 *
 * SIMPLIFIED: one NUMA node (no per-node lists); no locks, so SKIP and
 * RETRY only happen when a callback asks for them; no shrinker bitmap
 * (6.1 set_shrinker_bit) - the caller asks each memcg's list directly.
 */
#include "model/list_lru.h"

#include <cachepressure/error.h>
#include <string.h>

#include "core/alloc.h"
#include "core/bug.h"

int cp_list_lru_init(struct cp_list_lru *lru)
{
	memset(lru, 0, sizeof(*lru));
	return cp_list_lru_prepare(lru, 0);
}

void cp_list_lru_release(struct cp_list_lru *lru)
{
	unsigned i;

	for (i = 0; i < lru->nr_lists; i++)
		cp_free(lru->lists[i]);
	cp_free(lru->lists);
	memset(lru, 0, sizeof(*lru));
}

int cp_list_lru_prepare(struct cp_list_lru *lru, int memcg_id)
{
	struct cp_list_lru_one *one;
	unsigned id = (unsigned)memcg_id;

	CP_BUG_ON(memcg_id < 0);
	if (id < lru->nr_lists && lru->lists[id])
		return 0;
	one = cp_malloc(sizeof(*one));
	if (!one)
		return -CP_ENOMEM;
	if (id >= lru->nr_lists) {
		struct cp_list_lru_one **lists = cp_realloc(lru->lists, (id + 1) * sizeof(*lists));
		unsigned i;

		if (!lists) {
			cp_free(one);
			return -CP_ENOMEM;
		}
		for (i = lru->nr_lists; i <= id; i++)
			lists[i] = NULL;
		lru->lists = lists;
		lru->nr_lists = id + 1;
	}
	cp_list_init(&one->list);
	one->nr_items = 0;
	lru->lists[id] = one;
	return 0;
}

static struct cp_list_lru_one *list_of(const struct cp_list_lru *lru, int memcg_id)
{
	CP_BUG_ON(memcg_id < 0 || (unsigned)memcg_id >= lru->nr_lists ||
		  !lru->lists[memcg_id]);
	return lru->lists[memcg_id];
}

bool cp_list_lru_add(struct cp_list_lru *lru, struct cp_list *item, int memcg_id)
{
	struct cp_list_lru_one *l = list_of(lru, memcg_id);

	if (cp_list_linked(item))
		return false;
	cp_list_add_tail(item, &l->list);
	l->nr_items++;
	lru->nr_items++;
	return true;
}

bool cp_list_lru_del(struct cp_list_lru *lru, struct cp_list *item, int memcg_id)
{
	struct cp_list_lru_one *l = list_of(lru, memcg_id);

	if (!cp_list_linked(item))
		return false;
	CP_BUG_ON(l->nr_items == 0);
	cp_list_del(item);
	l->nr_items--;
	lru->nr_items--;
	return true;
}

uint64_t cp_list_lru_count(const struct cp_list_lru *lru, int memcg_id)
{
	if (memcg_id < 0 || (unsigned)memcg_id >= lru->nr_lists || !lru->lists[memcg_id])
		return 0;
	return lru->lists[memcg_id]->nr_items;
}

void cp_list_lru_isolate(struct cp_list_lru *lru, struct cp_list *item)
{
	struct cp_list_lru_one *l = lru->walking;

	CP_BUG_ON(!l || l->nr_items == 0);
	cp_list_del(item);
	l->nr_items--;
	lru->nr_items--;
}

void cp_list_lru_isolate_move(struct cp_list_lru *lru, struct cp_list *item,
			      struct cp_list *dispose)
{
	struct cp_list_lru_one *l = lru->walking;

	CP_BUG_ON(!l || l->nr_items == 0);
	cp_list_move_tail(item, dispose);
	l->nr_items--;
	lru->nr_items--;
}

uint64_t cp_list_lru_walk(struct cp_list_lru *lru, int memcg_id, cp_list_lru_isolate_fn isolate,
			  void *arg, uint64_t *nr_to_walk)
{
	struct cp_list_lru_one *l;
	struct cp_list *item, *next;
	uint64_t isolated = 0;

	if (memcg_id < 0 || (unsigned)memcg_id >= lru->nr_lists || !lru->lists[memcg_id])
		return 0;
	l = lru->lists[memcg_id];
	CP_BUG_ON(lru->walking != NULL); /* walks do not nest */
	lru->walking = l;
restart:
	for (item = l->list.next; item != &l->list; item = next) {
		next = item->next;
		if (*nr_to_walk == 0)
			break;
		--*nr_to_walk;
		switch (isolate(lru, item, arg)) {
		case CP_LRU_REMOVED:
			CP_BUG_ON(item->next == next && next->prev == item);
			isolated++;
			break;
		case CP_LRU_ROTATE:
			cp_list_move_tail(item, &l->list);
			break;
		case CP_LRU_SKIP:
			break;
		case CP_LRU_RETRY:
			goto restart;
		}
	}
	lru->walking = NULL;
	return isolated;
}

bool cp_list_lru_check(const struct cp_list_lru *lru)
{
	uint64_t total = 0;
	unsigned i;

	if (lru->nr_lists == 0 || !lru->lists[0])
		return false;
	for (i = 0; i < lru->nr_lists; i++) {
		const struct cp_list_lru_one *l = lru->lists[i];
		const struct cp_list *n;
		uint64_t len = 0;

		if (!l)
			continue;
		for (n = l->list.next; n != &l->list; n = n->next) {
			if (n->next->prev != n || ++len > l->nr_items)
				return false;
		}
		if (len != l->nr_items)
			return false;
		total += len;
	}
	return total == lru->nr_items;
}
