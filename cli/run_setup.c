/*
 * run_setup.c - options of `cachepressure run` and `compare`, resolved
 * into the inputs of one simulation (see run_setup.h).
 *
 * Order of resolution: the scenario (file, --mem, then the scenario
 * --set's in order), the kernel profile, the machine profile (file, then
 * the machine.* --set's in order, then, in global mode, RAM = the
 * scenario's RAM), the filesystem profile (file, then the fs.* --set's).
 * Every failure names the option or scenario key and the value it came
 * from.
 */
#include "run_setup.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cachepressure/error.h>

#include "core/alloc.h"
#include "core/parse.h"
#include "model/fs_profile_file.h"
#include "scenario/scenario.h"
#include "report/json.h"
#include "report/startfree.h"

#ifndef CP_PROFILES_DIR
#define CP_PROFILES_DIR "profiles"
#endif

const char *cli_profiles_dir(void)
{
	const char *env = getenv("CACHEPRESSURE_PROFILES_DIR");

	return env && *env ? env : CP_PROFILES_DIR;
}

static bool is_help(const char *arg)
{
	return strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0;
}

int cli_run_opts_parse(int argc, char **argv, bool allow_policy, struct cli_run_opts *o)
{
	/* Options that take a value, and where it goes. */
	const struct {
		const char *name;
		const char **dst;
	} valued[] = {
		{ "--kernel", &o->kernel },
		{ "--machine", &o->machine },
		{ "--fs", &o->fs },
		{ "--confine", &o->confine },
		{ "--mem", &o->so.mem },
		{ "--seed", &o->seed },
		{ "--vfs-cache-pressure", &o->vfs_cache_pressure },
		{ "--json", &o->json },
		{ "--csv", &o->csv },
		{ "--start-free", &o->start_free },
		{ "--policy", &o->policy },
	};
	const size_t nr_valued = sizeof(valued) / sizeof(valued[0]);
	int i;

	memset(o, 0, sizeof(*o));
	o->cmd = argv[0];
	/* every argument could be a --set: argc entries are enough */
	o->so.sets = cp_calloc((size_t)argc, sizeof(*o->so.sets));
	o->machine_sets = cp_calloc((size_t)argc, sizeof(*o->machine_sets));
	o->fs_sets = cp_calloc((size_t)argc, sizeof(*o->fs_sets));
	if (!o->so.sets || !o->machine_sets || !o->fs_sets) {
		fprintf(stderr, "cachepressure %s: out of memory\n", o->cmd);
		return CLI_EXIT_FAIL;
	}
	for (i = 1; i < argc; i++) {
		if (is_help(argv[i])) {
			o->help = true;
			return CLI_EXIT_OK;
		}
	}
	for (i = 1; i < argc; i++) {
		const char *arg = argv[i], *v;
		size_t k;
		int rc = 0;

		if (strcmp(arg, "--quiet") == 0 || strcmp(arg, "-q") == 0) {
			o->quiet = true;
			continue;
		}
		if ((rc = cli_option(argc, argv, &i, "--set", &v)) != 0) {
			if (rc < 0)
				return CLI_EXIT_USAGE;
			if (strncmp(v, CLI_MACHINE_SET_PREFIX, strlen(CLI_MACHINE_SET_PREFIX)) == 0)
				o->machine_sets[o->nr_machine_sets++] = v;
			else if (strncmp(v, CLI_FS_SET_PREFIX, strlen(CLI_FS_SET_PREFIX)) == 0)
				o->fs_sets[o->nr_fs_sets++] = v;
			else
				o->so.sets[o->so.nr_sets++] = v;
			continue;
		}
		for (k = 0; k < nr_valued; k++) {
			rc = cli_option(argc, argv, &i, valued[k].name, &v);
			if (rc)
				break;
		}
		if (rc < 0)
			return CLI_EXIT_USAGE;
		if (rc > 0) {
			if (valued[k].dst == &o->policy && !allow_policy) {
				fprintf(stderr, "cachepressure %s: unknown option '--policy' "
					"(%s runs every policy)\n", o->cmd, o->cmd);
				return CLI_EXIT_USAGE;
			}
			*valued[k].dst = v;
			continue;
		}
		if (arg[0] == '-' && arg[1] != '\0') {
			fprintf(stderr, "cachepressure %s: unknown option '%s'\n", o->cmd, arg);
			return CLI_EXIT_USAGE;
		}
		if (o->so.scenario) {
			fprintf(stderr, "cachepressure %s: unexpected argument '%s' (one SCENARIO only)\n",
				o->cmd, arg);
			return CLI_EXIT_USAGE;
		}
		o->so.scenario = arg;
	}
	if (!o->so.scenario) {
		fprintf(stderr, "cachepressure %s: missing SCENARIO\n", o->cmd);
		return CLI_EXIT_USAGE;
	}
	if (o->json && o->csv && strcmp(o->json, "-") == 0 && strcmp(o->csv, "-") == 0) {
		fprintf(stderr, "cachepressure %s: --json - and --csv -: only one can go to stdout\n",
			o->cmd);
		return CLI_EXIT_USAGE;
	}
	return CLI_EXIT_OK;
}

void cli_run_opts_release(struct cli_run_opts *o)
{
	cp_free(o->so.sets);
	cp_free(o->machine_sets);
	cp_free(o->fs_sets);
	o->so.sets = NULL;
	o->machine_sets = NULL;
	o->fs_sets = NULL;
}

/* "a, b, c" of the kernel profile names, for messages. */
static void kernel_names(char *buf, size_t len)
{
	size_t i, off = 0;

	buf[0] = '\0';
	for (i = 0; cp_kernel_profiles[i] && off < len; i++) {
		int n = snprintf(buf + off, len - off, "%s%s", i ? ", " : "",
				 cp_kernel_profiles[i]->name);

		if (n < 0)
			break;
		off += (size_t)n;
	}
}

/* Where a value came from, for messages: "--kernel X" or
 * "seed.ini: [scenario] kernel = X". */
static void origin(char *buf, size_t len, const char *option, const char *opt_value,
		   const struct cp_scenario *sc, const char *key, const char *value)
{
	if (opt_value)
		snprintf(buf, len, "%s %s", option, opt_value);
	else if (value && sc->source)
		snprintf(buf, len, "%s: [scenario] %s = %s", sc->source, key, value);
	else
		snprintf(buf, len, "%s %s (default)", option, value);
}

static int parse_scalars(const struct cli_run_opts *o, struct cli_run_setup *s)
{
	uint64_t v;

	s->policy = CLI_DEFAULT_POLICY;
	if (o->policy && cp_ref_policy_parse(o->policy, &s->policy)) {
		fprintf(stderr, "cachepressure %s: --policy %s: unknown policy (legacy, patched; "
			"see 'cachepressure policies')\n", o->cmd, o->policy);
		return CLI_EXIT_USAGE;
	}
	s->confine = CLI_DEFAULT_CONFINE;
	if (o->confine && cp_confine_parse(o->confine, &s->confine)) {
		fprintf(stderr, "cachepressure %s: --confine %s: unknown confinement "
			"(global or memcg)\n", o->cmd, o->confine);
		return CLI_EXIT_USAGE;
	}
	if (o->seed && cp_parse_count(o->seed, &s->seed)) {
		fprintf(stderr, "cachepressure %s: --seed %s: not a non-negative integer\n", o->cmd,
			o->seed);
		return CLI_EXIT_USAGE;
	}
	if (o->vfs_cache_pressure) {
		if (cp_parse_count(o->vfs_cache_pressure, &v) || v > INT_MAX) {
			fprintf(stderr, "cachepressure %s: --vfs-cache-pressure %s: not an integer "
				"from 1 to %d\n", o->cmd, o->vfs_cache_pressure, INT_MAX);
			return CLI_EXIT_USAGE;
		}
		if (v == 0) {
			/* SIMPLIFIED: the kernel's 0 (never reclaim dentries and
			 * inodes) is not a setting of the model. */
			fprintf(stderr, "cachepressure %s: --vfs-cache-pressure 0: not modelled "
				"(the kernel's 0 never reclaims dentries and inodes); use 1 or more\n",
				o->cmd);
			return CLI_EXIT_USAGE;
		}
		s->vfs_cache_pressure = (unsigned)v;
	}
	if (o->start_free) {
		struct cp_run_result *runs = NULL;
		struct cp_diag d = { "" };
		size_t n = 0, used;
		int rc = cp_report_json_read(o->start_free, &runs, &n, &d);

		if (rc) {
			fprintf(stderr, "cachepressure %s: --start-free %s: %s\n", o->cmd,
				o->start_free, d.msg[0] ? d.msg : cp_strerror(rc));
			return rc == -CP_ENOMEM ? CLI_EXIT_FAIL : CLI_EXIT_USAGE;
		}
		used = cp_start_free_from_runs(runs, n, &s->start_free);
		cp_report_runs_free(runs, n);
		if (!used) {
			fprintf(stderr, "cachepressure %s: --start-free %s: no run in it carries "
				"the start_free_* counters (a JSON of 'cachepressure real' or "
				"'validate')\n", o->cmd, o->start_free);
			return CLI_EXIT_USAGE;
		}
		s->has_start_free = true;
	}
	return CLI_EXIT_OK;
}

static int setup_kernel(const struct cli_run_opts *o, struct cli_run_setup *s)
{
	const char *name = o->kernel ? o->kernel : s->sc->kernel ? s->sc->kernel
								 : CLI_DEFAULT_KERNEL;
	char where[512], known[256];

	s->kernel = cp_kernel_profile_find(name);
	if (s->kernel)
		return CLI_EXIT_OK;
	origin(where, sizeof(where), "--kernel", o->kernel, s->sc, "kernel", s->sc->kernel);
	kernel_names(known, sizeof(known));
	fprintf(stderr, "cachepressure %s: %s: unknown kernel profile (known: %s)\n", o->cmd,
		where, known);
	return CLI_EXIT_USAGE;
}

/* --set "machine.SECTION.KEY=VALUE" (machine) -> cp_machine_set(&s->machine,
 * "SECTION.KEY", "VALUE"); "fs.SECTION.KEY=VALUE" -> cp_fs_profile_set(&s->fs,
 * &s->fs_costs, "SECTION.KEY", "VALUE"). */
static int apply_set(const struct cli_run_opts *o, struct cli_run_setup *s, const char *set,
		     bool machine)
{
	const char *prefix = machine ? CLI_MACHINE_SET_PREFIX : CLI_FS_SET_PREFIX;
	const char *key = set + strlen(prefix);
	const char *eq = strchr(key, '=');
	struct cp_diag diag = { "" };
	char section_key[128];
	size_t n;
	int rc;

	if (!eq || eq == key || (n = (size_t)(eq - key)) >= sizeof(section_key)) {
		fprintf(stderr, "cachepressure %s: --set %s: expected %sSECTION.KEY=VALUE "
			"(e.g. %s)\n", o->cmd, set, prefix,
			machine ? "machine.cpu.copy_bandwidth=8G" : "fs.create.create_cpu_ns=30000");
		return CLI_EXIT_USAGE;
	}
	memcpy(section_key, key, n);
	section_key[n] = '\0';
	if (machine)
		rc = cp_machine_set(&s->machine, section_key, eq + 1, &diag);
	else
		rc = cp_fs_profile_set(&s->fs, &s->fs_costs, section_key, eq + 1, &diag);
	if (rc) {
		fprintf(stderr, "cachepressure %s: --set %s: %s\n", o->cmd, set, diag.msg);
		return rc == -CP_ENOMEM ? CLI_EXIT_FAIL : CLI_EXIT_USAGE;
	}
	return CLI_EXIT_OK;
}

/* Applies the --set arguments sets[0..nr) in order; stops at the first bad
 * one. */
static int apply_sets(const struct cli_run_opts *o, struct cli_run_setup *s,
		      const char **sets, size_t nr, bool machine)
{
	size_t i;
	int rc;

	for (i = 0; i < nr; i++) {
		rc = apply_set(o, s, sets[i], machine);
		if (rc)
			return rc;
	}
	return CLI_EXIT_OK;
}

static int setup_machine(const struct cli_run_opts *o, struct cli_run_setup *s)
{
	const char *name = o->machine ? o->machine : s->sc->machine ? s->sc->machine
								    : CLI_DEFAULT_MACHINE;
	struct cp_diag diag = { "" };
	char where[512];
	int rc;

	rc = cp_machine_load_named(name, cli_profiles_dir(), &s->machine, &diag);
	if (rc) {
		origin(where, sizeof(where), "--machine", o->machine, s->sc, "machine",
		       s->sc->machine);
		fprintf(stderr, "cachepressure %s: %s: %s\n", o->cmd, where, diag.msg);
		return rc == -CP_EIO || rc == -CP_ENOMEM ? CLI_EXIT_FAIL : CLI_EXIT_USAGE;
	}
	rc = apply_sets(o, s, o->machine_sets, o->nr_machine_sets, true);
	if (rc)
		return rc;
	/* Global reclaim runs the machine at the scenario's RAM (after --mem):
	 * the sim scales the reserve and process memory with it (cp_sim_run). */
	return CLI_EXIT_OK;
}

static int setup_fs(const struct cli_run_opts *o, struct cli_run_setup *s)
{
	const char *name = o->fs ? o->fs : s->sc->fs ? s->sc->fs : CLI_DEFAULT_FS;
	struct cp_diag diag = { "" };
	char where[512];
	int rc;

	rc = cp_fs_profile_load_named(name, cli_profiles_dir(), &s->fs, &s->fs_costs, &diag);
	if (rc) {
		origin(where, sizeof(where), "--fs", o->fs, s->sc, "fs", s->sc->fs);
		fprintf(stderr, "cachepressure %s: %s: %s\n", o->cmd, where, diag.msg);
		return rc == -CP_EIO || rc == -CP_ENOMEM ? CLI_EXIT_FAIL : CLI_EXIT_USAGE;
	}
	return apply_sets(o, s, o->fs_sets, o->nr_fs_sets, false);
}

int cli_run_setup(const struct cli_run_opts *o, struct cli_run_setup *s)
{
	int rc;

	memset(s, 0, sizeof(*s));
	rc = parse_scalars(o, s);
	if (rc)
		return rc;
	rc = cli_scenario_resolve(&o->so, &s->sc);
	if (rc) {
		s->sc = NULL;
		return rc;
	}
	if (!o->seed)
		s->seed = s->sc->seed;
	rc = setup_kernel(o, s);
	if (!rc)
		rc = setup_machine(o, s);
	if (!rc)
		rc = setup_fs(o, s);
	if (rc) {
		cli_run_setup_release(s);
		return rc;
	}
	return CLI_EXIT_OK;
}

void cli_run_setup_release(struct cli_run_setup *s)
{
	cp_scenario_destroy(s->sc);
	s->sc = NULL;
}

void cli_run_config(const struct cli_run_setup *s, enum cp_ref_policy policy,
		    struct cp_sim_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->scenario = s->sc;
	cfg->machine = &s->machine;
	cfg->kernel = s->kernel;
	cfg->fs = &s->fs;
	cfg->fs_costs = s->fs_costs;
	cfg->policy = policy;
	cfg->confine = s->confine;
	cfg->seed = s->seed;
	cfg->vfs_cache_pressure = s->vfs_cache_pressure;
	cfg->vfs_cache_pressure_denom = 0;
	cfg->start_free = s->has_start_free ? &s->start_free : NULL;
	/* a real run's start: the model stands for the harness */
	cfg->size_is_available = s->has_start_free;
}
