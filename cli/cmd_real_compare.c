/*
 * cmd_real_compare.c - `cachepressure real compare`: one scenario on two
 * kernel images, N runs each, alternated A B A B, and the A/B table
 * (report/abtable.h) with a significance test.
 *
 * Parses the options (harness/lib/opts.c), checks that both images are
 * readable files, resolves the scenario into a real-harness plan, then
 * hands the runs to the A/B driver (harness/lib/abrun.h), whose runner
 * boots one kernel per repetition in the kernel lab. Prints progress on
 * stderr, the table on stdout, and with --json the runs of both kernels
 * and the test. A stop signal ends the A/B; what was measured by then
 * is not printed as a result. Exit: 0 ok, 1 a run failed or could not be
 * made (also after SIGINT), 2 usage, a missing image or a missing tool.
 */
#include <cachepressure/error.h>
#include <cachepressure/result.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "abrun.h"
#include "cli.h"
#include "lab.h"
#include "opts.h"
#include "plan.h"
#include "proc.h"
#include "report/abtable.h"
#include "scenario/scenario.h"
#include "sig.h"

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: cachepressure real compare SCENARIO --kernel NAME=BZIMAGE\n"
		"                                  --kernel NAME=BZIMAGE --repeat N\n"
		"                                  [--mem SIZE] [--confine global|memcg]\n"
		"                                  [--vm-mem SIZE] [--vm-cpus N] [--json FILE]\n"
		"                                  [--set SECTION.KEY=VALUE]...\n"
		"\n"
		"Runs SCENARIO N times on each of two kernel images, booted one repetition\n"
		"at a time in the kernel lab (qemu), alternating A B A B ... so that drift\n"
		"of the host falls on both alike, and prints an A/B table: per reader and\n"
		"in total the mean, sd, min and max of the bytes re-read for each kernel\n"
		"(GB), the ratio B/A, and a two-sided Mann-Whitney U test with its p-value\n"
		"(exact for small samples without ties, 'U exact'; normal approximation\n"
		"otherwise, 'U normal') and Welch's t p-value beside it; then the mean\n"
		"slabs_scanned, pgscan_kswapd, pgscan_direct, workingset_refault_file and\n"
		"SReclaimable at the end of the run of each kernel.\n"
		"\n"
		"Options:\n"
		"  --kernel NAME=BZIMAGE  a kernel image and the name the table gives it;\n"
		"                         exactly two, with different names (the first\n"
		"                         is A, the second B; B/A is the ratio shown)\n"
		"  --repeat N          runs of each kernel, 2 to %d (the test needs 2;\n"
		"                      with 5 and 5 the smallest possible p is 0.0079)\n"
		"  --mem SIZE          memory the experiment gets inside the guest, as for\n"
		"                      real (default: the scenario's own)\n"
		"  --confine global|memcg  as for real (default global)\n"
		"  --vm-mem SIZE       guest memory (default: the kernel lab's)\n"
		"  --vm-cpus N         guest CPUs, 1 to %d (default: the kernel lab's)\n"
		"  --json FILE         write {\"kernels\": [{name, image, runs}, ...],\n"
		"                      \"test\": {...}, \"vmstat\": [...]} ('-' for stdout)\n"
		"  --set S.K=V         override a scenario key (after --mem), as for run\n"
		"  -h, --help          this help\n"
		"\n"
		"A repetition that fails (guest timeout, crash) is left out of the table\n"
		"and counted; the exit status is then 1. SIGINT stops the comparison;\n"
		"the runs measured until then are not reported. See cachepressure(1)\n"
		"and docs/kernel-lab.md.\n",
		CP_REAL_MAX_REPEAT, CP_COMPARE_MAX_VM_CPUS);
}

/* The kernel lab (harness/lib/lab.h) boots each repetition: one session
 * (tools, work directory, initramfs) serves both kernels, each run names
 * the image it boots. The guest reports its `uname -r`, which is the same
 * for a stock and a patched build, so the run's policy becomes the name
 * the user gave the kernel. */
struct lab {
	const struct cp_real_compare_opts *o;
	const struct cp_real_plan *plan;
	struct cp_lab_session *session;
};

static void on_progress(void *arg, const char *msg);

static int lab_open(struct lab *l, const struct cp_real_compare_opts *o,
		    const struct cp_real_plan *plan, uint64_t *start_ns, struct cp_diag *diag)
{
	struct cp_real_opts ro = o->real;

	l->o = o;
	l->plan = plan;
	ro.lab.kernel = o->kernels[0].image;
	ro.lab.vm_mem_bytes = o->vm_mem_bytes ? o->vm_mem_bytes
					      : ro.mem_bytes + CP_LAB_VM_EXTRA_BYTES;
	ro.lab.vm_cpus = o->vm_cpus ? o->vm_cpus : CP_LAB_DEFAULT_VM_CPUS;
	ro.lab.timeout_ns = 0; /* from the plan */
	ro.lab.accel = CP_LAB_ACCEL_AUTO;
	ro.lab.scenarios_dir = cli_scenarios_dir();
	l->session = calloc(1, sizeof(*l->session));
	if (!l->session)
		return cp_diag_set(diag, -CP_ENOMEM, "out of memory");
	l->session->progress = on_progress;
	l->session->progress_arg = start_ns;
	return cp_lab_session_open(l->session, &ro, plan, diag);
}

static int lab_run(void *arg, unsigned k, unsigned rep, struct cp_run_result *r,
		   struct cp_diag *diag)
{
	struct lab *l = arg;
	int rc = cp_lab_run(l->session, l->o->kernels[k].image, l->plan, rep, r, diag);

	if (!rc && cp_run_result_set_str(&r->policy, l->o->kernels[k].name))
		return cp_diag_set(diag, -CP_ENOMEM, "out of memory");
	return rc;
}

static void lab_close(struct lab *l)
{
	if (l->session)
		cp_lab_session_close(l->session);
	free(l->session);
	l->session = NULL;
}

static void on_progress(void *arg, const char *msg)
{
	const uint64_t *start_ns = arg;

	fprintf(stderr, "cachepressure real compare: [%7.1fs] %s\n",
		(double)(cp_proc_now_ns() - *start_ns) / 1e9, msg);
}

/* Each image a readable regular file (follows symlinks). */
static int check_images(const struct cp_real_compare_opts *o)
{
	unsigned k;

	for (k = 0; k < 2; k++) {
		const struct cp_compare_kernel *kn = &o->kernels[k];
		struct stat st;

		if (stat(kn->image, &st) != 0 || !S_ISREG(st.st_mode) ||
		    access(kn->image, R_OK) != 0) {
			fprintf(stderr,
				"cachepressure real compare: --kernel %s=%s: not a readable file "
				"(a bzImage, e.g. from scripts/build-kernel.sh)\n",
				kn->name, kn->image);
			return CLI_EXIT_USAGE;
		}
	}
	return CLI_EXIT_OK;
}

/* The table and the JSON of a complete A/B. Returns the exit code. */
static int report(const struct cp_real_compare_opts *o, const struct cp_real_plan *plan,
		  const struct cp_ab_runs *ab)
{
	const struct cp_ab_kernel ka = { o->kernels[0].name, o->kernels[0].image, ab->runs[0],
					 ab->nr_done[0] };
	const struct cp_ab_kernel kb = { o->kernels[1].name, o->kernels[1].image, ab->runs[1],
					 ab->nr_done[1] };
	struct cp_diag diag = { "" };
	struct cp_ab_table *t = calloc(1, sizeof(*t));
	int exit_code = CLI_EXIT_OK;

	if (!t) {
		fprintf(stderr, "cachepressure real compare: out of memory\n");
		return CLI_EXIT_FAIL;
	}
	if (cp_ab_table_build(&ka, &kb, t, &diag)) {
		fprintf(stderr, "cachepressure real compare: %s\n", diag.msg);
		free(t);
		return CLI_EXIT_FAIL;
	}
	printf("# real compare %s, confine %s, mem %" PRIu64 " MiB, %u runs of each kernel "
	       "alternated A B A B\n# A = %s (%s)\n# B = %s (%s)\n",
	       plan->scenario, cp_confine_name(o->real.confine), plan->mem_bytes >> 20,
	       o->real.repeat, ka.name, ka.image, kb.name, kb.image);
	if (cp_ab_table_fprint(stdout, t) || fflush(stdout)) {
		fprintf(stderr, "cachepressure real compare: cannot write the table\n");
		exit_code = CLI_EXIT_FAIL;
	}
	if (o->real.json && cp_ab_json_write(o->real.json, &ka, &kb, t, &diag)) {
		fprintf(stderr, "cachepressure real compare: %s\n", diag.msg);
		exit_code = CLI_EXIT_FAIL;
	}
	if (t->nr_failed_a || t->nr_failed_b)
		exit_code = CLI_EXIT_FAIL;
	free(t);
	return exit_code;
}

int cmd_real_compare(int argc, char **argv)
{
	struct cp_real_compare_opts opts;
	struct cp_real_plan plan;
	struct cp_ab_runs ab;
	struct cp_diag diag = { "" };
	struct lab lab;
	uint64_t start_ns = cp_proc_now_ns();
	int rc, exit_code;

	rc = cp_real_compare_opts_parse(argc, argv, &opts, &diag);
	if (rc == 1) {
		usage(stdout);
		return CLI_EXIT_OK;
	}
	if (rc) {
		fprintf(stderr, "cachepressure real compare: %s (try 'cachepressure real compare "
				"--help')\n", diag.msg);
		return CLI_EXIT_USAGE;
	}
	if (check_images(&opts))
		return CLI_EXIT_USAGE;
	{
		struct cli_scenario_opts so = { opts.real.scenario, opts.real.mem_arg,
						opts.real.sets, opts.real.nr_sets };

		rc = cli_real_plan_resolve("real compare", &so, &plan);
		if (rc)
			return rc;
		opts.real.fs = plan.fs;
		if (!opts.real.mem_arg)
			opts.real.mem_bytes = plan.mem_bytes; /* the scenario's own */
	}
	if (cp_real_signals_install()) {
		fprintf(stderr, "cachepressure real compare: cannot install signal handlers\n");
		return CLI_EXIT_FAIL;
	}
	rc = lab_open(&lab, &opts, &plan, &start_ns, &diag);
	if (rc) {
		fprintf(stderr, "cachepressure real compare: %s\n", diag.msg);
		lab_close(&lab);
		cp_real_signals_restore();
		return rc == -CP_EPERM || rc == -CP_EINVAL || rc == -CP_ENOENT ? CLI_EXIT_USAGE
									   : CLI_EXIT_FAIL;
	}
	{
		const struct cp_ab_driver d = {
			{ opts.kernels[0].name, opts.kernels[1].name },
			opts.real.repeat, lab_run, &lab, on_progress, &start_ns, NULL,
		};

		rc = cp_ab_drive(&d, &ab, &diag);
	}
	if (rc == -CP_EBUSY || cp_real_interrupted()) {
		fprintf(stderr, "cachepressure real compare: stopped by signal %d after %u of %u "
				"runs; an incomplete A/B is not a result: no table%s\n",
			cp_real_interrupted(), ab.nr_done[0] + ab.nr_done[1], 2 * opts.real.repeat,
			opts.real.json ? ", no JSON" : "");
		exit_code = CLI_EXIT_FAIL;
	} else if (rc) {
		fprintf(stderr, "cachepressure real compare: %s; stopped after %u of %u runs, no "
				"table\n", diag.msg, ab.nr_done[0] + ab.nr_done[1],
			2 * opts.real.repeat);
		exit_code = CLI_EXIT_FAIL;
	} else {
		exit_code = report(&opts, &plan, &ab);
	}
	cp_ab_runs_release(&ab);
	lab_close(&lab);
	cp_real_signals_restore();
	return exit_code;
}
