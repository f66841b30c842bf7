/*
 * cmd_scenario.c - `cachepressure scenarios` (list the built-ins) and
 * `cachepressure show SCENARIO` (print a scenario resolved: defaults
 * filled in, --mem and --set applied).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cachepressure/error.h>

#include "cli.h"
#include "core/alloc.h"
#include "scenario/scenario.h"

static void scenarios_usage(FILE *out)
{
	fprintf(out,
		"Usage: cachepressure scenarios\n"
		"\n"
		"Lists the built-in scenarios, one per line: name, then description.\n"
		"They are the files %s/NAME.ini\n"
		"(set CACHEPRESSURE_SCENARIOS_DIR to use another directory).\n"
		"\n"
		"Options:\n"
		"  -h, --help  show this help\n",
		cli_scenarios_dir());
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Names of the .ini files in dir (without .ini), sorted. */
static int list_names(const char *dir, char ***names, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **v = NULL;
	size_t nr = 0;

	if (!d) {
		fprintf(stderr, "cachepressure scenarios: cannot read %s: %s\n", dir, strerror(errno));
		return CLI_EXIT_FAIL;
	}
	while ((e = readdir(d)) != NULL) {
		size_t len = strlen(e->d_name);
		char **nv;

		if (len <= 4 || strcmp(e->d_name + len - 4, ".ini") != 0 || e->d_name[0] == '.')
			continue;
		nv = cp_realloc(v, (nr + 1) * sizeof(*v));
		if (!nv || !(nv[nr] = cp_strdup(e->d_name))) {
			v = nv ? nv : v;
			while (nr)
				cp_free(v[--nr]);
			cp_free(v);
			closedir(d);
			fprintf(stderr, "cachepressure scenarios: out of memory\n");
			return CLI_EXIT_FAIL;
		}
		nv[nr][len - 4] = '\0';
		v = nv;
		nr++;
	}
	closedir(d);
	if (nr)
		qsort(v, nr, sizeof(*v), cmp_str);
	*names = v;
	*n = nr;
	return CLI_EXIT_OK;
}

int cli_cmd_scenarios(int argc, char **argv)
{
	const char *dir = cli_scenarios_dir();
	char **names = NULL;
	size_t n = 0, i;
	int rc, ret = CLI_EXIT_OK;

	if (argc > 1) {
		if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
			scenarios_usage(stdout);
			return CLI_EXIT_OK;
		}
		fprintf(stderr, "cachepressure scenarios: unexpected argument '%s'\n", argv[1]);
		scenarios_usage(stderr);
		return CLI_EXIT_USAGE;
	}
	rc = list_names(dir, &names, &n);
	if (rc)
		return rc;
	for (i = 0; i < n; i++) {
		struct cli_scenario_opts o = { names[i], NULL, NULL, 0 };
		struct cp_scenario *sc;

		rc = cli_scenario_resolve(&o, &sc);
		if (rc) {
			ret = rc;
			continue;
		}
		printf("%-16s %s\n", names[i], sc->description);
		cp_scenario_destroy(sc);
	}
	for (i = 0; i < n; i++)
		cp_free(names[i]);
	cp_free(names);
	if (fflush(stdout) != 0)
		return CLI_EXIT_FAIL;
	return ret;
}

static void show_usage(FILE *out)
{
	fprintf(out,
		"Usage: cachepressure show SCENARIO [--mem SIZE] [--set SECTION.KEY=VALUE]...\n"
		"\n"
		"Prints SCENARIO resolved, as INI: every key with its value (defaults\n"
		"filled in), sections and keys sorted, sizes in exact units. The output\n"
		"is itself a scenario file.\n"
		"\n"
		"SCENARIO is a built-in name (see 'cachepressure scenarios') or a path to\n"
		"an .ini file.\n"
		"\n"
		"Options:\n"
		"  --mem SIZE        scale the scenario to SIZE of RAM: file sizes and\n"
		"                    fs_mark files per loop times SIZE/ram (rounded down)\n"
		"  --set S.KEY=VAL   override one key after --mem, e.g. --set scenario.seed=7,\n"
		"                    --set reader.file1.read_size=2M, --set 'reader.*.start=1s'\n"
		"  --keys            list every section and key of a scenario file, then exit\n"
		"  -h, --help        show this help\n"
		"\n"
		"Sizes are bytes with a unit (6500M, 16G) or a share of ram (39.67%%).\n");
}

int cli_cmd_show(int argc, char **argv)
{
	struct cli_scenario_opts o = { NULL, NULL, NULL, 0 };
	struct cp_scenario *sc;
	const char **sets;
	int i, rc;

	sets = cp_calloc((size_t)argc, sizeof(*sets));
	if (!sets) {
		fprintf(stderr, "cachepressure show: out of memory\n");
		return CLI_EXIT_FAIL;
	}
	o.sets = sets;
	for (i = 1; i < argc; i++) {
		const char *v;

		if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			show_usage(stdout);
			cp_free(sets);
			return CLI_EXIT_OK;
		}
		if (strcmp(argv[i], "--keys") == 0) {
			cp_free(sets);
			return cp_scenario_print_keys(stdout) ? CLI_EXIT_FAIL : CLI_EXIT_OK;
		}
		if ((rc = cli_option(argc, argv, &i, "--mem", &v)) != 0) {
			if (rc < 0)
				goto usage;
			o.mem = v;
		} else if ((rc = cli_option(argc, argv, &i, "--set", &v)) != 0) {
			if (rc < 0)
				goto usage;
			sets[o.nr_sets++] = v;
		} else if (argv[i][0] == '-' && argv[i][1] != '\0') {
			fprintf(stderr, "cachepressure show: unknown option '%s'\n", argv[i]);
			goto usage;
		} else if (o.scenario) {
			fprintf(stderr, "cachepressure show: unexpected argument '%s' "
				"(one SCENARIO only)\n", argv[i]);
			goto usage;
		} else {
			o.scenario = argv[i];
		}
	}
	if (!o.scenario) {
		fprintf(stderr, "cachepressure show: missing SCENARIO\n");
		goto usage;
	}
	rc = cli_scenario_resolve(&o, &sc);
	cp_free(sets);
	if (rc)
		return rc;
	rc = cp_scenario_print(stdout, sc);
	cp_scenario_destroy(sc);
	if (rc) {
		fprintf(stderr, "cachepressure show: cannot write the output\n");
		return CLI_EXIT_FAIL;
	}
	return CLI_EXIT_OK;
usage:
	cp_free(sets);
	show_usage(stderr);
	return CLI_EXIT_USAGE;
}
