/*
 * policy.h - the commit under study as one switch.
 *
 * legacy  (before v4.12): dput() and iput_final() set DCACHE_REFERENCED /
 *         I_REFERENCED on every release, so a new object enters its LRU
 *         already marked and needs two shrinker visits to be freed.
 * patched (563f40019d16, v4.12 on): the flag is set only when the object
 *         is released while it is already on the LRU.
 */
#ifndef CP_POLICY_H
#define CP_POLICY_H

enum cp_ref_policy {
	CP_POLICY_LEGACY,
	CP_POLICY_PATCHED,
};

/* Number of policies: they are 0 .. CP_NR_REF_POLICIES - 1. */
#define CP_NR_REF_POLICIES 2

/* "legacy" / "patched" */
const char *cp_ref_policy_name(enum cp_ref_policy p);

/* One line on what the policy does (for `cachepressure policies`);
 * "unknown" for a value out of range. */
const char *cp_ref_policy_description(enum cp_ref_policy p);

/* Parses name; 0 or -CP_EINVAL. */
int cp_ref_policy_parse(const char *name, enum cp_ref_policy *out);

#endif /* CP_POLICY_H */
