/*
 * cmd_real.c - `cachepressure real`: a scenario on the live kernel.
 *
 * Parses the options, builds the scaled plan, opens a session (all
 * refusals happen before anything is touched), runs N repetitions, each
 * in a world of its own that is removed again, and prints the seed's
 * lines per run, the spread over the runs and, with --json, the shared
 * JSON layout. Exit: 0 ok, 1 run or system error (also after SIGINT),
 * 2 usage, not root, or a refused work directory. `real compare` (two
 * kernels, A/B) is cmd_real_compare.c.
 */
#include <cachepressure/error.h>
#include <cachepressure/result.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "lab.h"
#include "opts.h"
#include "plan.h"
#include "proc.h"
#include "real_out.h"
#include "run.h"
#include "scenario/scenario.h"
#include "sig.h"

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: cachepressure real SCENARIO --mem SIZE [--confine global|memcg]\n"
		"                          [--fs xfs|ext4] [--workdir DIR] [--repeat N]\n"
		"                          [--json FILE] [--keep] [--set SECTION.KEY=VALUE]...\n"
		"                          [--kernel BZIMAGE [--vm-mem SIZE] [--vm-cpus N]\n"
		"                           [--timeout DURATION] [--accel auto|kvm|tcg]]\n"
		"       cachepressure real compare SCENARIO --kernel NAME=BZIMAGE\n"
		"                          --kernel NAME=BZIMAGE --repeat N ...  (A/B of two\n"
		"                          kernels in the kernel lab; see real compare --help)\n"
		"\n"
		"Runs SCENARIO (a built-in: seed, files-in-cache; or a scenario file) on\n"
		"the live kernel, as root, scaled by SIZE / the scenario's ram, on a\n"
		"sparse image of its own (loop device with direct I/O, mkfs, mounted\n"
		"noatime) with the real fs_mark.\n"
		"Prints the seed's lines ('PATH: loop N read bytes is X', 'PATH: total\n"
		"read during loops X') for each run, and the spread over the runs.\n"
		"\n"
		"Options:\n"
		"  --mem SIZE          memory the experiment gets (e.g. 256M, 1G, 2G)\n"
		"  --confine global    (default) a balloon process mlock()s MemAvailable\n"
		"                      minus SIZE (less its own page tables): global\n"
		"                      reclaim with kswapd; needs\n"
		"                      MemAvailable >= SIZE + 1.5G; drops caches first\n"
		"  --confine memcg     a memory cgroup limited to SIZE holds the workload\n"
		"                      (v2 if a cgroup2 mount offers memory, else v1)\n"
		"  --fs xfs|ext4       filesystem to make (default: the scenario's fs)\n"
		"  --workdir DIR       where the image and mount point go (default\n"
		"                      %s); refused on tmpfs or when it\n"
		"                      holds files not named cachepressure-*\n"
		"  --repeat N          N fresh runs (new mkfs each), with mean, min, max, sd\n"
		"  --json FILE         write every run as JSON ('-' for stdout)\n"
		"  --keep              keep the image file(s) and say where\n"
		"  --set S.K=V         override a scenario key (after --mem), as for run\n"
		"  -h, --help          this help\n"
		"\n"
		"Kernel lab (no root needed): each run boots a fresh qemu guest instead\n"
		"  --kernel BZIMAGE    boot this kernel (scripts/build-kernel.sh builds one);\n"
		"                      its /init runs the scenario on a fresh XFS disk image\n"
		"                      (mkfs on a sparse file in --workdir) and reports back\n"
		"                      over a serial port; the image is removed afterwards\n"
		"  --vm-mem SIZE       guest RAM (default SIZE + 256M; at least SIZE + 192M)\n"
		"  --vm-cpus N         guest CPUs (default 2)\n"
		"  --timeout DURATION  per boot (default 120s + 10 min per GiB of SIZE); a guest\n"
		"                      that takes longer is killed: a failed run, no result\n"
		"  --accel MODE        auto (default: KVM when /dev/kvm works, else TCG), kvm, tcg\n"
		"\n"
		"Everything it creates is named cachepressure-* (image, mount point,\n"
		"cgroup, balloon process) and removed on exit, on error and on\n"
		"SIGINT/SIGTERM. See cachepressure(1).\n",
		CP_REAL_DEFAULT_WORKDIR);
}

static void on_progress(void *arg, const char *msg)
{
	const uint64_t *start_ns = arg;

	fprintf(stderr, "cachepressure real: [%6.1fs] %s\n",
		(double)(cp_proc_now_ns() - *start_ns) / 1e9, msg);
}

/* `real --kernel`: every repetition in a fresh qemu guest (lab.h). */
static int real_lab(const struct cp_real_opts *opts, const struct cp_real_plan *plan,
		    uint64_t start_ns)
{
	struct cp_lab_session *session;
	struct cp_run_result *runs;
	struct cp_diag diag = { "" };
	unsigned i, done = 0;
	int rc, exit_code = CLI_EXIT_OK;

	if (cp_real_signals_install()) {
		fprintf(stderr, "cachepressure real: cannot install signal handlers\n");
		return CLI_EXIT_FAIL;
	}
	session = calloc(1, sizeof(*session));
	runs = calloc(opts->repeat, sizeof(*runs));
	if (!session || !runs) {
		fprintf(stderr, "cachepressure real: out of memory\n");
		free(session);
		free(runs);
		cp_real_signals_restore();
		return CLI_EXIT_FAIL;
	}
	session->progress = on_progress;
	session->progress_arg = &start_ns;
	rc = cp_lab_session_open(session, opts, plan, &diag);
	if (rc) {
		fprintf(stderr, "cachepressure real: %s\n", diag.msg);
		free(session);
		free(runs);
		cp_real_signals_restore();
		return rc == -CP_EPERM || rc == -CP_EINVAL ? CLI_EXIT_USAGE : CLI_EXIT_FAIL;
	}
	session->progress = on_progress; /* open cleared the session */
	session->progress_arg = &start_ns;
	for (i = 0; i < opts->repeat; i++) {
		cp_run_result_init(&runs[i]);
		fprintf(stderr,
			"cachepressure real: run %u/%u: %s, %s, mem %" PRIu64 " MiB, kernel %s\n",
			i + 1, opts->repeat, plan->scenario, cp_confine_name(opts->confine),
			opts->mem_bytes >> 20, opts->lab.kernel);
		rc = cp_lab_run(session, opts->lab.kernel, plan, i, &runs[i], &diag);
		if (rc) {
			fprintf(stderr, "cachepressure real: %s\n", diag.msg);
			cp_run_result_release(&runs[i]);
			exit_code = rc == -CP_EINVAL ? CLI_EXIT_USAGE : CLI_EXIT_FAIL;
			break;
		}
		done++;
		if (runs[i].failed)
			fprintf(stderr, "cachepressure real: run %u failed: %s\n", i + 1,
				runs[i].failure ? runs[i].failure : "(no reason)");
		real_print_run(stdout, &runs[i], cp_fs_name(opts->fs), i, opts->repeat);
		fflush(stdout);
		if (runs[i].failed)
			exit_code = CLI_EXIT_FAIL;
	}
	if (done > 0)
		real_print_summary(stdout, runs, done);
	if (opts->json && done > 0) {
		rc = real_write_json(opts->json, runs, done, &diag);
		if (rc) {
			fprintf(stderr, "cachepressure real: %s\n", diag.msg);
			exit_code = CLI_EXIT_FAIL;
		}
	}
	for (i = 0; i < session->nr_kept; i++)
		fprintf(stderr, "cachepressure real: kept image %s\n", session->kept[i]);
	if (cp_real_interrupted())
		fprintf(stderr, "cachepressure real: stopped by signal %d; qemu was killed and the "
				"image removed\n",
			cp_real_interrupted());
	for (i = 0; i < done; i++)
		cp_run_result_release(&runs[i]);
	free(runs);
	cp_lab_session_close(session);
	free(session);
	cp_real_signals_restore();
	return exit_code;
}

int cmd_real(int argc, char **argv)
{
	struct cp_real_session session;
	struct cp_real_opts opts;
	struct cp_real_plan plan;
	struct cp_run_result *runs;
	struct cp_diag diag = { "" };
	uint64_t start_ns = cp_proc_now_ns();
	unsigned i, done = 0;
	int rc, exit_code = CLI_EXIT_OK;

	if (argc > 1 && strcmp(argv[1], "compare") == 0)
		return cmd_real_compare(argc - 1, argv + 1);
	rc = cp_real_opts_parse(argc, argv, &opts, &diag);
	if (rc == 1) {
		usage(stdout);
		return CLI_EXIT_OK;
	}
	if (rc) {
		fprintf(stderr, "cachepressure real: %s (try 'cachepressure real --help')\n",
			diag.msg);
		return CLI_EXIT_USAGE;
	}
	{
		struct cli_scenario_opts so = { opts.scenario, opts.mem_arg, opts.sets,
						opts.nr_sets };

		rc = cli_real_plan_resolve("real", &so, &plan);
		if (rc)
			return rc;
		if (!opts.fs_given)
			opts.fs = plan.fs;
	}
	if (opts.lab.kernel) {
		opts.lab.scenarios_dir = cli_scenarios_dir();
		return real_lab(&opts, &plan, start_ns);
	}
	if (cp_real_signals_install()) {
		fprintf(stderr, "cachepressure real: cannot install signal handlers\n");
		return CLI_EXIT_FAIL;
	}
	rc = cp_real_session_open(&session, &opts, &plan, &diag);
	if (rc) {
		fprintf(stderr, "cachepressure real: %s\n", diag.msg);
		cp_real_signals_restore();
		return rc == -CP_EPERM || rc == -CP_EINVAL ? CLI_EXIT_USAGE : CLI_EXIT_FAIL;
	}
	session.progress = on_progress;
	session.progress_arg = &start_ns;

	runs = calloc(opts.repeat, sizeof(*runs));
	if (!runs) {
		fprintf(stderr, "cachepressure real: out of memory\n");
		cp_real_session_close(&session);
		cp_real_signals_restore();
		return CLI_EXIT_FAIL;
	}
	for (i = 0; i < opts.repeat; i++) {
		cp_run_result_init(&runs[i]);
		fprintf(stderr, "cachepressure real: run %u/%u: %s, %s, mem %" PRIu64 " MiB\n",
			i + 1, opts.repeat, plan.scenario, cp_confine_name(opts.confine),
			opts.mem_bytes >> 20);
		rc = cp_real_run(&session, &plan, i, &runs[i], &diag);
		if (rc) {
			fprintf(stderr, "cachepressure real: %s\n", diag.msg);
			cp_run_result_release(&runs[i]);
			exit_code = CLI_EXIT_FAIL;
			break;
		}
		done++;
		real_print_run(stdout, &runs[i], cp_fs_name(opts.fs), i, opts.repeat);
		fflush(stdout);
		if (runs[i].failed)
			exit_code = CLI_EXIT_FAIL;
	}
	if (done > 0)
		real_print_summary(stdout, runs, done);
	if (opts.json && done > 0) {
		rc = real_write_json(opts.json, runs, done, &diag);
		if (rc) {
			fprintf(stderr, "cachepressure real: %s\n", diag.msg);
			exit_code = CLI_EXIT_FAIL;
		}
	}
	for (i = 0; i < session.nr_kept; i++)
		fprintf(stderr, "cachepressure real: kept image %s\n", session.kept[i]);
	if (cp_real_interrupted())
		fprintf(stderr, "cachepressure real: stopped by signal %d; everything it created "
				"was removed%s\n",
			cp_real_interrupted(), session.nr_kept ? " except the kept image" : "");
	for (i = 0; i < done; i++)
		cp_run_result_release(&runs[i]);
	free(runs);
	cp_real_session_close(&session);
	cp_real_signals_restore();
	return exit_code;
}
