/*
 * main.c - the cachepressure program: subcommand dispatch.
 *
 * Exit codes: 0 ok, 1 simulation or I/O error, 2 usage error.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cp_version.h"

static int cmd_version(int argc, char **argv);
static int cmd_help(int argc, char **argv);

static const struct cli_command commands[] = {
	{ "calibrate", "measure this machine (or a lab guest) for a machine profile", cmd_calibrate },
	{ "compare", "simulate a scenario under both policies and compare", cli_cmd_compare },
	{ "help", "show this help, or the help of a command", cmd_help },
	{ "plot", "draw the runs of a JSON file with gnuplot (SVG or PNG)", cmd_plot },
	{ "policies", "list the REFERENCED policies and kernel profiles", cli_cmd_policies },
	{ "real", "run a scenario on the live kernel (root)", cmd_real },
	{ "run", "simulate a scenario under one policy", cli_cmd_run },
	{ "scenarios", "list the built-in scenarios", cli_cmd_scenarios },
	{ "show", "print a scenario resolved (defaults, --mem, --set)", cli_cmd_show },
	{ "validate", "the model against the live kernel, side by side (root)", cmd_validate },
	{ "version", "print the version", cmd_version },
};

static const struct cli_command *find_command(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

static void usage(FILE *out)
{
	size_t i;

	fprintf(out,
		"Usage: cachepressure COMMAND [OPTIONS]\n"
		"\n"
		"Linux page cache and dentry/inode cache reclaim, modelled and measured.\n"
		"\n"
		"Commands:\n");
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(out,
		"\n"
		"Options:\n"
		"  -h, --help     show this help\n"
		"  -V, --version  print the version\n"
		"\n"
		"Run 'cachepressure COMMAND --help' for a command's options.\n"
		"See cachepressure(1).\n");
}

static bool is_help(const char *arg)
{
	return strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0;
}

static int cmd_version(int argc, char **argv)
{
	if (argc > 1 && is_help(argv[1])) {
		printf("Usage: cachepressure version\n"
		       "\n"
		       "Prints the version (also: cachepressure -V, --version).\n"
		       "\n"
		       "Options:\n"
		       "  -h, --help  show this help\n");
		return CLI_EXIT_OK;
	}
	if (argc > 1) {
		fprintf(stderr, "cachepressure version: unexpected argument '%s'\n", argv[1]);
		return CLI_EXIT_USAGE;
	}
	printf("cachepressure %s\n", CP_VERSION_STRING);
	return CLI_EXIT_OK;
}

static int cmd_help(int argc, char **argv)
{
	const struct cli_command *c;

	if (argc < 2 || is_help(argv[1])) {
		usage(stdout);
		return CLI_EXIT_OK;
	}
	c = find_command(argv[1]);
	if (!c) {
		fprintf(stderr, "cachepressure: unknown command '%s'\n", argv[1]);
		return CLI_EXIT_USAGE;
	}
	{
		char *sub_argv[] = { argv[1], "--help", NULL };

		return c->run(2, sub_argv);
	}
}

int main(int argc, char **argv)
{
	const struct cli_command *c;

	if (argc < 2) {
		usage(stderr);
		return CLI_EXIT_USAGE;
	}
	if (is_help(argv[1])) {
		usage(stdout);
		return CLI_EXIT_OK;
	}
	if (strcmp(argv[1], "-V") == 0 || strcmp(argv[1], "--version") == 0)
		return cmd_version(argc - 1, argv + 1);
	c = find_command(argv[1]);
	if (!c) {
		fprintf(stderr, "cachepressure: unknown command '%s' (try 'cachepressure --help')\n",
			argv[1]);
		return CLI_EXIT_USAGE;
	}
	return c->run(argc - 1, argv + 1);
}
