/*
 * rng.h - the one in-tree PRNG: splitmix64 derives seeds, xoshiro256**
 * generates. Each consumer gets its own stream from (seed, stream_id), so
 * adding a workload does not shift another's sequence. Never rand().
 */
#ifndef CP_RNG_H
#define CP_RNG_H

#include <stdint.h>

struct cp_rng {
	uint64_t s[4];
};

/* Seeds r deterministically from (seed, stream_id). */
void cp_rng_init(struct cp_rng *r, uint64_t seed, uint64_t stream_id);

/* Next 64 random bits. */
uint64_t cp_rng_next(struct cp_rng *r);

/* Uniform in [0, bound) without modulo bias; bound must be > 0. */
uint64_t cp_rng_below(struct cp_rng *r, uint64_t bound);

#endif /* CP_RNG_H */
