/*
 * test_list_lru.c - mm/list_lru.c: tail insertion, add reports whether
 * it added, per-memcg lists, walk verdicts, budget, rotation, retry.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <cachepressure/error.h>

#include "core/alloc.h"
#include "model/list_lru.h"

struct item {
	struct cp_list lru;
	int id;
	bool pinned;     /* in use: isolate removes it from the LRU, frees nothing */
	bool referenced; /* second chance: rotate once */
	int visits;
};

#define NR 8

struct fixture {
	struct cp_list_lru lru;
	struct item items[NR];
	struct cp_list dispose;
};

static int setup(void **state)
{
	struct fixture *f = cp_calloc(1, sizeof(*f));
	int i;

	assert_int_equal(cp_list_lru_init(&f->lru), 0);
	cp_list_init(&f->dispose);
	for (i = 0; i < NR; i++) {
		cp_list_init(&f->items[i].lru);
		f->items[i].id = i;
		assert_true(cp_list_lru_add(&f->lru, &f->items[i].lru, 0));
	}
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	cp_list_lru_release(&f->lru);
	cp_free(f);
	return 0;
}

/* An isolate callback shaped like dentry_lru_isolate(). */
static enum cp_lru_status isolate(struct cp_list_lru *lru, struct cp_list *node, void *arg)
{
	struct item *it = cp_container_of(node, struct item, lru);
	struct fixture *f = arg;

	it->visits++;
	if (it->pinned) {
		cp_list_lru_isolate(lru, node);
		return CP_LRU_REMOVED;
	}
	if (it->referenced) {
		it->referenced = false;
		return CP_LRU_ROTATE;
	}
	cp_list_lru_isolate_move(lru, node, &f->dispose);
	return CP_LRU_REMOVED;
}

static int list_ids(const struct cp_list *head, int *ids, int max)
{
	const struct cp_list *n;
	int k = 0;

	for (n = head->next; n != head && k < max; n = n->next)
		ids[k++] = cp_container_of(n, struct item, lru)->id;
	return k;
}

/* list_lru_add returns true only for an item not yet on a list; a
 * second add changes nothing (the patched policy keys off this). */
static void add_reports_already_on_list(void **state)
{
	struct fixture *f = *state;

	assert_false(cp_list_lru_add(&f->lru, &f->items[3].lru, 0));
	assert_int_equal(cp_list_lru_count(&f->lru, 0), NR);
	assert_true(cp_list_lru_del(&f->lru, &f->items[3].lru, 0));
	assert_false(cp_list_lru_del(&f->lru, &f->items[3].lru, 0));
	assert_int_equal(cp_list_lru_count(&f->lru, 0), NR - 1);
	assert_true(cp_list_lru_add(&f->lru, &f->items[3].lru, 0));
	/* re-added at the tail */
	assert_ptr_equal(cp_list_last(&f->lru.lists[0]->list), &f->items[3].lru);
	assert_true(cp_list_lru_check(&f->lru));
}

/* 8 items, 3 pinned (ids 1, 4, 6), budget 8: every visit is REMOVED
 * (pinned ones just leave the list, 5 go to the dispose list), so the
 * walk returns 8, uses the whole budget, and leaves the list empty. */
static void walk_counts_removed_including_pinned(void **state)
{
	struct fixture *f = *state;
	uint64_t nr_to_walk = 8;
	int nr_disposed;
	int ids[NR];

	f->items[1].pinned = f->items[4].pinned = f->items[6].pinned = true;
	assert_int_equal(cp_list_lru_walk(&f->lru, 0, isolate, f, &nr_to_walk), 8);
	assert_int_equal(nr_to_walk, 0);
	assert_int_equal(cp_list_lru_count(&f->lru, 0), 0);
	nr_disposed = list_ids(&f->dispose, ids, NR);
	assert_int_equal(nr_disposed, 5);
	/* dispose list keeps walk order: 0 2 3 5 7 */
	assert_int_equal(ids[0], 0);
	assert_int_equal(ids[1], 2);
	assert_int_equal(ids[4], 7);
	assert_false(cp_list_linked(&f->items[1].lru));
	assert_true(cp_list_lru_check(&f->lru));
}

/* The budget bounds the walk: 3 visits from the head take items 0,1,2. */
static void walk_stops_when_budget_is_spent(void **state)
{
	struct fixture *f = *state;
	uint64_t nr_to_walk = 3;

	assert_int_equal(cp_list_lru_walk(&f->lru, 0, isolate, f, &nr_to_walk), 3);
	assert_int_equal(nr_to_walk, 0);
	assert_int_equal(cp_list_lru_count(&f->lru, 0), 5);
	assert_int_equal(f->items[2].visits, 1);
	assert_int_equal(f->items[3].visits, 0);
	assert_ptr_equal(cp_list_first(&f->lru.lists[0]->list), &f->items[3].lru);
}

/* ROTATE moves an item behind all others. Items 0 and 1 referenced,
 * budget 4: visits 0 (rotate), 1 (rotate), 2 (free), 3 (free); the list
 * is then 4 5 6 7 0 1 and the walk returned 2. */
static void rotated_items_go_to_the_tail(void **state)
{
	struct fixture *f = *state;
	uint64_t nr_to_walk = 4;
	int ids[NR];

	f->items[0].referenced = f->items[1].referenced = true;
	assert_int_equal(cp_list_lru_walk(&f->lru, 0, isolate, f, &nr_to_walk), 2);
	assert_int_equal(list_ids(&f->lru.lists[0]->list, ids, NR), 6);
	assert_int_equal(ids[0], 4);
	assert_int_equal(ids[3], 7);
	assert_int_equal(ids[4], 0);
	assert_int_equal(ids[5], 1);
	assert_false(f->items[0].referenced);
	assert_true(cp_list_lru_check(&f->lru));
}

/* Every item referenced, budget 20 on 8 items: the first 8 visits rotate
 * (clearing the bits), the next 8 free, then the list is empty and the
 * walk stops with 4 budget left; no visit loops forever. */
static void rotation_is_bounded_and_revisits_in_the_same_walk(void **state)
{
	struct fixture *f = *state;
	uint64_t nr_to_walk = 20;
	int i;

	for (i = 0; i < NR; i++)
		f->items[i].referenced = true;
	assert_int_equal(cp_list_lru_walk(&f->lru, 0, isolate, f, &nr_to_walk), 8);
	assert_int_equal(nr_to_walk, 4);
	for (i = 0; i < NR; i++)
		assert_int_equal(f->items[i].visits, 2);
}

/* list_for_each_safe reads the next item before the callback: rotating
 * the last item of the list ends the walk even with budget left (a lone
 * REFERENCED item needs a second walk). */
static void rotating_the_last_item_ends_the_walk(void **state)
{
	struct fixture *f = *state;
	uint64_t nr_to_walk = 5;
	int i;

	for (i = 1; i < NR; i++)
		assert_true(cp_list_lru_del(&f->lru, &f->items[i].lru, 0));
	f->items[0].referenced = true;
	assert_int_equal(cp_list_lru_walk(&f->lru, 0, isolate, f, &nr_to_walk), 0);
	assert_int_equal(nr_to_walk, 4);
	assert_int_equal(f->items[0].visits, 1);
	nr_to_walk = 5;
	assert_int_equal(cp_list_lru_walk(&f->lru, 0, isolate, f, &nr_to_walk), 1);
}

/* SKIP leaves the item in place and spends budget. */
static enum cp_lru_status skip_all(struct cp_list_lru *lru, struct cp_list *node, void *arg)
{
	(void)lru;
	(void)arg;
	cp_container_of(node, struct item, lru)->visits++;
	return CP_LRU_SKIP;
}

static void skip_spends_budget_and_keeps_order(void **state)
{
	struct fixture *f = *state;
	uint64_t nr_to_walk = 5;
	int ids[NR];

	assert_int_equal(cp_list_lru_walk(&f->lru, 0, skip_all, f, &nr_to_walk), 0);
	assert_int_equal(nr_to_walk, 0);
	assert_int_equal(list_ids(&f->lru.lists[0]->list, ids, NR), NR);
	assert_int_equal(ids[0], 0);
	assert_int_equal(f->items[4].visits, 1);
	assert_int_equal(f->items[5].visits, 0);
}

/* RETRY restarts from the head without refunding: a callback that
 * answers RETRY once for item 0, then frees. Budget 3: visits 0 (retry),
 * 0 (free), 1 (free). */
static enum cp_lru_status retry_once(struct cp_list_lru *lru, struct cp_list *node, void *arg)
{
	struct item *it = cp_container_of(node, struct item, lru);
	struct fixture *f = arg;

	if (it->visits++ == 0 && it->id == 0)
		return CP_LRU_RETRY;
	cp_list_lru_isolate_move(lru, node, &f->dispose);
	return CP_LRU_REMOVED;
}

static void retry_restarts_from_head_without_refund(void **state)
{
	struct fixture *f = *state;
	uint64_t nr_to_walk = 3;

	assert_int_equal(cp_list_lru_walk(&f->lru, 0, retry_once, f, &nr_to_walk), 2);
	assert_int_equal(nr_to_walk, 0);
	assert_int_equal(f->items[0].visits, 2);
	assert_int_equal(f->items[1].visits, 1);
	assert_int_equal(f->items[2].visits, 0);
	assert_int_equal(cp_list_lru_count(&f->lru, 0), NR - 2);
}

/* Per-memcg lists: counts and walks are per list; an unprepared memcg
 * counts 0. */
static void memcg_lists_are_separate(void **state)
{
	struct fixture *f = *state;
	uint64_t nr_to_walk = 100;

	assert_int_equal(cp_list_lru_count(&f->lru, 3), 0);
	assert_int_equal(cp_list_lru_prepare(&f->lru, 3), 0);
	assert_true(cp_list_lru_del(&f->lru, &f->items[5].lru, 0));
	assert_true(cp_list_lru_add(&f->lru, &f->items[5].lru, 3));
	assert_int_equal(cp_list_lru_count(&f->lru, 3), 1);
	assert_int_equal(cp_list_lru_count(&f->lru, 0), NR - 1);
	assert_int_equal(cp_list_lru_count(&f->lru, 1), 0);
	assert_int_equal(cp_list_lru_walk(&f->lru, 3, isolate, f, &nr_to_walk), 1);
	assert_int_equal(nr_to_walk, 99);
	assert_int_equal(f->items[5].visits, 1);
	assert_int_equal(f->items[4].visits, 0);
	assert_int_equal(f->lru.nr_items, NR - 1);
	assert_true(cp_list_lru_check(&f->lru));
}

/* prepare fails cleanly under host allocation failure. */
static void prepare_failure_changes_nothing(void **state)
{
	struct fixture *f = *state;
	long n;
	int rc = -1;

	for (n = 0; rc != 0; n++) {
		cp_alloc_fail_after(n);
		rc = cp_list_lru_prepare(&f->lru, 5);
		cp_alloc_fail_after(-1);
		if (rc) {
			assert_int_equal(rc, -CP_ENOMEM);
			assert_int_equal(cp_list_lru_count(&f->lru, 5), 0);
		}
		assert_true(cp_list_lru_check(&f->lru));
	}
	assert_true(f->lru.lists[5] != NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(add_reports_already_on_list, setup, teardown),
		cmocka_unit_test_setup_teardown(walk_counts_removed_including_pinned, setup, teardown),
		cmocka_unit_test_setup_teardown(walk_stops_when_budget_is_spent, setup, teardown),
		cmocka_unit_test_setup_teardown(rotated_items_go_to_the_tail, setup, teardown),
		cmocka_unit_test_setup_teardown(rotation_is_bounded_and_revisits_in_the_same_walk,
						setup, teardown),
		cmocka_unit_test_setup_teardown(rotating_the_last_item_ends_the_walk, setup, teardown),
		cmocka_unit_test_setup_teardown(skip_spends_budget_and_keeps_order, setup, teardown),
		cmocka_unit_test_setup_teardown(retry_restarts_from_head_without_refund, setup,
						teardown),
		cmocka_unit_test_setup_teardown(memcg_lists_are_separate, setup, teardown),
		cmocka_unit_test_setup_teardown(prepare_failure_changes_nothing, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
