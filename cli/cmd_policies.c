/*
 * cmd_policies.c - `cachepressure policies`: the REFERENCED policies
 * (--policy) and the kernel profiles (--kernel), each with its one-line
 * description, listed from the model's own tables.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "model/policy.h"
#include "model/profile.h"

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: cachepressure policies\n"
		"\n"
		"Lists the REFERENCED policies (run --policy) and the kernel profiles\n"
		"(run/compare --kernel), one per line: name, then what it models.\n"
		"\n"
		"Options:\n"
		"  -h, --help  show this help\n");
}

int cli_cmd_policies(int argc, char **argv)
{
	size_t i, w = 0;
	int p;

	if (argc > 1) {
		if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
			usage(stdout);
			return CLI_EXIT_OK;
		}
		fprintf(stderr, "cachepressure policies: unexpected argument '%s'\n", argv[1]);
		usage(stderr);
		return CLI_EXIT_USAGE;
	}
	/* one name column for both lists */
	for (p = 0; p < CP_NR_REF_POLICIES; p++)
		if (strlen(cp_ref_policy_name((enum cp_ref_policy)p)) > w)
			w = strlen(cp_ref_policy_name((enum cp_ref_policy)p));
	for (i = 0; cp_kernel_profiles[i]; i++)
		if (strlen(cp_kernel_profiles[i]->name) > w)
			w = strlen(cp_kernel_profiles[i]->name);

	printf("Policies (--policy):\n");
	for (p = 0; p < CP_NR_REF_POLICIES; p++)
		printf("  %-*s  %s\n", (int)w, cp_ref_policy_name((enum cp_ref_policy)p),
		       cp_ref_policy_description((enum cp_ref_policy)p));
	printf("\nKernel profiles (--kernel):\n");
	for (i = 0; cp_kernel_profiles[i]; i++)
		printf("  %-*s  %s\n", (int)w, cp_kernel_profiles[i]->name,
		       cp_kernel_profiles[i]->description);
	return fflush(stdout) ? CLI_EXIT_FAIL : CLI_EXIT_OK;
}
