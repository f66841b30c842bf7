/*
 * cmd_plot.c - `cachepressure plot FILE.json -o FILE.svg|png`: draws the
 * runs of a JSON file (run, compare, real or validate) with gnuplot.
 *
 * The data files and the script go into a private temporary directory
 * (mkdtemp in $TMPDIR, else /tmp), gnuplot runs on the script by fork/execvp with an argument
 * vector (no shell), and the directory is removed afterwards, whatever
 * happened. Exit: 0 ok, 1 gnuplot or I/O failed, 2 usage or bad input
 * (also: gnuplot not installed).
 */
#include <cachepressure/error.h>
#include <cachepressure/result.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "report/json.h"
#include "report/plot.h"

#define GNUPLOT "gnuplot"

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: cachepressure plot FILE.json -o FILE.svg|FILE.png\n"
		"\n"
		"Draws the runs of FILE.json (written by run, compare, real or validate\n"
		"with --json) with gnuplot, in three panels: the page cache and the\n"
		"reclaimable slab over time, and the bytes each reader re-read per pass;\n"
		"model and real runs overlaid when the file holds both. The time axis of\n"
		"a real run is wall time, of the model virtual time. Runs with the same\n"
		"label (the model's policy and kernel; the real runs' kernel) share a\n"
		"colour and one legend entry with their number; the model's are drawn\n"
		"first, the real runs over them.\n"
		"\n"
		"Options:\n"
		"  -o, --output FILE   the image to write; .svg or .png picks the format\n"
		"  -h, --help          this help\n"
		"\n"
		"Needs gnuplot (Debian package gnuplot-nox). Exit status: 0 done; 1\n"
		"gnuplot failed or a file could not be written; 2 bad arguments or input,\n"
		"or no gnuplot. See cachepressure(1).\n");
}

/* Runs gnuplot SCRIPT; returns its exit status, 127 when it cannot be
 * executed, -1 when fork fails. */
static int run_gnuplot(const char *script)
{
	char *argv[] = { GNUPLOT, (char *)script, NULL };
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		execvp(argv[0], argv);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

/* Is gnuplot on PATH? (Checked before anything is written.) */
static int have_gnuplot(void)
{
	const char *path = getenv("PATH");
	char buf[4096];

	if (!path || !*path)
		path = "/usr/bin:/bin";
	while (*path) {
		size_t n = strcspn(path, ":");

		if (n > 0 && n < sizeof(buf) - sizeof(GNUPLOT) - 1) {
			snprintf(buf, sizeof(buf), "%.*s/%s", (int)n, path, GNUPLOT);
			if (access(buf, X_OK) == 0)
				return 1;
		}
		path += n;
		if (*path == ':')
			path++;
	}
	return 0;
}

int cmd_plot(int argc, char **argv)
{
	const char *input = NULL, *output = NULL, *v;
	struct cp_run_result *runs = NULL;
	struct cp_diag diag = { "" };
	enum cp_plot_format fmt;
	const char *tmp = getenv("TMPDIR");
	char dir[1024], script[1100];
	size_t n = 0;
	int i, rc, ret = CLI_EXIT_OK;

	for (i = 1; i < argc; i++)
		if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			usage(stdout);
			return CLI_EXIT_OK;
		}
	for (i = 1; i < argc; i++) {
		if ((rc = cli_option(argc, argv, &i, "--output", &v)) != 0 ||
		    (rc = cli_option(argc, argv, &i, "-o", &v)) != 0) {
			if (rc < 0)
				return CLI_EXIT_USAGE;
			output = v;
		} else if (argv[i][0] == '-' && argv[i][1] != '\0') {
			fprintf(stderr, "cachepressure plot: unknown option '%s' "
				"(try 'cachepressure plot --help')\n", argv[i]);
			return CLI_EXIT_USAGE;
		} else if (input) {
			fprintf(stderr, "cachepressure plot: unexpected argument '%s' "
				"(one FILE.json only)\n", argv[i]);
			return CLI_EXIT_USAGE;
		} else {
			input = argv[i];
		}
	}
	if (!input || !output) {
		fprintf(stderr, "cachepressure plot: %s (try 'cachepressure plot --help')\n",
			!input ? "missing FILE.json" : "missing -o FILE.svg|FILE.png");
		return CLI_EXIT_USAGE;
	}
	if (cp_plot_format_of(output, &fmt)) {
		fprintf(stderr, "cachepressure plot: -o %s: the name must end in .svg or .png\n",
			output);
		return CLI_EXIT_USAGE;
	}
	if (!have_gnuplot()) {
		fprintf(stderr, "cachepressure plot: gnuplot not found on PATH (Debian package "
			"gnuplot-nox; scripts/install-deps.sh)\n");
		return CLI_EXIT_USAGE;
	}
	rc = cp_report_json_read(input, &runs, &n, &diag);
	if (rc) {
		fprintf(stderr, "cachepressure plot: %s\n", diag.msg);
		return rc == -CP_EINVAL || rc == -CP_ENOENT ? CLI_EXIT_USAGE : CLI_EXIT_FAIL;
	}
	if (n == 0) {
		fprintf(stderr, "cachepressure plot: %s: no runs\n", input);
		cp_report_runs_free(runs, n);
		return CLI_EXIT_USAGE;
	}
	snprintf(dir, sizeof(dir), "%s/cachepressure-plot-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		fprintf(stderr, "cachepressure plot: cannot make a temporary directory: %s\n",
			strerror(errno));
		cp_report_runs_free(runs, n);
		return CLI_EXIT_FAIL;
	}
	rc = cp_plot_write_files(dir, runs, n, output, fmt, &diag);
	if (rc) {
		fprintf(stderr, "cachepressure plot: %s\n", diag.msg);
		ret = rc == -CP_EINVAL ? CLI_EXIT_USAGE : CLI_EXIT_FAIL;
	} else {
		snprintf(script, sizeof(script), "%s/plot.gp", dir);
		rc = run_gnuplot(script);
		if (rc != 0) {
			fprintf(stderr, "cachepressure plot: gnuplot %s (output %s)\n",
				rc < 0 ? "could not be started" : "failed", output);
			ret = CLI_EXIT_FAIL;
		}
	}
	cp_plot_remove_files(dir, runs, n);
	if (rmdir(dir) != 0)
		fprintf(stderr, "cachepressure plot: cannot remove %s: %s\n", dir, strerror(errno));
	cp_report_runs_free(runs, n);
	return ret;
}
