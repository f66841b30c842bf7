/*
 * cmd_validate.c - `cachepressure validate`: the model against the live
 * kernel on the same scaled scenario.
 *
 * Runs the real harness N times (cmd_real.c's session: every refusal
 * before anything is touched) and the model (once first, then --seeds
 * times from each real run's start, or at five reader phases), with the
 * patched REFERENCED policy (the running kernel has the commit) and the
 * kernel profile that matches `uname -r`, then prints the table of
 * src/report/validate.c and, with --json, both sides' runs and the
 * table. Exit codes as `real`: 0 ok, 1 a run failed or an I/O error,
 * 2 usage, not root, or a refused work directory.
 */
#include <cachepressure/error.h>
#include <cachepressure/result.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "cli.h"
#include "core/parse.h"
#include "opts.h"
#include "plan.h"
#include "proc.h"
#include "real_out.h"
#include "report/cachedrate.h"
#include "report/json.h"
#include "report/report.h"
#include "report/validate.h"
#include "run.h"
#include "run_setup.h"
#include "report/runslabs.h"
#include "report/startfree.h"
#include "report/stats.h"
#include "scenario/scenario.h"
#include "sig.h"
#include "sim/sim.h"

#define DEFAULT_REPEAT "3"
/* Model runs from each real run's start (--seeds): the model is chaotic
 * in the readers' phase (the seed; docs/real.md "The model's runs in
 * validate"), so one run a real run leaves the table's model with much of
 * that spread. */
#define DEFAULT_SEEDS 4

static const char default_repeat[] = DEFAULT_REPEAT; /* identity: --repeat given? */

struct validate_opts {
	const char *scenario, *mem, *confine, *repeat, *kernel, *machine, *json, *workdir;
	const char *real; /* --real FILE: the real runs of an earlier validate */
	const char *seeds_arg;
	unsigned seeds;   /* --seeds N: model runs from each real run's start */
	/* --set SECTION.KEY=VALUE: scenario keys, both sides (argc entries) */
	const char **sets;
	size_t nr_sets;
	bool profile_rates; /* --profile-rates: the profile's copy rates, not the runs' */
};

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: cachepressure validate SCENARIO --mem SIZE [--confine global|memcg]\n"
		"                              [--repeat N] [--seeds N] [--kernel PROFILE]\n"
		"                              [--machine NAME|FILE] [--workdir DIR]\n"
		"                              [--real FILE] [--profile-rates] [--json FILE]\n"
		"                              [--set SECTION.KEY=VALUE]...\n"
		"\n"
		"Runs SCENARIO, scaled to SIZE, N times on the live kernel (as\n"
		"'cachepressure real', as root) and in the model, with the patched\n"
		"REFERENCED policy (the running kernel has the commit), and prints one\n"
		"table: per reader (bytes re-read), their total per second of fs_mark's\n"
		"run, and for the reclaim counters both sides\n"
		"report, the real mean, min, max and sd, the model's value, and the model's\n"
		"error (model - mean) in real standard deviations and in percent of the mean.\n"
		"When the real runs measured their free memory after the balloon\n"
		"(/proc/pagetypeinfo; see run --start-free), the model runs --seeds times\n"
		"from each run's own (model run m, from 1, with seed m: real run 1's\n"
		"first, then real run 2's, ...) and the table's model is their mean; a\n"
		"line gives each run's total. Else it runs once, at seed 1, and at four\n"
		"more reader phases (seeds 2-5) for a line with its total's spread. It\n"
		"holds the running kernel's slab objects (the dentry, inode and log item\n"
		"caches as the real runs read them from /proc/slabinfo); its readers\n"
		"start at a random phase within one cached pass (random_phase, from the\n"
		"seed), as real readers drift apart. Its copy rates are the ones each\n"
		"real run measured itself: its readers' cached passes before fs_mark\n"
		"started (the median pass, both readers copying side by side, as\n"
		"'calibrate' times memory_bandwidth) set memory_bandwidth (that rate\n"
		"times the readers) and copy_bandwidth (at least that rate); a line\n"
		"gives each run's rate.\n"
		"\n"
		"Options:\n"
		"  --mem SIZE            memory the experiment gets (e.g. 256M, 1G, 2G)\n"
		"  --confine MODE        global (default) or memcg, as for real and run\n"
		"  --repeat N            real runs (default %s); a run whose world could not\n"
		"                        be built is tried again (2 N attempts at most;\n"
		"                        exit status 1)\n"
		"  --seeds N             model runs from each real run's start, at seeds\n"
		"                        one after another (default %d): the model is\n"
		"                        chaotic in its readers' phase, and the mean of\n"
		"                        more runs is steadier; N times the real runs at\n"
		"                        most %d. No effect when the real runs recorded\n"
		"                        no start (the model then runs at seeds 1-5)\n"
		"  --kernel PROFILE      kernel profile of the model (default: the one that\n"
		"                        matches uname -r: 6.16+ linux-6.x, 4.16-6.15\n"
		"                        linux-6.1, older linux-4.11)\n"
		"  --machine NAME|FILE   machine profile of the model, e.g. the one\n"
		"                        'cachepressure calibrate' wrote (default: the\n"
		"                        scenario's machine)\n"
		"  --workdir DIR         work directory of the real runs (default %s)\n"
		"  --real FILE           run no real experiment: take the real runs from FILE,\n"
		"                        the JSON of an earlier 'validate' (or 'real') of\n"
		"                        the same SCENARIO, --mem and --confine, and run\n"
		"                        the model against them (no root needed; the\n"
		"                        kernel profile matches the kernel they ran on)\n"
		"  --profile-rates       the machine profile's copy_bandwidth and\n"
		"                        memory_bandwidth as they are, not the rate the\n"
		"                        real runs' readers measured\n"
		"  --set S.KEY=VALUE     override a scenario key after --mem, on both sides\n"
		"                        (repeatable; as for real and run): e.g. --set\n"
		"                        file.file1.size=100M. Scenario keys only: the real\n"
		"                        runs have no machine or filesystem profile. With\n"
		"                        --real FILE the model alone takes them: give the\n"
		"                        ones the real runs had\n"
		"  --json FILE           write the model's runs, the real runs and the table as\n"
		"                        JSON ('-' for stdout); the real runs go there as\n"
		"                        soon as they are done, so a model that fails keeps them\n"
		"  -h, --help            this help\n"
		"\n"
		"Exit status: 0 done; 1 a run failed (real or model) or an output could not\n"
		"be written; 2 bad arguments, not root, a refused work directory, or a\n"
		"--real FILE that is unreadable or holds other runs.\n"
		"See cachepressure(1).\n",
		DEFAULT_REPEAT, DEFAULT_SEEDS, CP_VALIDATE_MAX_RUNS, CP_REAL_DEFAULT_WORKDIR);
}

/* Returns CLI_EXIT_OK, CLI_EXIT_USAGE (message printed) or -1 for --help. */
static int parse(int argc, char **argv, struct validate_opts *o)
{
	struct {
		const char *name;
		const char **dst;
	} valued[] = {
		{ "--mem", &o->mem },	      { "--confine", &o->confine },
		{ "--repeat", &o->repeat },   { "--kernel", &o->kernel },
		{ "--machine", &o->machine }, { "--json", &o->json },
		{ "--workdir", &o->workdir }, { "--real", &o->real },
		{ "--seeds", &o->seeds_arg },
	};
	int i;

	memset(o, 0, sizeof(*o));
	o->confine = "global";
	o->repeat = default_repeat;
	for (i = 1; i < argc; i++)
		if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0)
			return -1;
	/* every argument could be a --set: argc entries are enough */
	o->sets = calloc((size_t)argc, sizeof(*o->sets));
	if (!o->sets) {
		fprintf(stderr, "cachepressure validate: out of memory\n");
		return CLI_EXIT_FAIL;
	}
	for (i = 1; i < argc; i++) {
		const char *v;
		size_t k;
		int rc = 0;

		if ((rc = cli_option(argc, argv, &i, "--set", &v)) != 0) {
			if (rc < 0)
				return CLI_EXIT_USAGE;
			if (strncmp(v, CLI_MACHINE_SET_PREFIX, strlen(CLI_MACHINE_SET_PREFIX)) == 0 ||
			    strncmp(v, CLI_FS_SET_PREFIX, strlen(CLI_FS_SET_PREFIX)) == 0) {
				fprintf(stderr, "cachepressure validate: --set %s: scenario keys only "
					"(the real runs have no machine or filesystem profile to "
					"override; give the model's with --machine)\n", v);
				return CLI_EXIT_USAGE;
			}
			o->sets[o->nr_sets++] = v;
			continue;
		}

		for (k = 0; k < sizeof(valued) / sizeof(valued[0]); k++)
			if ((rc = cli_option(argc, argv, &i, valued[k].name, &v)) != 0)
				break;
		if (rc < 0)
			return CLI_EXIT_USAGE;
		if (rc > 0) {
			*valued[k].dst = v;
			continue;
		}
		if (strcmp(argv[i], "--profile-rates") == 0) {
			o->profile_rates = true;
			continue;
		}
		if (argv[i][0] == '-' && argv[i][1] != '\0') {
			fprintf(stderr, "cachepressure validate: unknown option '%s'\n", argv[i]);
			return CLI_EXIT_USAGE;
		}
		if (o->scenario) {
			fprintf(stderr, "cachepressure validate: unexpected argument '%s' "
				"(one SCENARIO only)\n", argv[i]);
			return CLI_EXIT_USAGE;
		}
		o->scenario = argv[i];
	}
	if (!o->scenario) {
		fprintf(stderr, "cachepressure validate: missing SCENARIO\n");
		return CLI_EXIT_USAGE;
	}
	if (!o->mem) {
		fprintf(stderr, "cachepressure validate: --mem SIZE is required\n");
		return CLI_EXIT_USAGE;
	}
	o->seeds = DEFAULT_SEEDS;
	if (o->seeds_arg) {
		uint64_t n;

		if (cp_parse_count(o->seeds_arg, &n) || n < 1 || n > CP_VALIDATE_MAX_RUNS) {
			fprintf(stderr, "cachepressure validate: --seeds '%s': must be a count from "
				"1 to %d\n", o->seeds_arg, CP_VALIDATE_MAX_RUNS);
			return CLI_EXIT_USAGE;
		}
		o->seeds = (unsigned)n;
	}
	if (o->real && (o->workdir || o->repeat != default_repeat)) {
		fprintf(stderr, "cachepressure validate: --real %s runs nothing on the kernel: "
			"--repeat and --workdir do not apply\n", o->real);
		return CLI_EXIT_USAGE;
	}
	return CLI_EXIT_OK;
}

/* vm.vfs_cache_pressure of the running kernel, as text, or NULL when it
 * is the default 100 or unreadable. */
static const char *live_vfs_cache_pressure(char *buf, size_t len)
{
	FILE *fp = fopen("/proc/sys/vm/vfs_cache_pressure", "r");
	char *nl;

	if (!fp)
		return NULL;
	if (!fgets(buf, (int)len, fp)) {
		fclose(fp);
		return NULL;
	}
	fclose(fp);
	if ((nl = strchr(buf, '\n')))
		*nl = '\0';
	return strcmp(buf, "100") == 0 || !*buf ? NULL : buf;
}

/* The model's setup, through run_setup.c as `run` would get it. */
static int model_setup(const struct validate_opts *vo, const char *kernel, const char *vcp,
		       struct cli_run_opts *ro, struct cli_run_setup *s)
{
	char **argv = calloc(16 + 2 * vo->nr_sets, sizeof(*argv));
	int argc = 0, rc;
	size_t k;

	if (!argv) {
		fprintf(stderr, "cachepressure validate: out of memory\n");
		return CLI_EXIT_FAIL;
	}
	argv[argc++] = "validate";
	argv[argc++] = (char *)vo->scenario;
	argv[argc++] = "--mem";
	argv[argc++] = (char *)vo->mem;
	argv[argc++] = "--confine";
	argv[argc++] = (char *)vo->confine;
	/* the user's first: the random phase below is validate's own */
	for (k = 0; k < vo->nr_sets; k++) {
		argv[argc++] = "--set";
		argv[argc++] = (char *)vo->sets[k];
	}
	argv[argc++] = "--kernel";
	argv[argc++] = (char *)kernel;
	argv[argc++] = "--policy";
	argv[argc++] = "patched";
	/* the real readers drift apart; the model's would stay in lockstep */
	argv[argc++] = "--set";
	argv[argc++] = "reader.*.random_phase=yes";
	if (vo->machine) {
		argv[argc++] = "--machine";
		argv[argc++] = (char *)vo->machine;
	}
	if (vcp) {
		argv[argc++] = "--vfs-cache-pressure";
		argv[argc++] = (char *)vcp;
	}
	argv[argc] = NULL;
	rc = cli_run_opts_parse(argc, argv, true, ro);
	if (!rc)
		rc = cli_run_setup(ro, s);
	cli_run_opts_release(ro);
	free(argv);
	return rc;
}

static int real_setup(const struct validate_opts *vo, struct cp_real_opts *opts,
		      struct cp_real_plan *plan)
{
	struct cp_diag diag = { "" };
	char *argv[16];
	int argc = 0, rc;

	argv[argc++] = "validate";
	argv[argc++] = (char *)vo->scenario;
	argv[argc++] = "--mem";
	argv[argc++] = (char *)vo->mem;
	argv[argc++] = "--confine";
	argv[argc++] = (char *)vo->confine;
	argv[argc++] = "--repeat";
	argv[argc++] = (char *)vo->repeat;
	if (vo->workdir) {
		argv[argc++] = "--workdir";
		argv[argc++] = (char *)vo->workdir;
	}
	argv[argc] = NULL;
	rc = cp_real_opts_parse(argc, argv, opts, &diag);
	if (rc) {
		fprintf(stderr, "cachepressure validate: %s (try 'cachepressure validate --help')\n",
			diag.msg);
		return CLI_EXIT_USAGE;
	}
	{
		struct cli_scenario_opts so = { vo->scenario, vo->mem, vo->sets, vo->nr_sets };

		rc = cli_real_plan_resolve("validate", &so, plan);
		if (rc)
			return rc;
	}
	opts->fs = plan->fs;
	return CLI_EXIT_OK;
}

/* The model runs' cancel question: a stop signal (SIGINT, SIGTERM,
 * SIGHUP) since the handlers went in. */
static int stop_signalled(void *priv)
{
	(void)priv;
	return cp_real_interrupted();
}

static void on_progress(void *arg, const char *msg)
{
	const uint64_t *start_ns = arg;

	fprintf(stderr, "cachepressure validate: [%6.1fs] %s\n",
		(double)(cp_proc_now_ns() - *start_ns) / 1e9, msg);
}

/* Is the --json file writable? Checked before the long runs. */
static int json_check(const char *path)
{
	FILE *fp;

	if (!path || strcmp(path, "-") == 0)
		return CLI_EXIT_OK;
	fp = fopen(path, "a");
	if (!fp) {
		fprintf(stderr, "cachepressure validate: --json %s: cannot write: %s\n", path,
			strerror(errno));
		return CLI_EXIT_FAIL;
	}
	fclose(fp);
	return CLI_EXIT_OK;
}

/* Reader phases the model is run at besides the table's (seed 1): the
 * model is chaotic in them (docs/fidelity.md "Session 9 grid"). */
#define VALIDATE_PHASE_SEEDS 5
_Static_assert(VALIDATE_PHASE_SEEDS <= CP_VALIDATE_MAX_RUNS, "phases beyond the table's arrays");

/* What the report's header says besides the table. */
struct report_head {
	const char *scenario, *confine, *fs_name;
	uint64_t mem_bytes;
	unsigned nr_real, nr_setup_failed;
	const char *real_kernel;        /* the kernel the real runs ran on */
	const char *kernel, *kernel_why, *release, *machine_name, *vcp;
	size_t nr_start;                /* real runs the model's start layout came from */
	bool start_has_zones;
	bool start_has_pageblocks;
	uint64_t model_ra_kb;           /* the machine profile's read_ahead_kb */
	uint64_t seed;                  /* the model's PRNG seed (reader phases) */
	/* the model ran seeds times from each real run's own start layout
	 * (run m: seed + m, real run m / seeds of those that did not fail);
	 * the table's model is their mean, the phases theirs */
	bool paired;
	unsigned seeds;
	/* the model's total bytes re-read for seeds seed .. seed + n - 1 (n:
	 * VALIDATE_PHASE_SEEDS, or seeds per real run when paired) */
	int64_t phase_totals[CP_VALIDATE_MAX_RUNS];
	int64_t phase_sb_freed[CP_VALIDATE_MAX_RUNS]; /* cp_sb_objects_freed, the same seeds */
	unsigned phase_real[CP_VALIDATE_MAX_RUNS]; /* paired: the real run's index, from 0 */
	size_t nr_phase;
	struct cp_run_slabs slabs;      /* the slab geometry the real runs recorded */
	struct cp_fs_profile fs_file;   /* the fs profile as its file gave it */
	const struct cp_fs_profile *fs_model; /* what the model ran with */
	/* the copy rates (run_rates()): false with --profile-rates */
	bool rates_from_runs;
	uint64_t profile_copy_bps, profile_memory_bps;
	/* the machine profile, for how the model shares the CPUs */
	const struct cp_machine *machine;
	uint64_t pooled_bps;            /* over all real runs (0: none measured) */
	uint64_t run_bps[CP_VALIDATE_MAX_RUNS]; /* each real run's own (0: none) */
	unsigned nr_run_bps;
};

/* "dentry 192 B x 21 in 1 page, xfs_inode 1024 B x 16 in 4 pages, ..." */
static void format_caches(const struct cp_fs_profile *p, char *buf, size_t len)
{
	size_t at = 0;
	int role;

	buf[0] = '\0';
	for (role = 0; role < CP_FS_NR_SLABS && at < len; role++) {
		const struct cp_slab_geometry *g = cp_fs_profile_slab(p, role);
		unsigned pages = 1u << g->order;

		if (!g->objects_per_slab)
			continue; /* ext4: no log item */
		at += (size_t)snprintf(buf + at, len - at, "%s%s %u B x %u in %u page%s",
				       at ? ", " : "", g->name, (unsigned)g->object_size,
				       (unsigned)g->objects_per_slab, pages, pages == 1 ? "" : "s");
	}
}

/*
 * Which slab objects the model had: the real runs' /proc/slabinfo (the
 * running kernel's) or, when they recorded none, the fs profile's; the
 * profile's too, with a warning, for a cache the runs disagree on.
 */
static void print_slabs(const struct report_head *h)
{
	char model[256], file[256];

	format_caches(h->fs_model, model, sizeof(model));
	format_caches(&h->fs_file, file, sizeof(file));
	if (!h->slabs.nr_runs) {
		printf("# slab: the fs profile's %s (the real runs recorded no /proc/slabinfo)\n",
		       model);
		return;
	}
	printf("# slab: %s, as the real runs' /proc/slabinfo gave them (fs profile %s: %s)\n",
	       model, h->fs_file.name, file);
	if (h->slabs.disagree) {
		printf("# WARNING: the real runs' /proc/slabinfo differ between runs; the fs "
		       "profile's geometry kept for the caches they differ on\n");
		fprintf(stderr, "cachepressure validate: warning: the real runs recorded different "
			"slab geometry; the fs profile's kept where they differ\n");
	}
}

/*
 * Gives the model's fs profile (ms->fs, which the model's config points
 * at) the slab geometry the real runs recorded, and fills h's slab
 * fields. Returns CLI_EXIT_OK or, for geometry the model cannot take,
 * bad_exit with the message printed (where names the runs' origin).
 */
static int model_slabs(struct cli_run_setup *ms, const struct cp_run_result *runs, size_t n,
		       struct report_head *h, const char *where, int bad_exit)
{
	struct cp_diag diag = { "" };

	h->fs_file = ms->fs;
	h->fs_model = &ms->fs;
	cp_run_slabs_from_runs(runs, n, &h->slabs);
	if (cp_run_slabs_apply(&h->slabs, &ms->fs, &diag)) {
		fprintf(stderr, "cachepressure validate: %sthe real runs' /proc/slabinfo: %s\n",
			where, diag.msg);
		return bad_exit;
	}
	return CLI_EXIT_OK;
}

/* One reader phase's figures for the spread lines. */
static void record_phase(struct report_head *h, const struct cp_run_result *r)
{
	h->phase_sb_freed[h->nr_phase] = cp_run_result_counter(r, "cp_sb_objects_freed", 0);
	h->phase_totals[h->nr_phase++] = cp_validate_total_bytes(r);
}

/*
 * The model again at the next VALIDATE_PHASE_SEEDS - 1 seeds (other
 * reader phases; everything else as the table's run), for the spread
 * line: h->phase_totals[0] is the table's model. A run that fails is
 * left out. cfg->seed is restored.
 */
static void model_phase_spread(struct cp_sim_config *cfg, const struct cp_run_result *model,
			       struct report_head *h)
{
	uint64_t seed = cfg->seed;
	unsigned k;

	h->nr_phase = 0;
	if (model->failed)
		return;
	record_phase(h, model);
	fprintf(stderr, "cachepressure validate: model at %d more reader phases (seeds "
		"%" PRIu64 "..%" PRIu64 ")\n", VALIDATE_PHASE_SEEDS - 1, seed + 1,
		seed + VALIDATE_PHASE_SEEDS - 1);
	for (k = 1; k < VALIDATE_PHASE_SEEDS; k++) {
		struct cp_diag diag = { "" };
		struct cp_run_result r;

		cp_run_result_init(&r);
		cfg->seed = seed + k;
		if (cp_sim_run(cfg, &r, &diag) == 0 && !r.failed)
			record_phase(h, &r);
		cp_run_result_release(&r);
	}
	cfg->seed = seed;
}

/* The paired model runs of *paired[0..m) released and the array freed. */
static void free_paired(struct cp_run_result **paired, size_t m)
{
	size_t k;

	for (k = 0; *paired && k < m; k++)
		cp_run_result_release(&(*paired)[k]);
	free(*paired);
	*paired = NULL;
}

/* The model runs of the paired mode for nr_ok real runs, seeds each;
 * 0 (message printed, exit 2) when there would be too many. real_file:
 * the --real FILE they come from, NULL for --repeat. */
static size_t paired_count(size_t nr_ok, unsigned seeds, const char *real_file)
{
	size_t total = 0;

	if (cp_validate_paired_runs(nr_ok, seeds, &total) == 0)
		return total;
	fprintf(stderr, "cachepressure validate: --seeds %u with %zu real runs (%s%s): %zu model "
		"runs, at most %d (give --seeds %zu or fewer)\n", seeds, nr_ok,
		real_file ? "--real " : "--repeat", real_file ? real_file : "", total,
		CP_VALIDATE_MAX_RUNS, nr_ok ? CP_VALIDATE_MAX_RUNS / nr_ok : 0);
	return 0;
}

/*
 * The model seeds times from each real run's own start (the free memory
 * and pageblocks the real run measured after its balloon), when every
 * real run that did not fail recorded them: model run m (from 0; real
 * run 0's seeds runs first, then real run 1's, ...) at seed + m, so
 * seeds 1 gives run k seed + k. *model becomes their mean
 * (cp_validate_model_mean), h's phases their totals. The runs' layouts
 * differ much (at global 1G on grid s24, DMA32's free MOVABLE pages 112 K
 * to 189 K), and a run's set-up answers its layout far from linearly
 * (claims, boosts, kswapd and compaction, or none of them): the mean
 * layout is a start none of the runs had (docs/fidelity.md, session 24).
 * And the model is chaotic in its readers' phase (the seed): one run
 * from each start leaves the mean with much of that spread.
 * The runs stay in *paired (heap) for the JSON (release_paired()).
 * Returns the number of model runs (0: some real run recorded no layout;
 * nothing done), or -1 with the message printed (too many runs for
 * CP_VALIDATE_MAX_RUNS: nothing run, exit 2). real_file: the --real FILE
 * the runs came from, for that message (NULL: --repeat).
 */
/*
 * The machine the model runs with against runs[0..n): the profile, its
 * copy rates replaced by the one the runs' readers measured before
 * fs_mark started (report/cachedrate.c) unless --profile-rates. That
 * rate is each reader's with all of them copying side by side, so
 * memory_bandwidth (the rate of all CPUs together, as `calibrate` times
 * it) is the rate times the readers, and copy_bandwidth (one copy alone)
 * is at least the rate. Only when the readers fit on the CPUs, as in
 * the calibration. Returns the rate (0: *out is the profile).
 */
static uint64_t run_rates(const struct report_head *h, const struct cp_sim_config *cfg,
			  const struct cp_machine *profile, const struct cp_run_result *runs,
			  size_t n, struct cp_machine *out)
{
	size_t nr_readers = cfg->scenario->nr_readers;
	uint64_t bps = 0;

	*out = *profile;
	if (!h->rates_from_runs || !nr_readers || nr_readers > profile->nr_cpus)
		return 0;
	if (cp_cached_rate_from_runs(runs, n, cfg->scenario, &bps) <= 0)
		return 0;
	out->memory_bandwidth_bps = bps * nr_readers;
	if (out->copy_bandwidth_bps < bps)
		out->copy_bandwidth_bps = bps;
	return bps;
}

/* The copy rates a model run had from its real run, in its JSON. */
static int note_rates(struct cp_run_result *r, const struct cp_machine *m)
{
	if (cp_run_result_set_counter(r, "cp_machine_copy_bandwidth_bps",
				      (int64_t)m->copy_bandwidth_bps) ||
	    cp_run_result_set_counter(r, "cp_machine_memory_bandwidth_bps",
				      (int64_t)m->memory_bandwidth_bps))
		return -CP_ENOMEM;
	return 0;
}

static void rates_begin(struct report_head *h, const struct validate_opts *vo,
			const struct cp_machine *profile)
{
	h->rates_from_runs = !vo->profile_rates;
	h->profile_copy_bps = profile->copy_bandwidth_bps;
	h->profile_memory_bps = profile->memory_bandwidth_bps;
}

static long model_paired(struct cp_sim_config *cfg, const struct cp_run_result *runs, unsigned n,
			 unsigned seeds, const char *real_file, struct report_head *h,
			 struct cp_run_result *model, struct cp_run_result **paired, int *exit_code)
{
	struct cp_run_result mean;
	struct cp_mem_start_free sf;
	const struct cp_machine *profile = cfg->machine;
	struct cp_machine mk;
	uint64_t seed = cfg->seed, bps;
	size_t m = 0, nr_ok = 0, total, k;
	unsigned s;
	long rc = 0;

	*paired = NULL;
	for (k = 0; k < n; k++) {
		if (runs[k].failed)
			continue;
		if (!cp_start_free_from_runs(&runs[k], 1, &sf))
			return 0;
		nr_ok++;
	}
	if (!nr_ok)
		return 0;
	total = paired_count(nr_ok, seeds, real_file);
	if (!total) {
		*exit_code = CLI_EXIT_USAGE;
		return -1;
	}
	*paired = calloc(total, sizeof(**paired));
	if (!*paired) {
		fprintf(stderr, "cachepressure validate: out of memory\n");
		*exit_code = CLI_EXIT_FAIL;
		return -1;
	}
	fprintf(stderr, "cachepressure validate: model from each real run's own start layout, "
		"%u run(s) each (seeds %" PRIu64 "..%" PRIu64 ")\n", seeds, seed,
		seed + total - 1);
	for (k = 0; k < n && !rc; k++) {
		if (runs[k].failed)
			continue;
		cp_start_free_from_runs(&runs[k], 1, &sf);
		if (m == 0) {
			h->start_has_zones = sf.has_zones;
			h->start_has_pageblocks = sf.has_zones && sf.has_pageblocks;
		}
		cfg->start_free = &sf;
		cfg->size_is_available = true;
		bps = run_rates(h, cfg, profile, &runs[k], 1, &mk);
		if (k < CP_VALIDATE_MAX_RUNS) {
			h->run_bps[k] = bps;
			h->nr_run_bps = (unsigned)k + 1;
		}
		cfg->machine = &mk;
		for (s = 0; s < seeds && !rc; s++) {
			struct cp_diag diag = { "" };

			cfg->seed = seed + m;
			fprintf(stderr, "cachepressure validate: model run %zu/%zu: real run %zu's "
				"start, seed %" PRIu64 "\n", m + 1, total, k + 1, cfg->seed);
			h->phase_real[m] = (unsigned)k;
			cp_run_result_init(&(*paired)[m]);
			rc = cp_sim_run(cfg, &(*paired)[m], &diag);
			if (!rc && bps)
				rc = note_rates(&(*paired)[m], &mk);
			m++;
			if (rc) {
				fprintf(stderr, "cachepressure validate: model: %s\n",
					diag.msg[0] ? diag.msg : cp_strerror((int)rc));
				*exit_code = rc == -CP_EINVAL ? CLI_EXIT_USAGE : CLI_EXIT_FAIL;
			}
		}
	}
	cfg->seed = seed;
	cfg->start_free = NULL;
	cfg->machine = profile;
	cp_run_result_init(&mean);
	if (!rc && cp_validate_model_mean(&mean, *paired, m)) {
		fprintf(stderr, "cachepressure validate: out of memory\n");
		*exit_code = CLI_EXIT_FAIL;
		rc = -CP_ENOMEM;
	}
	if (rc) {
		free_paired(paired, m);
		cp_run_result_release(&mean);
		return -1;
	}
	h->nr_phase = 0;
	for (k = 0; k < m; k++)
		record_phase(h, &(*paired)[k]);
	cp_run_result_release(model);
	*model = mean;
	h->paired = true;
	h->seeds = seeds;
	h->nr_start = m;
	if (model->failed) {
		fprintf(stderr, "cachepressure validate: a model run failed: %s\n",
			model->failure ? model->failure : "(no reason given)");
		*exit_code = CLI_EXIT_FAIL;
	}
	return (long)m;
}

/* The runs model_paired() left in *paired, when it ran them. */
static void release_paired(const struct report_head *h, struct cp_run_result **paired)
{
	free_paired(paired, h->paired ? h->nr_start : 0);
}

/* values[0..n) of the paired runs, grouped by the real run each came
 * from: " run 1: a, b; run 2: c, d" (real runs counted from 1). */
static void print_by_real_run(const struct report_head *h, const int64_t *values)
{
	size_t i;

	for (i = 0; i < h->nr_phase; i++) {
		if (i == 0 || h->phase_real[i] != h->phase_real[i - 1])
			printf("%s run %u:", i ? ";" : "", h->phase_real[i] + 1);
		else
			printf(",");
		printf(" %" PRId64, values[i]);
	}
}

/* The spread of the model's total over the reader phases it ran at. */
static void print_phase_spread(const struct report_head *h)
{
	struct cp_stats st;
	char sd[32];
	size_t i;

	if (h->nr_phase < 2 || cp_stats_compute(h->phase_totals, h->nr_phase, &st))
		return;
	cp_stats_format(sd, sizeof(sd), st.sd, 0);
	if (h->paired) {
		printf("# model total from each real run's start, %u run(s) each, in the real runs' "
		       "order (seeds %" PRIu64 "..%" PRIu64 "):", h->seeds, h->seed,
		       h->seed + h->nr_phase - 1);
		print_by_real_run(h, h->phase_totals);
		printf("; mean %.0f, sd %s, min %" PRId64 ", max %" PRId64
		       "; the table's model is their mean\n", st.mean, sd, st.min, st.max);
	} else {
		printf("# model total over %zu reader phases (seeds %" PRIu64 "..%" PRIu64 "): "
		       "mean %.0f, sd %s, min %" PRId64 ", max %" PRId64
		       "; the table's model is seed %" PRIu64 "\n", h->nr_phase, h->seed,
		       h->seed + VALIDATE_PHASE_SEEDS - 1, st.mean, sd, st.min, st.max, h->seed);
	}
	/* each seed's: the kernel's superblock shrinker frees nothing in
	 * some runs and much in others, and so may the model's */
	printf("# model superblock shrinker frees at those %s:", h->paired ? "runs" : "phases");
	if (h->paired)
		print_by_real_run(h, h->phase_sb_freed);
	else
		for (i = 0; i < h->nr_phase; i++)
			printf("%s %" PRId64, i ? "," : "", h->phase_sb_freed[i]);
	printf("\n");
}

/* Did the model's objects change from the profile's? */
static bool slabs_changed(const struct report_head *h)
{
	return memcmp(&h->fs_file, h->fs_model, sizeof(h->fs_file)) != 0;
}

/*
 * The readahead window the real readers had (counter
 * cp_device_read_ahead_kb of each run) against the model's. A mismatch
 * makes the comparison one of two different machines, so it is said on
 * stdout and stderr; runs that recorded none are not counted.
 */
static void print_readahead(const struct report_head *h, const struct cp_run_result *runs)
{
	int64_t lo = INT64_MAX, hi = -1;
	unsigned i;

	for (i = 0; i < h->nr_real; i++) {
		int64_t v = cp_run_result_counter(&runs[i], "cp_device_read_ahead_kb", -1);

		if (v < 0)
			continue;
		lo = v < lo ? v : lo;
		hi = v > hi ? v : hi;
	}
	if (hi < 0)
		return;
	printf("# readahead: model read_ahead_kb %" PRIu64 ", real runs' loop device %" PRId64,
	       h->model_ra_kb, lo);
	if (hi != lo)
		printf("..%" PRId64, hi);
	printf("\n");
	if (lo != hi || (uint64_t)lo != h->model_ra_kb) {
		printf("# WARNING: the real readers' readahead window differs from the model's; "
		       "calibrate on the device the runs use (loop devices keep a user's "
		       "max_sectors_kb, which sets read_ahead_kb)\n");
		fprintf(stderr, "cachepressure validate: warning: real runs' read_ahead_kb "
			"%" PRId64 "..%" PRId64 " is not the machine profile's %" PRIu64 "\n",
			lo, hi, h->model_ra_kb);
	}
}

/* The mean of counter `name` over the runs that have it; false if none. */
static bool real_mean(const struct cp_run_result *runs, size_t nr, const char *name,
		      int64_t *mean)
{
	int64_t sum = 0, n = 0;
	size_t i;

	for (i = 0; i < nr; i++) {
		int64_t v = cp_run_result_counter(&runs[i], name, -1);

		if (v >= 0) {
			sum += v;
			n++;
		}
	}
	if (n)
		*mean = sum / n;
	return n > 0;
}

/*
 * The free pages by zone and pageblock migratetype when the measured
 * phase starts (the data files written): the lists fs_mark's slab pages
 * and the readers' refaults will be taken from (with ALLOC_NOFRAGMENT a
 * slab page avoids a zone whose free blocks are all of another type);
 * then each zone's file pages (where the files were put). Real: the mean
 * of the runs that recorded the measured_* counters.
 */
/* One "LABEL real / model" item of a comparison line (the line's head
 * before the first); false, nothing printed, when a side lacks NAME. */
static bool print_item(const struct cp_run_result *model, const struct cp_run_result *runs,
		       size_t nr_real, const char *name, const char *label, const char *head,
		       bool *any)
{
	int64_t m = cp_run_result_counter(model, name, -1), mean;

	if (m < 0 || !real_mean(runs, nr_real, name, &mean))
		return false;
	printf("%s %s %" PRId64 " / %" PRId64, *any ? "," : head, label, mean, m);
	*any = true;
	return true;
}

/* The end of a comparison line that printed an item. */
static void end_line(bool any, const char *tail)
{
	if (any)
		printf(" (%s)\n", tail);
}

/* One line of a per-zone counter, DMA32 and Normal, named by name_fn. */
static void print_zone_line(const struct cp_run_result *model, const struct cp_run_result *runs,
			    size_t nr_real, void (*name_fn)(unsigned zone, char *buf, size_t len),
			    const char *head, const char *tail)
{
	static const unsigned zones[] = { CP_ZONE_DMA32, CP_ZONE_NORMAL };
	static const char *const zone_label[] = { "dma32", "normal" };
	char name[64];
	bool any = false;
	size_t z;

	for (z = 0; z < sizeof(zones) / sizeof(zones[0]); z++) {
		name_fn(zones[z], name, sizeof(name));
		print_item(model, runs, nr_real, name, zone_label[z], head, &any);
	}
	end_line(any, tail);
}

static void print_measured_free(const struct cp_run_result *model,
				const struct cp_run_result *runs, size_t nr_real)
{
	static const unsigned zones[] = { CP_ZONE_DMA32, CP_ZONE_NORMAL };
	static const char *const zone_label[] = { "dma32", "normal" };
	char name[64], label[64];
	int64_t start;
	size_t z;
	unsigned t;
	bool any = false;

	for (z = 0; z < sizeof(zones) / sizeof(zones[0]); z++)
		for (t = 0; t < CP_MIGRATE_TYPES; t++) {
			cp_measured_free_counter_name(zones[z], t, name, sizeof(name));
			/* "measured_free_" ZONE_TYPE "_pages": ZONE_TYPE */
			snprintf(label, sizeof(label), "%.*s",
				 (int)(strlen(name) - strlen("measured_free_") - strlen("_pages")),
				 name + strlen("measured_free_"));
			print_item(model, runs, nr_real, name, label,
				   "# free pages when the measured phase starts, real mean / model:",
				   &any);
		}
	end_line(any, "/proc/pagetypeinfo after the data files were written");
	any = false;
	for (z = 0; z < sizeof(zones) / sizeof(zones[0]); z++)
		for (t = 0; t < CP_MIGRATE_TYPES; t++) {
			cp_measured_free_half_block_counter_name(zones[z], t, name, sizeof(name));
			/* "measured_free_" ZONE_TYPE "_order8_pages": ZONE_TYPE */
			snprintf(label, sizeof(label), "%.*s",
				 (int)(strlen(name) - strlen("measured_free_") -
				       strlen("_order8_pages")),
				 name + strlen("measured_free_"));
			print_item(model, runs, nr_real, name, label,
				   "# of which in free blocks of order >= 8, real mean / model:", &any);
		}
	end_line(any, "half a pageblock or more: a claim of its pageblock needs no other "
		      "free page; /proc/pagetypeinfo");
	print_zone_line(model, runs, nr_real, cp_measured_file_counter_name,
			"# file pages by zone then, real mean / model:",
			"/proc/zoneinfo nr_zone_active_file + nr_zone_inactive_file");
	print_zone_line(model, runs, nr_real, cp_measured_boost_counter_name,
			"# watermark boost by zone then, real mean / model:",
			"/proc/zoneinfo boost: what the set-up's fallbacks left");
	any = false;
	for (z = 0; z < sizeof(zones) / sizeof(zones[0]); z++)
		for (t = 0; t < CP_MIGRATE_TYPES; t++) {
			if (t == CP_MIGRATE_MOVABLE)
				continue; /* the real count is the balloon's */
			cp_pageblocks_counter_name("measured", zones[z], t, name, sizeof(name));
			print_item(model, runs, nr_real, name, name + strlen("measured_pageblocks_"),
				   "# pageblocks by type then, real mean / model:", &any);
		}
	end_line(any, "/proc/pagetypeinfo Number of blocks type");
	any = false;
	for (z = 0; z < sizeof(zones) / sizeof(zones[0]); z++) {
		cp_pcp_counter_name("measured", zones[z], name, sizeof(name));
		if (!print_item(model, runs, nr_real, name, zone_label[z],
				"# pages on per-CPU lists then, real mean / model:", &any))
			continue;
		cp_pcp_counter_name("start", zones[z], name, sizeof(name));
		if (real_mean(runs, nr_real, name, &start))
			printf(" (real at the start %" PRId64 ")", start);
	}
	end_line(any, "/proc/zoneinfo pagesets count; not in the free lists above");
}

/* What writing the data files (the set-up) cost, real and model: the
 * compaction, reclaim and zone use that leave the free lists the
 * measured phase starts from (setup_* counters; real: /proc/vmstat
 * deltas over the set-up). */
static void print_setup(const struct cp_run_result *model, const struct cp_run_result *runs,
			size_t nr_real)
{
	static const char *const names[] = {
		"pgalloc_normal", "pgalloc_dma32",  "pgsteal_kswapd",	   "pgsteal_direct",
		"compact_stall",  "compact_success", "compact_daemon_wake", "pgmigrate_success",
		"extfrag_claim",  "extfrag_claim_movable",
	};
	char name[64];
	size_t i;
	bool any = false;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(name, sizeof(name), "setup_%s", names[i]);
		print_item(model, runs, nr_real, name, names[i],
			   "# writing the data files, real mean / model:", &any);
	}
	print_item(model, runs, nr_real, "cp_setup_write_ns", "write_ns",
		   "# writing the data files, real mean / model:", &any);
	end_line(any, "/proc/vmstat over the set-up; extfrag_claim*: kmem:mm_page_alloc_extfrag "
		      "with change_ownership=1, all and MOVABLE requests, in the run's tracefs "
		      "instance; write_ns: the writers' write()s, paced by balance_dirty_pages()");
}

/* The model again, from the free memory the real runs started with
 * (their mean start layout); *model is replaced on success. Returns the
 * number of runs the layout came from (0: none recorded one, and the
 * model stays as it was unless again_anyway: its inputs changed), or -1
 * with the message printed. */
static long model_from_start(struct cp_sim_config *cfg, const struct cp_run_result *runs,
			     unsigned n, struct cp_mem_start_free *start_free, bool again_anyway,
			     struct cp_run_result *model, int *exit_code)
{
	struct cp_diag diag = { "" };
	struct cp_run_result again;
	size_t nr_start = cp_start_free_from_runs(runs, n, start_free);
	int rc;

	if (!nr_start && !again_anyway)
		return 0;
	if (nr_start) {
		cfg->start_free = start_free;
		cfg->size_is_available = true;
	}
	cp_run_result_init(&again);
	fprintf(stderr, "cachepressure validate: model %s%s\n", model->source ? "again" : "run",
		nr_start ? ", from the free memory the real runs measured" : "");
	rc = cp_sim_run(cfg, &again, &diag);
	if (rc) {
		fprintf(stderr, "cachepressure validate: model: %s\n",
			diag.msg[0] ? diag.msg : cp_strerror(rc));
		cp_run_result_release(&again);
		*exit_code = rc == -CP_EINVAL ? CLI_EXIT_USAGE : CLI_EXIT_FAIL;
		return -1;
	}
	cp_run_result_release(model);
	*model = again;
	if (model->failed) {
		fprintf(stderr, "cachepressure validate: the model run failed: %s\n",
			model->failure ? model->failure : "(no reason given)");
		*exit_code = CLI_EXIT_FAIL;
	}
	return (long)nr_start;
}

/* How the model shares the CPUs between fs_mark's workers and the other
 * tasks (sim.h cp_sim_creator_light_share()). */
static void print_cpu_shares(const struct report_head *h)
{
	uint64_t num, den;

	if (cp_sim_creator_light_share(h->machine, &num, &den))
		printf("# model CPUs: fs_mark's workers at %" PRIu64 "/%" PRIu64 " of another "
		       "task's rate while both run, as the machine profile measured them beside "
		       "two readers (fs_mark_cpus_beside_readers, readers_cpus_beside_fs_mark: "
		       "the kernel's load balancing leaves them short)\n",
		       num, den);
	else
		printf("# model CPUs: every task shares alike (the machine profile %s)\n",
		       h->machine->fs_mark_cpus_pm ? "measured fs_mark no shorter than the readers"
						   : "has no fs_mark_cpus_beside_readers");
	if (h->machine->share_beside_busy_cpus_pm)
		printf("# model device: the VM's disk on the vCPUs' host CPUs: with every CPU "
		       "busy it reads at %" PRIu64 "/1000 of its rate and the CPUs give up as "
		       "much of one while it transfers (share_beside_busy_cpus)\n",
		       h->machine->share_beside_busy_cpus_pm);
}

/* Which copy rates the model had: the runs' own or the profile's. */
static void print_rates(const struct report_head *h)
{
	unsigned k;

	printf("# model copy rates: ");
	if (!h->rates_from_runs) {
		printf("the machine profile's (--profile-rates): copy_bandwidth %.2f GB/s, "
		       "memory_bandwidth %.2f GB/s\n", (double)h->profile_copy_bps / 1e9,
		       (double)h->profile_memory_bps / 1e9);
		return;
	}
	if (h->paired && h->nr_run_bps) {
		printf("each real run's own, its readers' median cached pass before fs_mark "
		       "started, GB/s a reader:");
		for (k = 0; k < h->nr_run_bps; k++) {
			if (h->run_bps[k])
				printf("%s run %u %.2f", k ? "," : "", k + 1,
				       (double)h->run_bps[k] / 1e9);
			else
				printf("%s run %u (none: the profile's)", k ? "," : "", k + 1);
		}
	} else if (!h->paired && h->pooled_bps) {
		printf("the real runs' readers' median cached pass before fs_mark started, "
		       "%.2f GB/s a reader", (double)h->pooled_bps / 1e9);
	} else {
		printf("the machine profile's (the real runs have no cached passes before "
		       "fs_mark): copy_bandwidth %.2f GB/s, memory_bandwidth %.2f GB/s\n",
		       (double)h->profile_copy_bps / 1e9, (double)h->profile_memory_bps / 1e9);
		return;
	}
	printf("; memory_bandwidth that times the readers, copy_bandwidth at least that "
	       "(the profile: copy_bandwidth %.2f, memory_bandwidth %.2f GB/s; "
	       "--profile-rates keeps them)\n", (double)h->profile_copy_bps / 1e9,
	       (double)h->profile_memory_bps / 1e9);
}

/* The header lines, the table (model: the table's model column) and, with
 * json, the JSON with the model's runs (model itself, or when h->paired the
 * h->nr_start runs from the real runs' starts in paired[]). Returns the exit code
 * (CLI_EXIT_OK or CLI_EXIT_FAIL, messages printed). */
static int report(const struct report_head *h, const struct cp_run_result *model,
		  const struct cp_run_result *paired, const struct cp_run_result *runs,
		  const char *json)
{
	struct cp_validate_table *table = calloc(1, sizeof(*table));
	struct cp_diag diag = { "" };
	int rc, exit_code = CLI_EXIT_OK;

	if (!table) {
		fprintf(stderr, "cachepressure validate: out of memory\n");
		return CLI_EXIT_FAIL;
	}
	printf("# validate %s: confine %s, mem %" PRIu64 " MiB, policy patched\n", h->scenario,
	       h->confine, h->mem_bytes >> 20);
	printf("# real: %u run(s) on kernel %s (%s)", h->nr_real, h->real_kernel, h->fs_name);
	if (h->nr_setup_failed)
		printf("; %u more could not be set up (stderr says why)", h->nr_setup_failed);
	printf("\n");
	printf("# model: kernel profile %s (%s: %s), machine %s, vfs_cache_pressure %s\n",
	       h->kernel, h->kernel_why, h->release, h->machine_name, h->vcp ? h->vcp : "100");
	if (h->paired)
		printf("# model start: each real run's own (%zu model runs, %u from each real "
		       "run's start (--seeds), seeds %" PRIu64 "..%" PRIu64 " in the real runs' "
		       "order; the table's model is their mean, the JSON holds each run): zones "
		       "DMA32 and Normal, each with its free blocks as /proc/pagetypeinfo showed "
		       "them after the balloon and its managed pages%s\n", h->nr_start, h->seeds,
		       h->seed, h->seed + h->nr_start - 1,
		       h->start_has_pageblocks
			       ? "; each type's fragments in as many pageblocks as it had then "
				 "(movable: at most as many as pairing each with an allocated "
				 "buddy takes, the rest being the balloon's)"
			       : "; each fragment beside an allocated buddy of its order");
	else if (h->nr_start && h->start_has_zones)
		printf("# model start: zones DMA32 and Normal, each with its free blocks as "
		       "/proc/pagetypeinfo showed them after the balloon and its managed pages "
		       "(mean of %zu real run(s))%s\n", h->nr_start,
		       h->start_has_pageblocks
			       ? "; each type's fragments in as many pageblocks as it had then "
				 "(movable: at most as many as pairing each with an allocated "
				 "buddy takes, the rest being the balloon's)"
			       : "; each fragment beside an allocated buddy of its order");
	else if (h->nr_start)
		printf("# model start: free blocks below order 9 as /proc/pagetypeinfo showed them "
		       "after the balloon, summed over the zones (mean of %zu real run(s)); "
		       "zones as the machine profile says (one without dma32)\n", h->nr_start);
	else
		printf("# model start: all free memory in the largest blocks (the real runs "
		       "recorded no /proc/pagetypeinfo)\n");
	print_readahead(h, runs);
	print_rates(h);
	print_cpu_shares(h);
	print_setup(model, runs, h->nr_real);
	print_measured_free(model, runs, h->nr_real);
	print_slabs(h);
	printf("# model readers: each starts at a random phase within one cached pass of its "
	       "file (random_phase, seed %" PRIu64 "%s): real readers drift apart, identical "
	       "model readers would stay in lockstep\n", h->seed, h->paired ? " on" : "");
	print_phase_spread(h);
	rc = cp_validate_table_build(model, runs, h->nr_real, table, &diag);
	if (!rc) {
		table->nr_phases = h->nr_phase;
		table->phase_seed = h->seed;
		table->phases_paired = h->paired;
		table->phase_seeds_per_run = h->paired ? h->seeds : 0;
		memcpy(table->phase_totals, h->phase_totals,
		       h->nr_phase * sizeof(h->phase_totals[0]));
		memcpy(table->phase_sb_freed, h->phase_sb_freed,
		       h->nr_phase * sizeof(h->phase_sb_freed[0]));
	}
	if (rc) {
		fprintf(stderr, "cachepressure validate: %s\n", diag.msg);
		exit_code = CLI_EXIT_FAIL;
	} else if (cp_validate_table_fprint(stdout, table) || fflush(stdout)) {
		fprintf(stderr, "cachepressure validate: cannot write the output\n");
		exit_code = CLI_EXIT_FAIL;
	}
	if (!rc && json) {
		rc = cp_validate_json_write(json, h->paired ? paired : model,
					    h->paired ? h->nr_start : 1, runs, h->nr_real, table,
					    &diag);
		if (rc) {
			fprintf(stderr, "cachepressure validate: --json %s\n", diag.msg);
			exit_code = CLI_EXIT_FAIL;
		}
	}
	free(table);
	return exit_code;
}

/* The kernel profile: --kernel, else the one for the release the real
 * runs ran on. */
static const char *pick_kernel(const struct validate_opts *vo, const char *release,
			       const char **why)
{
	const char *kernel = vo->kernel;

	*why = "--kernel";
	if (!kernel) {
		kernel = cp_validate_kernel_profile_for(release);
		*why = "matches uname -r";
		if (!kernel) {
			kernel = "linux-6.1";
			*why = "uname -r not understood; linux-6.1 assumed";
		}
	}
	return kernel;
}

/* The real runs of an earlier validate (or real) in vo->real: only
 * source "real", all of vo's scenario, confine and memory. Returns the
 * exit code; on success *real holds *n runs (free with
 * cp_report_runs_free) and *all the file's array they point into. */
static int load_real(const struct validate_opts *vo, const char *scenario, uint64_t mem_bytes,
		     struct cp_run_result **all, size_t *nr_all, struct cp_run_result **real,
		     size_t *n)
{
	struct cp_diag d = { "" };
	size_t i, k = 0;
	int rc = cp_report_json_read(vo->real, all, nr_all, &d);

	if (rc) {
		fprintf(stderr, "cachepressure validate: --real %s: %s\n", vo->real,
			d.msg[0] ? d.msg : cp_strerror(rc));
		return rc == -CP_ENOMEM ? CLI_EXIT_FAIL : CLI_EXIT_USAGE;
	}
	/* the real runs first, in their order (the model's runs, one or
	 * --seeds from each real run's start, are left out) */
	for (i = 0; i < *nr_all; i++) {
		struct cp_run_result *r = &(*all)[i];

		if (!r->source || strcmp(r->source, "real") != 0)
			continue;
		if (!r->scenario || strcmp(r->scenario, scenario) != 0 || !r->confine ||
		    strcmp(r->confine, vo->confine) != 0 || r->mem_bytes != mem_bytes) {
			fprintf(stderr, "cachepressure validate: --real %s: runs[%zu] is %s, %s, "
				"%" PRIu64 " MiB, not %s, %s, %" PRIu64 " MiB\n", vo->real, i,
				r->scenario ? r->scenario : "?", r->confine ? r->confine : "?",
				r->mem_bytes >> 20, scenario, vo->confine, mem_bytes >> 20);
			return CLI_EXIT_USAGE;
		}
		if (k != i) { /* move it down over the model's runs */
			struct cp_run_result t = (*all)[k];

			(*all)[k] = *r;
			*r = t;
		}
		k++;
	}
	if (k == 0) {
		fprintf(stderr, "cachepressure validate: --real %s: no real run in it\n", vo->real);
		return CLI_EXIT_USAGE;
	}
	*real = *all;
	*n = k;
	return CLI_EXIT_OK;
}

/* The real runs into the --json file before the model runs, as `real
 * --json` would write them: should the model fail, they are kept, and
 * `validate --real FILE` runs the model against them again. The full
 * JSON replaces them at the end. */
static int keep_real_runs(const char *path, const struct cp_run_result *runs, size_t n)
{
	const struct cp_run_result **p = calloc(n, sizeof(*p));
	struct cp_diag diag = { "" };
	size_t i;
	int rc;

	if (!p) {
		fprintf(stderr, "cachepressure validate: out of memory\n");
		return -CP_ENOMEM;
	}
	for (i = 0; i < n; i++)
		p[i] = &runs[i];
	rc = cp_report_json_write(path, p, n, &diag);
	if (rc)
		fprintf(stderr, "cachepressure validate: --json %s\n", diag.msg);
	else
		fprintf(stderr, "cachepressure validate: the real runs are in %s\n", path);
	free(p);
	return rc;
}

/* validate --real FILE: the model against real runs measured before. */
static int validate_from_file(const struct validate_opts *vo)
{
	struct cli_scenario_opts so = { vo->scenario, vo->mem, NULL, 0 };
	struct cp_real_plan plan;
	struct cli_run_opts ro;
	struct cli_run_setup ms;
	struct cp_sim_config cfg;
	struct cp_run_result model, *all = NULL, *real = NULL, *paired = NULL;
	struct cp_mem_start_free start_free;
	struct cp_machine pooled;
	struct report_head h = { 0 };
	size_t nr_all = 0, n = 0;
	char vcp_buf[32];
	long nr_start;
	int rc, exit_code = CLI_EXIT_OK;

	rc = cli_real_plan_resolve("validate", &so, &plan);
	if (rc)
		return rc;
	rc = load_real(vo, plan.scenario, plan.mem_bytes, &all, &nr_all, &real, &n);
	if (rc) {
		cp_report_runs_free(all, nr_all);
		return rc;
	}
	h.scenario = plan.scenario;
	h.confine = vo->confine;
	h.fs_name = cp_fs_name(plan.fs);
	h.mem_bytes = plan.mem_bytes;
	h.nr_real = (unsigned)n;
	h.real_kernel = real[0].kernel ? real[0].kernel : "unknown";
	h.release = h.real_kernel;
	h.kernel = pick_kernel(vo, h.release, &h.kernel_why);
	h.vcp = live_vfs_cache_pressure(vcp_buf, sizeof(vcp_buf));
	rc = model_setup(vo, h.kernel, h.vcp, &ro, &ms);
	if (rc) {
		cp_report_runs_free(all, nr_all);
		return rc;
	}
	rc = json_check(vo->json);
	if (rc)
		goto out_setup;
	h.machine_name = ms.machine.name;
	h.model_ra_kb = ms.machine.read_ahead_kb;
	h.machine = &ms.machine;
	h.seed = ms.seed;
	cp_run_result_init(&model);
	cli_run_config(&ms, CP_POLICY_PATCHED, &cfg);
	fprintf(stderr, "cachepressure validate: model: %s, %s, mem %" PRIu64 " MiB, kernel "
		"profile %s, machine %s, against the %zu real run(s) of %s\n", plan.scenario,
		vo->confine, plan.mem_bytes >> 20, h.kernel, ms.machine.name, n, vo->real);
	{
		char where[CP_DIAG_LEN];

		snprintf(where, sizeof(where), "--real %s: ", vo->real);
		rc = model_slabs(&ms, real, n, &h, where, CLI_EXIT_USAGE);
		if (rc)
			goto out_setup;
	}
	rates_begin(&h, vo, cfg.machine);
	nr_start = model_paired(&cfg, real, (unsigned)n, vo->seeds, vo->real, &h, &model, &paired,
				&exit_code);
	if (nr_start == 0) {
		h.pooled_bps = run_rates(&h, &cfg, cfg.machine, real, n, &pooled);
		cfg.machine = &pooled;
		nr_start = model_from_start(&cfg, real, (unsigned)n, &start_free, false, &model,
					    &exit_code);
	}
	if (nr_start == 0) { /* no start layout recorded: as booted */
		struct cp_diag diag = { "" };

		rc = cp_sim_run(&cfg, &model, &diag);
		if (rc) {
			fprintf(stderr, "cachepressure validate: model: %s\n",
				diag.msg[0] ? diag.msg : cp_strerror(rc));
			exit_code = rc == -CP_EINVAL ? CLI_EXIT_USAGE : CLI_EXIT_FAIL;
			nr_start = -1;
		}
	}
	if (nr_start >= 0) {
		int r2;

		if (!h.paired) {
			h.nr_start = (size_t)nr_start;
			h.start_has_zones = nr_start > 0 && start_free.has_zones;
			h.start_has_pageblocks = h.start_has_zones && start_free.has_pageblocks;
			model_phase_spread(&cfg, &model, &h);
			if (h.pooled_bps && note_rates(&model, cfg.machine)) {
				fprintf(stderr, "cachepressure validate: out of memory\n");
				nr_start = -1;
			}
		}
		r2 = nr_start < 0 ? CLI_EXIT_FAIL
				  : report(&h, &model, paired, real, vo->json);
		if (r2 != CLI_EXIT_OK)
			exit_code = r2;
	}
	release_paired(&h, &paired);
	cp_run_result_release(&model);
out_setup:
	if (rc && exit_code == CLI_EXIT_OK)
		exit_code = rc;
	cli_run_setup_release(&ms);
	cp_report_runs_free(all, nr_all);
	return exit_code;
}

/* The command with its options in *vo (parsed here; the caller frees
 * vo->sets whatever this returns). */
static int validate_cmd(int argc, char **argv, struct validate_opts *vo)
{
	struct cli_run_setup ms;
	struct cli_run_opts ro;
	struct cp_real_session session;
	struct cp_real_opts opts;
	struct cp_real_plan plan;
	struct cp_run_result model, *runs = NULL, *paired = NULL;
	struct cp_sim_config cfg;
	struct cp_diag diag = { "" };
	struct utsname un;
	struct report_head h = { 0 };
	const char *kernel, *kernel_why, *vcp;
	char vcp_buf[32];
	uint64_t start_ns = cp_proc_now_ns();
	unsigned i, done = 0, attempt, nr_setup_failed = 0;
	struct cp_mem_start_free start_free;
	struct cp_machine pooled;
	long nr_start = 0;
	int rc, exit_code = CLI_EXIT_OK;

	rc = parse(argc, argv, vo);
	if (rc < 0) {
		usage(stdout);
		return CLI_EXIT_OK;
	}
	if (rc) {
		fprintf(stderr, "Try 'cachepressure validate --help'.\n");
		return rc;
	}
	if (vo->real)
		return validate_from_file(vo);
	rc = real_setup(vo, &opts, &plan);
	if (rc)
		return rc;
	/* before anything runs: the real runs may all record their start */
	if (!paired_count(opts.repeat, vo->seeds, NULL)) {
		fprintf(stderr, "Try 'cachepressure validate --help'.\n");
		return CLI_EXIT_USAGE;
	}
	if (uname(&un) != 0)
		snprintf(un.release, sizeof(un.release), "unknown");
	kernel = pick_kernel(vo, un.release, &kernel_why);
	vcp = live_vfs_cache_pressure(vcp_buf, sizeof(vcp_buf));
	rc = model_setup(vo, kernel, vcp, &ro, &ms);
	if (rc)
		return rc;
	rc = json_check(vo->json);
	if (rc) {
		cli_run_setup_release(&ms);
		return rc;
	}
	if (cp_real_signals_install()) {
		fprintf(stderr, "cachepressure validate: cannot install signal handlers\n");
		cli_run_setup_release(&ms);
		return CLI_EXIT_FAIL;
	}
	rc = cp_real_session_open(&session, &opts, &plan, &diag);
	if (rc) {
		fprintf(stderr, "cachepressure validate: %s\n", diag.msg);
		cp_real_signals_restore();
		cli_run_setup_release(&ms);
		return rc == -CP_EPERM || rc == -CP_EINVAL ? CLI_EXIT_USAGE : CLI_EXIT_FAIL;
	}
	session.progress = on_progress;
	session.progress_arg = &start_ns;

	/* the model first: seconds, and a bad model input is found before
	 * the real runs take minutes */
	cp_run_result_init(&model);
	cli_run_config(&ms, CP_POLICY_PATCHED, &cfg);
	/* a stop signal ends a model run as it ends a real one: the handlers
	 * are in place from here on, so without this the model would go on */
	cfg.cancelled = stop_signalled;
	fprintf(stderr, "cachepressure validate: model: %s, %s, mem %" PRIu64
		" MiB, kernel profile %s, machine %s\n", plan.scenario, vo->confine,
		opts.mem_bytes >> 20, kernel, ms.machine.name);
	rc = cp_sim_run(&cfg, &model, &diag);
	if (rc) {
		fprintf(stderr, "cachepressure validate: model: %s\n",
			diag.msg[0] ? diag.msg : cp_strerror(rc));
		exit_code = rc == -CP_EINVAL ? CLI_EXIT_USAGE : CLI_EXIT_FAIL;
		goto out;
	}
	if (model.failed) {
		fprintf(stderr, "cachepressure validate: the model run failed: %s\n",
			model.failure ? model.failure : "(no reason given)");
		exit_code = CLI_EXIT_FAIL;
	}

	runs = calloc(opts.repeat, sizeof(*runs));
	if (!runs) {
		fprintf(stderr, "cachepressure validate: out of memory\n");
		exit_code = CLI_EXIT_FAIL;
		goto out;
	}
	/* A repetition whose world could not be built (e.g. the balloon could
	 * not lock its memory because something else on the machine took it
	 * meanwhile) is tried again, up to 2 N attempts in all, so one
	 * transient failure does not throw away the other runs. */
	for (attempt = 0; done < opts.repeat && attempt < 2 * opts.repeat; attempt++) {
		if (cp_real_interrupted())
			break;
		cp_run_result_init(&runs[done]);
		fprintf(stderr, "cachepressure validate: real run %u/%u: %s, %s, mem %" PRIu64
			" MiB\n", done + 1, opts.repeat, plan.scenario,
			cp_confine_name(opts.confine), opts.mem_bytes >> 20);
		rc = cp_real_run(&session, &plan, attempt, &runs[done], &diag);
		if (rc) {
			fprintf(stderr, "cachepressure validate: %s\n", diag.msg);
			cp_run_result_release(&runs[done]);
			nr_setup_failed++;
			exit_code = CLI_EXIT_FAIL;
			if (rc == -CP_EBUSY || cp_real_interrupted())
				break;
			continue;
		}
		if (runs[done].failed) {
			fprintf(stderr, "cachepressure validate: real run %u failed: %s\n", done + 1,
				runs[done].failure ? runs[done].failure : "(no reason given)");
			exit_code = CLI_EXIT_FAIL;
		}
		done++;
	}
	if (done == 0)
		goto out;
	if (vo->json && strcmp(vo->json, "-") != 0 && keep_real_runs(vo->json, runs, done) != 0)
		exit_code = CLI_EXIT_FAIL;
	rc = model_slabs(&ms, runs, done, &h, "", CLI_EXIT_FAIL);
	if (rc) {
		exit_code = rc;
		goto out;
	}
	rates_begin(&h, vo, cfg.machine);
	nr_start = model_paired(&cfg, runs, done, vo->seeds, NULL, &h, &model, &paired,
				&exit_code);
	if (nr_start == 0) {
		h.pooled_bps = run_rates(&h, &cfg, cfg.machine, runs, done, &pooled);
		cfg.machine = &pooled;
		nr_start = model_from_start(&cfg, runs, done, &start_free, slabs_changed(&h),
					    &model, &exit_code);
	}
	if (nr_start < 0)
		goto out;

	h.scenario = plan.scenario;
	h.confine = vo->confine;
	h.fs_name = cp_fs_name(opts.fs);
	h.mem_bytes = opts.mem_bytes;
	h.nr_real = done;
	h.nr_setup_failed = nr_setup_failed;
	h.real_kernel = session.kernel;
	h.kernel = kernel;
	h.kernel_why = kernel_why;
	h.release = un.release;
	h.machine_name = ms.machine.name;
	h.model_ra_kb = ms.machine.read_ahead_kb;
	h.machine = &ms.machine;
	h.seed = ms.seed;
	h.vcp = vcp;
	if (!h.paired) {
		h.nr_start = (size_t)nr_start;
		h.start_has_zones = nr_start > 0 && start_free.has_zones;
		h.start_has_pageblocks = h.start_has_zones && start_free.has_pageblocks;
		model_phase_spread(&cfg, &model, &h);
		if (h.pooled_bps && note_rates(&model, cfg.machine)) {
			fprintf(stderr, "cachepressure validate: out of memory\n");
			exit_code = CLI_EXIT_FAIL;
			goto out;
		}
	}
	rc = report(&h, &model, paired, runs, vo->json);
	if (rc != CLI_EXIT_OK)
		exit_code = rc;
out:
	release_paired(&h, &paired);
	if (cp_real_interrupted())
		fprintf(stderr, "cachepressure validate: stopped by signal %d; everything it "
				"created was removed\n", cp_real_interrupted());
	for (i = 0; i < done; i++)
		cp_run_result_release(&runs[i]);
	free(runs);
	cp_run_result_release(&model);
	cp_real_session_close(&session);
	cp_real_signals_restore();
	cli_run_setup_release(&ms);
	return exit_code;
}

int cmd_validate(int argc, char **argv)
{
	struct validate_opts vo = { 0 };
	int rc = validate_cmd(argc, argv, &vo);

	free(vo.sets);
	return rc;
}
