/*
 * policy.c - names and one-line descriptions of the REFERENCED policies.
 */
#include "model/policy.h"

#include <cachepressure/error.h>
#include <string.h>

static const char *const policy_names[] = {
	[CP_POLICY_LEGACY] = "legacy",
	[CP_POLICY_PATCHED] = "patched",
};

static const char *const policy_descriptions[] = {
	[CP_POLICY_LEGACY] = "before v4.12: every dput()/iput_final() sets *REFERENCED, so a "
			     "single-use object survives its first shrinker pass",
	[CP_POLICY_PATCHED] = "563f40019d16 (v4.12 on): *REFERENCED only when released while "
			      "already on the LRU",
};

_Static_assert(sizeof(policy_names) / sizeof(policy_names[0]) == CP_NR_REF_POLICIES,
	       "CP_NR_REF_POLICIES matches the name table");
_Static_assert(sizeof(policy_descriptions) / sizeof(policy_descriptions[0]) == CP_NR_REF_POLICIES,
	       "CP_NR_REF_POLICIES matches the description table");

const char *cp_ref_policy_description(enum cp_ref_policy p)
{
	return (unsigned)p < CP_NR_REF_POLICIES ? policy_descriptions[p] : "unknown";
}

const char *cp_ref_policy_name(enum cp_ref_policy p)
{
	return (unsigned)p < sizeof(policy_names) / sizeof(policy_names[0]) ? policy_names[p]
									    : "unknown";
}

int cp_ref_policy_parse(const char *name, enum cp_ref_policy *out)
{
	unsigned i;

	for (i = 0; i < sizeof(policy_names) / sizeof(policy_names[0]); i++) {
		if (strcmp(name, policy_names[i]) == 0) {
			*out = (enum cp_ref_policy)i;
			return 0;
		}
	}
	return -CP_EINVAL;
}
