/*
 * list.h - intrusive circular doubly-linked list.
 *
 * The node lives inside the object (like the kernel's list_head), so list
 * operations never allocate and cannot fail. An empty list is a head that
 * points at itself; a node that is on no list points at itself too, so
 * "is it linked?" is one comparison.
 */
#ifndef CP_LIST_H
#define CP_LIST_H

#include <stdbool.h>
#include <stddef.h>

struct cp_list {
	struct cp_list *prev, *next;
};

#define cp_container_of(ptr, type, member) \
	((type *)(void *)((char *)(ptr) - offsetof(type, member)))

static inline void cp_list_init(struct cp_list *h)
{
	h->prev = h->next = h;
}

static inline bool cp_list_empty(const struct cp_list *h)
{
	return h->next == h;
}

/* True when the node is on some list (nodes start self-linked). */
static inline bool cp_list_linked(const struct cp_list *n)
{
	return n->next != n;
}

static inline void list_insert_between(struct cp_list *n, struct cp_list *prev,
				       struct cp_list *next)
{
	n->prev = prev;
	n->next = next;
	prev->next = n;
	next->prev = n;
}

/* Insert at the head (front) of the list. */
static inline void cp_list_add(struct cp_list *n, struct cp_list *h)
{
	list_insert_between(n, h, h->next);
}

/* Insert at the tail (back) of the list. */
static inline void cp_list_add_tail(struct cp_list *n, struct cp_list *h)
{
	list_insert_between(n, h->prev, h);
}

/* Unlink and leave the node self-linked. */
static inline void cp_list_del(struct cp_list *n)
{
	n->prev->next = n->next;
	n->next->prev = n->prev;
	cp_list_init(n);
}

static inline void cp_list_move_tail(struct cp_list *n, struct cp_list *h)
{
	cp_list_del(n);
	cp_list_add_tail(n, h);
}

static inline void cp_list_move(struct cp_list *n, struct cp_list *h)
{
	cp_list_del(n);
	cp_list_add(n, h);
}

static inline struct cp_list *cp_list_first(const struct cp_list *h)
{
	return cp_list_empty(h) ? NULL : h->next;
}

static inline struct cp_list *cp_list_last(const struct cp_list *h)
{
	return cp_list_empty(h) ? NULL : h->prev;
}

#endif /* CP_LIST_H */
