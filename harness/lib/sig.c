/*
 * sig.c - stop signals: record, never act inside the handler.
 */
#include "sig.h"

#include <cachepressure/error.h>
#include <signal.h>
#include <string.h>

static volatile sig_atomic_t stop_signal;
static int installed;
static struct sigaction old_int, old_term, old_hup, old_pipe;

static void on_stop(int signo)
{
	if (!stop_signal)
		stop_signal = signo;
}

int cp_real_signals_install(void)
{
	struct sigaction sa;

	if (installed)
		return 0;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGINT, &sa, &old_int) || sigaction(SIGTERM, &sa, &old_term) ||
	    sigaction(SIGHUP, &sa, &old_hup))
		return -CP_ESYS;
	sa.sa_handler = SIG_IGN;
	if (sigaction(SIGPIPE, &sa, &old_pipe))
		return -CP_ESYS;
	installed = 1;
	return 0;
}

void cp_real_signals_restore(void)
{
	if (!installed)
		return;
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGHUP, &old_hup, NULL);
	sigaction(SIGPIPE, &old_pipe, NULL);
	installed = 0;
}

int cp_real_interrupted(void)
{
	return stop_signal;
}
