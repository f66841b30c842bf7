/*
 * cli.h - shared declarations of the command-line program.
 */
#ifndef CP_CLI_H
#define CP_CLI_H

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

/* Subcommands, one file each. */
int cmd_calibrate(int argc, char **argv); /* cmd_calibrate.c */
int cmd_real(int argc, char **argv);      /* cmd_real.c */

#endif /* CP_CLI_H */
