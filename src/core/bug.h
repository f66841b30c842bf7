/*
 * bug.h - internal invariants. A broken invariant is a bug, not an error:
 * CP_BUG_ON aborts with the location. CP_CHECK runs a module's _check()
 * after an operation in the sanitizer build only (CP_DEBUG_CHECKS).
 */
#ifndef CP_BUG_H
#define CP_BUG_H

#include <assert.h>

#define CP_BUG_ON(cond) assert(!(cond))

#ifdef CP_DEBUG_CHECKS
#define CP_DEBUG_CHECK(expr) assert(expr)
#else
#define CP_DEBUG_CHECK(expr) ((void)sizeof(expr)) /* referenced, not evaluated */
#endif

#endif /* CP_BUG_H */
