/*
 * intmath.h - integer helpers the kernel has in lib/ (int_sqrt).
 */
#ifndef CP_INTMATH_H
#define CP_INTMATH_H

#include <stdint.h>

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

#endif /* CP_INTMATH_H */
