/*
 * shrinker.c - shrinker registry and the slab-shrinking pass.
 *
 * Models shrink_slab()/do_shrink_slab() of mm/vmscan.c in two versions,
 * chosen by the kernel profile:
 *
 * 4.11 (proportional): the scan target is twice (4/seeks) the fraction of
 * LRU pages the preceding page scan examined, applied to the freeable
 * objects: delta = (4 * nr_scanned / seeks) * freeable / (nr_eligible+1).
 * All deferred work is added; when delta is small (< freeable/4) the
 * total is clamped to freeable/2 (anti-windup), and always to
 * 2 * freeable. Work is done in batches; a remainder smaller than one
 * batch (and smaller than freeable) stays deferred, as does everything
 * when ->scan returns SHRINK_STOP (a GFP_NOFS caller of the superblock
 * shrinker).
 *
 * >= 4.16 / 6.1 (priority, commit 9092c71bb724): delta =
 * (freeable >> priority) * 4 / seeks, plus only nr_deferred >> priority
 * of the backlog; the new backlog is nr + delta - scanned, capped at
 * 2 * freeable.
 *
 * SIMPLIFIED: one node; no shrinker bitmap; shrink_slab() is asked for
 * one memcg per shrink_node() pass (the reclaim target, or the root for
 * global reclaim) instead of every memcg in the hierarchy: our runs put
 * every object either in the root (global) or in the one memcg whose
 * limit reclaims (memcg), so no other memcg's lists exist to walk;
 * ->scan may not change nr_scanned in 4.11 (the kernel ignores it there
 * too).
 */
#include "model/shrinker.h"

#include <cachepressure/error.h>
#include <string.h>

#include "core/bug.h"
#include "model/gfp.h"

#define SWAP_CLUSTER_MAX 32

void cp_shrinker_registry_init(struct cp_shrinker_registry *reg,
			       const struct cp_kernel_profile *profile, struct cp_vmstat *vmstat)
{
	memset(reg, 0, sizeof(*reg));
	reg->rule = profile->shrink_rule;
	reg->deferred_per_memcg = profile->shrink_rule == CP_SHRINK_PRIORITY;
	reg->vmstat = vmstat;
}

int cp_register_shrinker(struct cp_shrinker_registry *reg, struct cp_shrinker *s)
{
	if (reg->nr >= sizeof(reg->shrinkers) / sizeof(reg->shrinkers[0]))
		return -CP_ENOSPC;
	if (!s->ops || !s->ops->count || !s->ops->scan)
		return -CP_EINVAL;
	if (s->seeks == 0)
		s->seeks = CP_DEFAULT_SEEKS;
	reg->shrinkers[reg->nr++] = s;
	return 0;
}

static uint64_t *deferred_slot(struct cp_shrinker_registry *reg, struct cp_shrinker *s,
			       const struct cp_shrink_control *sc)
{
	int id = (reg->deferred_per_memcg && s->memcg_aware) ? sc->memcg_id : 0;

	CP_BUG_ON(id < 0 || id >= CP_MAX_MEMCGS);
	return &s->nr_deferred[id];
}

/* The batch loop shared by both rules; returns objects scanned. */
static uint64_t scan_batches(struct cp_shrinker_registry *reg, struct cp_shrinker *s,
			     struct cp_shrink_control *sc, uint64_t total_scan,
			     uint64_t freeable, uint64_t *freed)
{
	uint64_t batch = s->batch ? s->batch : CP_SHRINK_BATCH;
	uint64_t scanned = 0;

	while (total_scan >= batch || total_scan >= freeable) {
		uint64_t n = total_scan < batch ? total_scan : batch;
		uint64_t ret;

		sc->nr_to_scan = n;
		sc->nr_scanned = n;
		ret = s->ops->scan(s->priv, sc);
		if (ret == CP_SHRINK_STOP)
			break;
		*freed += ret;
		if (reg->rule == CP_SHRINK_PROPORTIONAL)
			sc->nr_scanned = n; /* 4.11 counts what it asked for */
		cp_count(reg->vmstat, CP_VM_SLABS_SCANNED, sc->nr_scanned);
		s->nr_scanned_total += sc->nr_scanned;
		if (sc->ctx && sc->ctx->work)
			sc->ctx->work->nr_scanned_objects += sc->nr_scanned;
		total_scan -= sc->nr_scanned < total_scan ? sc->nr_scanned : total_scan;
		scanned += sc->nr_scanned;
		if (n == 0)
			break;
	}
	return scanned;
}

/* 4.11 mm/vmscan.c do_shrink_slab(). */
static uint64_t shrink_proportional(struct cp_shrinker_registry *reg, struct cp_shrinker *s,
				    struct cp_shrink_control *sc, uint64_t freeable,
				    const struct cp_shrink_pressure *p)
{
	uint64_t *deferred = deferred_slot(reg, s, sc);
	uint64_t nr = *deferred, delta, total_scan, next_deferred, scanned, freed = 0;

	*deferred = 0;
	delta = (4 * p->nr_scanned) / s->seeks;
	delta = delta * freeable / (p->nr_eligible + 1);
	total_scan = nr + delta;
	next_deferred = total_scan;
	if (delta < freeable / 4 && total_scan > freeable / 2)
		total_scan = freeable / 2;
	if (total_scan > freeable * 2)
		total_scan = freeable * 2;
	scanned = scan_batches(reg, s, sc, total_scan, freeable, &freed);
	next_deferred = next_deferred >= scanned ? next_deferred - scanned : 0;
	*deferred += next_deferred;
	return freed;
}

/* >= 4.16 (6.1) do_shrink_slab(). */
static uint64_t shrink_priority(struct cp_shrinker_registry *reg, struct cp_shrinker *s,
				struct cp_shrink_control *sc, uint64_t freeable,
				const struct cp_shrink_pressure *p)
{
	uint64_t *deferred = deferred_slot(reg, s, sc);
	uint64_t nr = *deferred, delta, total_scan, next, scanned, freed = 0;
	int prio = p->priority;

	*deferred = 0;
	if (s->seeks) {
		delta = freeable >> prio;
		delta = delta * 4 / s->seeks;
	} else {
		delta = freeable / 2;
	}
	total_scan = (nr >> prio) + delta;
	if (total_scan > 2 * freeable)
		total_scan = 2 * freeable;
	/* trace_mm_shrink_slab_start() reports it here */
	if (prio <= CP_SHRINK_DEEP_PRIORITY) {
		s->nr_deep_calls++;
		s->nr_deep_scan += total_scan;
		if (sc->gfp & CP_GFP_FS)
			s->nr_deep_fs_calls++;
	}
	scanned = scan_batches(reg, s, sc, total_scan, freeable, &freed);
	next = nr + delta > scanned ? nr + delta - scanned : 0;
	if (next > 2 * freeable)
		next = 2 * freeable;
	*deferred += next;
	return freed;
}

uint64_t cp_do_shrink_slab(struct cp_shrinker_registry *reg, struct cp_shrinker *s,
			   struct cp_shrink_control *sc, const struct cp_shrink_pressure *p)
{
	uint64_t freeable = s->ops->count(s->priv, sc);
	uint64_t freed;

	if (freeable == 0 || freeable == CP_SHRINK_EMPTY)
		return 0;
	if (reg->rule == CP_SHRINK_PROPORTIONAL)
		freed = shrink_proportional(reg, s, sc, freeable, p);
	else
		freed = shrink_priority(reg, s, sc, freeable, p);
	s->nr_freed_total += freed;
	return freed;
}

uint64_t cp_shrink_slab(struct cp_shrinker_registry *reg, struct cp_shrink_control *sc,
			const struct cp_shrink_pressure *p)
{
	struct cp_shrink_pressure pr = *p;
	uint64_t freed = 0;
	unsigned i;

	if (reg->rule == CP_SHRINK_PROPORTIONAL && pr.nr_scanned == 0)
		pr.nr_scanned = SWAP_CLUSTER_MAX;
	for (i = 0; i < reg->nr; i++) {
		struct cp_shrinker *s = reg->shrinkers[i];

		/* a memcg's reclaim only runs shrinkers that know memcgs */
		if (sc->memcg_id != 0 && !s->memcg_aware)
			continue;
		freed += cp_do_shrink_slab(reg, s, sc, &pr);
	}
	return freed;
}
