/*
 * rng.c - splitmix64 seeding and xoshiro256** generation
 * (Blackman and Vigna, public-domain algorithms, written from their
 * published description).
 */
#include "core/rng.h"

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

void cp_rng_init(struct cp_rng *r, uint64_t seed, uint64_t stream_id)
{
	uint64_t x = seed ^ splitmix64(&stream_id);
	int i;

	for (i = 0; i < 4; i++)
		r->s[i] = splitmix64(&x);
}

uint64_t cp_rng_next(struct cp_rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

uint64_t cp_rng_below(struct cp_rng *r, uint64_t bound)
{
	uint64_t threshold = (0 - bound) % bound;
	uint64_t x;

	do {
		x = cp_rng_next(r);
	} while (x < threshold);
	return x % bound;
}
