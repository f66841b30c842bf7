/*
 * scenario_opts.c - the scenario argument and the options every command
 * that takes a scenario shares: SCENARIO (a built-in name or a path),
 * --mem SIZE and --set SECTION.KEY=VALUE.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cachepressure/error.h>

#include "cli.h"
#include "plan.h"
#include "core/alloc.h"
#include "core/parse.h"
#include "scenario/scenario.h"

#ifndef CP_SCENARIOS_DIR
#define CP_SCENARIOS_DIR "scenarios"
#endif

const char *cli_scenarios_dir(void)
{
	const char *env = getenv("CACHEPRESSURE_SCENARIOS_DIR");

	return env && *env ? env : CP_SCENARIOS_DIR;
}

int cli_option(int argc, char **argv, int *i, const char *name, const char **value)
{
	const char *arg = argv[*i];
	size_t n = strlen(name);

	if (strncmp(arg, name, n) != 0)
		return 0;
	if (arg[n] == '=') {
		*value = arg + n + 1;
		return 1;
	}
	if (arg[n] != '\0')
		return 0;
	if (*i + 1 >= argc) {
		fprintf(stderr, "cachepressure %s: option %s needs a value\n", argv[0], name);
		return -1;
	}
	*value = argv[++*i];
	return 1;
}

/* A bare name is a built-in; anything with a '/' or ending in .ini is a
 * file. */
static bool is_path(const char *arg)
{
	size_t n = strlen(arg);

	return strchr(arg, '/') != NULL || (n >= 4 && strcmp(arg + n - 4, ".ini") == 0);
}

int cli_scenario_resolve(const struct cli_scenario_opts *o, struct cp_scenario **out)
{
	struct cp_scenario *sc = NULL;
	struct cp_diag diag = { "" };
	char *path = NULL;
	size_t i;
	int rc;

	if (is_path(o->scenario)) {
		rc = cp_scenario_load(o->scenario, &sc, &diag);
	} else {
		rc = cp_scenario_find_builtin(o->scenario, cli_scenarios_dir(), &path, &diag);
		if (rc == -CP_ENOENT) {
			fprintf(stderr, "cachepressure: %s; see 'cachepressure scenarios'\n", diag.msg);
			return CLI_EXIT_USAGE;
		}
		if (!rc)
			rc = cp_scenario_load(path, &sc, &diag);
		cp_free(path);
	}
	if (rc) {
		fprintf(stderr, "cachepressure: %s\n", diag.msg);
		return rc == -CP_ENOMEM ? CLI_EXIT_FAIL : CLI_EXIT_USAGE;
	}
	if (o->mem) {
		uint64_t mem;

		if (cp_parse_size(o->mem, &mem) || mem == 0) {
			fprintf(stderr, "cachepressure: --mem %s: not a memory size (e.g. 1G, 256M)\n",
				o->mem);
			cp_scenario_destroy(sc);
			return CLI_EXIT_USAGE;
		}
		rc = cp_scenario_scale(sc, mem, &diag);
		if (rc) {
			fprintf(stderr, "cachepressure: %s\n", diag.msg);
			cp_scenario_destroy(sc);
			return CLI_EXIT_USAGE;
		}
	}
	for (i = 0; i < o->nr_sets; i++) {
		rc = cp_scenario_set(sc, o->sets[i], &diag);
		if (rc) {
			fprintf(stderr, "cachepressure: %s\n", diag.msg);
			cp_scenario_destroy(sc);
			return rc == -CP_ENOMEM ? CLI_EXIT_FAIL : CLI_EXIT_USAGE;
		}
	}
	*out = sc;
	return CLI_EXIT_OK;
}

int cli_real_plan_resolve(const char *cmd, const struct cli_scenario_opts *o,
			  struct cp_real_plan *plan)
{
	struct cp_scenario *sc = NULL;
	struct cp_diag diag = { "" };
	int rc = cli_scenario_resolve(o, &sc);

	if (rc)
		return rc;
	rc = cp_real_plan_from_scenario(sc, plan, &diag);
	cp_scenario_destroy(sc);
	if (rc) {
		fprintf(stderr, "cachepressure %s: %s\n", cmd, diag.msg);
		return CLI_EXIT_USAGE;
	}
	return CLI_EXIT_OK;
}
