/*
 * cli.h - shared declarations of the command-line program.
 */
#ifndef CP_CLI_H
#define CP_CLI_H

#include <stddef.h>

enum cli_exit {
	CLI_EXIT_OK = 0,
	CLI_EXIT_FAIL = 1,  /* simulation or I/O error */
	CLI_EXIT_USAGE = 2, /* bad arguments or bad input */
};

struct cli_command {
	const char *name;
	const char *summary;
	int (*run)(int argc, char **argv); /* argv[0] is the command name */
};

struct cp_scenario;

/* The scenario argument and the options shared by every command that
 * takes one. --mem is applied first, then each --set in order. */
struct cli_scenario_opts {
	const char *scenario; /* built-in name, or a path (has '/' or ends in .ini) */
	const char *mem;      /* --mem SIZE, or NULL */
	const char **sets;    /* --set SECTION.KEY=VALUE, nr_sets of them */
	size_t nr_sets;
};

/* Directory of the built-in scenarios: $CACHEPRESSURE_SCENARIOS_DIR, or
 * the source tree's scenarios/ compiled in. */
const char *cli_scenarios_dir(void);

/* Matches argv[*i] against "--name VALUE" or "--name=VALUE". Returns 1
 * (and *value; *i moves past a separate value), 0 if it is another
 * argument, -1 (message printed) when the value is missing. */
int cli_option(int argc, char **argv, int *i, const char *name, const char **value);

/* Loads and resolves the scenario. Returns CLI_EXIT_OK with *out (free
 * with cp_scenario_destroy), or prints "cachepressure: MESSAGE" naming
 * the input and returns CLI_EXIT_USAGE (CLI_EXIT_FAIL when out of memory). */
int cli_scenario_resolve(const struct cli_scenario_opts *o, struct cp_scenario **out);

/* The same, then the real harness's plan of it (harness/lib/plan.h).
 * Returns CLI_EXIT_OK, or CLI_EXIT_USAGE/FAIL after printing
 * "cachepressure CMD: MESSAGE". */
struct cp_real_plan;
int cli_real_plan_resolve(const char *cmd, const struct cli_scenario_opts *o,
			  struct cp_real_plan *plan);

/* Subcommands (cmd_scenario.c). */
int cli_cmd_scenarios(int argc, char **argv);
int cli_cmd_show(int argc, char **argv);

/* `run` and `compare` (cmd_run.c), `policies` (cmd_policies.c). */
int cli_cmd_run(int argc, char **argv);
int cli_cmd_compare(int argc, char **argv);
int cli_cmd_policies(int argc, char **argv);

/* Subcommands, one file each. */
int cmd_calibrate(int argc, char **argv); /* cmd_calibrate.c */
int cmd_real(int argc, char **argv);      /* cmd_real.c */
int cmd_real_compare(int argc, char **argv); /* cmd_real_compare.c: `real compare` */
int cmd_validate(int argc, char **argv);  /* cmd_validate.c */
int cmd_plot(int argc, char **argv);      /* cmd_plot.c */

#endif /* CP_CLI_H */
