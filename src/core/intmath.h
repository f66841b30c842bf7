/*
 * intmath.h - integer helpers the kernel has in lib/ and
 * include/linux/log2.h, bitops.h, math.h (int_sqrt, ilog2, __ffs,
 * rounddown_pow_of_two, DIV_ROUND_UP).
 */
#ifndef CP_INTMATH_H
#define CP_INTMATH_H

#include <stdint.h>

/* n / d rounded up (include/linux/math.h DIV_ROUND_UP), without the
 * overflow of (n + d - 1) / d near UINT64_MAX. d > 0. */
static inline uint64_t cp_div_round_up(uint64_t n, uint64_t d)
{
	return n / d + (n % d != 0);
}

/* Floor of the square root of x (lib/math/int_sqrt.c int_sqrt, by the
 * classic bit-by-bit method). */
static inline uint64_t cp_int_sqrt(uint64_t x)
{
	uint64_t r = 0, bit = 1ULL << 62;

	while (bit > x)
		bit >>= 2;
	while (bit) {
		if (x >= r + bit) {
			x -= r + bit;
			r = (r >> 1) + bit;
		} else {
			r >>= 1;
		}
		bit >>= 2;
	}
	return r;
}

/* ilog2(): the highest set bit of x (x != 0). */
static inline unsigned cp_ilog2(uint64_t x)
{
	unsigned b = 0;

	while (x >>= 1)
		b++;
	return b;
}

/* __ffs(): the lowest set bit of x (x != 0). */
static inline unsigned cp_ffs(uint64_t x)
{
	unsigned b = 0;

	while (!(x & 1u)) {
		x >>= 1;
		b++;
	}
	return b;
}

/* roundup_pow_of_two() (x != 0). */
static inline uint64_t cp_roundup_pow_of_two(uint64_t x)
{
	return x == 1 ? 1 : 1ull << (cp_ilog2(x - 1) + 1);
}

/* rounddown_pow_of_two() (x != 0). */
static inline uint64_t cp_rounddown_pow_of_two(uint64_t x)
{
	return 1ull << cp_ilog2(x);
}

#endif /* CP_INTMATH_H */
