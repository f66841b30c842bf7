/*
 * cmd_run.c - `cachepressure run SCENARIO` (one simulation under one
 * REFERENCED policy) and `cachepressure compare SCENARIO` (the same
 * simulation under legacy, then patched, and the comparison).
 *
 * Options are resolved in run_setup.c; the simulation is cp_sim_run();
 * everything printed comes from the report module. A progress line goes
 * to stderr only when stderr is a terminal, and is erased before any
 * other output.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cachepressure/error.h>
#include <cachepressure/result.h>

#include "cli.h"
#include "report/csv.h"
#include "report/json.h"
#include "report/report.h"
#include "run_setup.h"
#include "sim/sim.h"

/* ---- help ---------------------------------------------------------------- */

static void kernel_list(FILE *out)
{
	size_t i;

	for (i = 0; cp_kernel_profiles[i]; i++)
		fprintf(out, "%s%s", i ? ", " : "", cp_kernel_profiles[i]->name);
}

static void common_options(FILE *out, bool with_policy)
{
	fprintf(out, "Options:\n");
	if (with_policy)
		fprintf(out,
			"  --policy P            REFERENCED policy: legacy or patched (default: %s;\n"
			"                        see 'cachepressure policies')\n",
			cp_ref_policy_name(CLI_DEFAULT_POLICY));
	fprintf(out, "  --kernel K            kernel profile: ");
	kernel_list(out);
	fprintf(out,
		"\n"
		"                        (default: the scenario's kernel, else %s)\n"
		"  --machine NAME|FILE   machine profile, NAME meaning PROFILES/NAME.ini\n"
		"                        (default: the scenario's machine, else %s)\n"
		"  --fs NAME|FILE        filesystem profile, NAME meaning PROFILES/NAME.ini\n"
		"                        (default: the scenario's fs, else %s)\n"
		"  --confine MODE        global (default): the machine's RAM is the scenario's\n"
		"                        RAM; kswapd and global reclaim, as on the seed's box.\n"
		"                        memcg: the machine keeps its own RAM and the run is in\n"
		"                        a memory cgroup limited to the scenario's RAM\n"
		"  --mem SIZE            scale the scenario to SIZE (default: the scenario's\n"
		"                        ram): file sizes and fs_mark files per loop times\n"
		"                        SIZE/ram; the RAM (global) or the limit (memcg)\n"
		"  --set S.KEY=VALUE     override a scenario key after --mem, e.g.\n"
		"                        --set reader.file1.read_size=2M (repeatable);\n"
		"                        machine.SECTION.KEY=VALUE overrides a machine profile\n"
		"                        key, e.g. --set machine.cpu.copy_bandwidth=8G, and\n"
		"                        fs.SECTION.KEY=VALUE a filesystem profile key, e.g.\n"
		"                        --set fs.create.create_cpu_ns=30000\n"
		"  --seed N              PRNG seed (default: the scenario's seed); its only\n"
		"                        draw is each random_phase reader's start delay, so\n"
		"                        without such readers every N gives the same run\n"
		"  --vfs-cache-pressure N  vm.vfs_cache_pressure, 1 or more (default: 100)\n"
		"  --start-free FILE     start from the free memory a real run measured: FILE\n"
		"                        is the JSON of 'cachepressure real' or 'validate'\n"
		"                        (its start_free_* counters, /proc/pagetypeinfo after\n"
		"                        the balloon, mean over its runs); the free blocks\n"
		"                        below order 9 are laid out as measured, and with\n"
		"                        --confine global SIZE is MemAvailable as the\n"
		"                        balloon leaves it (the zone also gets its high\n"
		"                        watermark) (default: all free memory in the\n"
		"                        largest blocks, SIZE is the RAM)\n"
		"  --json FILE           write the result%s as JSON ('-': to stdout, no text)\n"
		"                        (default: none)\n"
		"  --csv FILE            write the time series as CSV ('-': to stdout, no\n"
		"                        text) (default: none)\n"
		"  -q, --quiet           no text on stdout and no progress line (default: off)\n"
		"  -h, --help            show this help\n"
		"\n"
		"SCENARIO is a built-in name (see 'cachepressure scenarios') or a path to an\n"
		".ini file. PROFILES is %s\n"
		"(CACHEPRESSURE_PROFILES_DIR overrides it). Sizes: 4096, 64K, 256M, 16G.\n"
		"A progress line goes to stderr when it is a terminal.\n"
		"\n"
		"Exit status: 0 done; 1 the model ran out of memory (the kernel would OOM)\n"
		"or an output file could not be written; 2 bad arguments or input.\n"
		"See cachepressure(1).\n",
		CLI_DEFAULT_KERNEL, CLI_DEFAULT_MACHINE, CLI_DEFAULT_FS,
		with_policy ? "" : "s", cli_profiles_dir());
}

static void run_usage(FILE *out)
{
	fprintf(out,
		"Usage: cachepressure run SCENARIO [--policy legacy|patched] [--kernel K]\n"
		"           [--machine NAME|FILE] [--fs NAME|FILE] [--confine global|memcg]\n"
		"           [--mem SIZE] [--set S.KEY=VALUE]... [--seed N]\n"
		"           [--vfs-cache-pressure N] [--start-free FILE] [--json FILE]\n"
		"           [--csv FILE] [--quiet]\n"
		"\n"
		"Simulates SCENARIO under one REFERENCED policy and prints the seed's lines\n"
		"('PATH: loop N read bytes is X' for each pass that read from the device,\n"
		"'PATH: total read during loops X' for each reader), then a table of the\n"
		"run: readers, passes, bytes read, the main reclaim counters.\n"
		"\n");
	common_options(out, true);
}

static void compare_usage(FILE *out)
{
	fprintf(out,
		"Usage: cachepressure compare SCENARIO [--kernel K] [--machine NAME|FILE]\n"
		"           [--fs NAME|FILE] [--confine global|memcg] [--mem SIZE]\n"
		"           [--set S.KEY=VALUE]... [--seed N] [--vfs-cache-pressure N]\n"
		"           [--start-free FILE] [--json FILE] [--csv FILE] [--quiet]\n"
		"\n"
		"Simulates SCENARIO under the legacy policy, then the patched one (the\n"
		"commit \"fs: don't set *REFERENCED on single use objects\"), and prints for\n"
		"each a header line and the seed's lines, then a table: one row per reader\n"
		"with the bytes it re-read under each policy and the change in percent, and\n"
		"a total row. --json holds both runs; --csv both series (column 'run').\n"
		"\n");
	common_options(out, false);
}

/* ---- progress line ------------------------------------------------------- */

struct progress {
	const char *cmd;
	const char *label; /* the policy being run */
	size_t len;        /* characters on the line now */
};

static void progress_show(void *priv, uint64_t now_ns, const char *what)
{
	struct progress *p = priv;
	char line[200];
	int n;
	bool labelled = what && strncmp(what, p->label, strlen(p->label)) == 0;

	/* "cachepressure compare: 12.3 s simulated, legacy: ..." (the policy
	 * once, whether or not the model's text names it) */
	n = snprintf(line, sizeof(line), "cachepressure %s: %" PRIu64 ".%01" PRIu64
		     " s simulated, %s%s%s", p->cmd, now_ns / 1000000000u,
		     now_ns % 1000000000u / 100000000u, labelled ? "" : p->label,
		     what && *what && !labelled ? ", " : "", what ? what : "");
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(line))
		n = (int)sizeof(line) - 1;
	fprintf(stderr, "\r%s", line);
	if ((size_t)n < p->len)
		fprintf(stderr, "%*s", (int)(p->len - (size_t)n), "");
	else
		p->len = (size_t)n;
	fflush(stderr);
}

static void progress_clear(struct progress *p)
{
	if (!p->len)
		return;
	fprintf(stderr, "\r%*s\r", (int)p->len, "");
	fflush(stderr);
	p->len = 0;
}

/* ---- output files -------------------------------------------------------- */

struct out_file {
	const char *option; /* "--json" */
	const char *path;   /* NULL, "-" or a path */
	bool created;       /* the file did not exist before this run */
};

static bool to_stdout(const struct out_file *f)
{
	return f->path && strcmp(f->path, "-") == 0;
}

/* Before a long run: is the output file writable? Creates it (without
 * truncating an existing one) so a bad path fails now, not at the end. */
static int out_check(const char *cmd, struct out_file *f)
{
	FILE *fp;

	if (!f->path || to_stdout(f))
		return CLI_EXIT_OK;
	f->created = access(f->path, F_OK) != 0;
	fp = fopen(f->path, "a");
	if (!fp) {
		fprintf(stderr, "cachepressure %s: %s %s: cannot write: %s\n", cmd, f->option,
			f->path, strerror(errno));
		return CLI_EXIT_FAIL;
	}
	fclose(fp);
	return CLI_EXIT_OK;
}

/* After a run that produced nothing: remove a file out_check created. */
static void out_discard(const struct out_file *f)
{
	if (f->path && !to_stdout(f) && f->created)
		remove(f->path);
}

static int out_write(const char *cmd, const struct out_file *f, bool json,
		     const struct cp_run_result *const *runs, size_t n)
{
	struct cp_diag diag = { "" };
	int rc;

	if (!f->path)
		return CLI_EXIT_OK;
	if (json)
		rc = to_stdout(f) ? cp_report_json_fprint(stdout, runs, n, &diag)
				  : cp_report_json_write(f->path, runs, n, &diag);
	else
		rc = to_stdout(f) ? cp_report_csv_fprint(stdout, runs, NULL, n, &diag)
				  : cp_report_csv_write(f->path, runs, NULL, n, &diag);
	if (rc) {
		fprintf(stderr, "cachepressure %s: %s %s: %s\n", cmd, f->option, f->path,
			diag.msg[0] ? diag.msg : cp_strerror(rc));
		return CLI_EXIT_FAIL;
	}
	return CLI_EXIT_OK;
}

/* ---- the runs -------------------------------------------------------------- */

#define MAX_RUNS 2

static int text_output(bool compare, const struct cp_run_result *const *runs, size_t n)
{
	int rc;

	if (compare)
		return cp_report_compare(stdout, runs, NULL, n);
	rc = cp_report_seed_lines(stdout, runs[0]);
	if (!rc && fputc('\n', stdout) == EOF)
		rc = -CP_EIO;
	if (!rc)
		rc = cp_report_run_table(stdout, runs[0]);
	return rc;
}

static int simulate(const struct cli_run_opts *o, bool compare)
{
	struct cli_run_setup s;
	struct cp_run_result results[MAX_RUNS];
	const struct cp_run_result *runs[MAX_RUNS];
	enum cp_ref_policy policies[MAX_RUNS];
	struct out_file json = { "--json", o->json, false };
	struct out_file csv = { "--csv", o->csv, false };
	struct progress prog = { o->cmd, NULL, 0 };
	bool show_progress = !o->quiet && isatty(STDERR_FILENO);
	size_t n, k, done = 0;
	int rc, ret = CLI_EXIT_OK;

	rc = cli_run_setup(o, &s);
	if (rc)
		return rc;
	if (compare) {
		n = 2;
		policies[0] = CP_POLICY_LEGACY;
		policies[1] = CP_POLICY_PATCHED;
	} else {
		n = 1;
		policies[0] = s.policy;
	}
	rc = out_check(o->cmd, &json);
	if (!rc)
		rc = out_check(o->cmd, &csv);
	if (rc) {
		out_discard(&json);
		cli_run_setup_release(&s);
		return rc;
	}

	for (k = 0; k < n; k++) {
		struct cp_sim_config cfg;
		struct cp_diag diag = { "" };

		cp_run_result_init(&results[k]);
		done = k + 1;
		runs[k] = &results[k];
		cli_run_config(&s, policies[k], &cfg);
		prog.label = cp_ref_policy_name(policies[k]);
		if (show_progress) {
			cfg.progress = progress_show;
			cfg.progress_priv = &prog;
		}
		rc = cp_sim_run(&cfg, &results[k], &diag);
		progress_clear(&prog);
		if (rc) {
			fprintf(stderr, "cachepressure %s: %s (policy %s): %s\n", o->cmd,
				o->so.scenario, prog.label,
				diag.msg[0] ? diag.msg : cp_strerror(rc));
			ret = rc == -CP_EINVAL ? CLI_EXIT_USAGE : CLI_EXIT_FAIL;
			out_discard(&json);
			out_discard(&csv);
			goto out;
		}
	}

	if (!o->quiet && !to_stdout(&json) && !to_stdout(&csv) && text_output(compare, runs, n)) {
		fprintf(stderr, "cachepressure %s: cannot write the output\n", o->cmd);
		ret = CLI_EXIT_FAIL;
	}
	rc = out_write(o->cmd, &json, true, runs, n);
	if (rc)
		ret = rc;
	rc = out_write(o->cmd, &csv, false, runs, n);
	if (rc)
		ret = rc;
	if (fflush(stdout) != 0) {
		fprintf(stderr, "cachepressure %s: cannot write the output: %s\n", o->cmd,
			strerror(errno));
		ret = CLI_EXIT_FAIL;
	}
	for (k = 0; k < n; k++) {
		if (!results[k].failed)
			continue;
		fprintf(stderr, "cachepressure %s: the %s run of %s failed: %s\n", o->cmd,
			cp_ref_policy_name(policies[k]), o->so.scenario,
			results[k].failure ? results[k].failure : "(no reason given)");
		ret = CLI_EXIT_FAIL;
	}
out:
	for (k = 0; k < done; k++)
		cp_run_result_release(&results[k]);
	cli_run_setup_release(&s);
	return ret;
}

static int command(int argc, char **argv, bool compare)
{
	struct cli_run_opts o;
	int rc;

	rc = cli_run_opts_parse(argc, argv, !compare, &o);
	if (!rc && o.help) {
		if (compare)
			compare_usage(stdout);
		else
			run_usage(stdout);
	} else if (!rc) {
		rc = simulate(&o, compare);
	} else if (rc == CLI_EXIT_USAGE) {
		fprintf(stderr, "Try 'cachepressure %s --help'.\n", argv[0]);
	}
	cli_run_opts_release(&o);
	return rc;
}

int cli_cmd_run(int argc, char **argv)
{
	return command(argc, argv, false);
}

int cli_cmd_compare(int argc, char **argv)
{
	return command(argc, argv, true);
}
