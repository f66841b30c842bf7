/*
 * policy.c - names of the REFERENCED policies.
 */
#include "model/policy.h"

#include <cachepressure/error.h>
#include <string.h>

static const char *const policy_names[] = {
	[CP_POLICY_LEGACY] = "legacy",
	[CP_POLICY_PATCHED] = "patched",
};

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
