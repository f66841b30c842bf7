/*
 * sig.h - stop signals for `cachepressure real` and `calibrate`.
 *
 * While installed, SIGINT, SIGTERM and SIGHUP only record that a stop was
 * asked for (no SA_RESTART, so a blocking call returns EINTR); every wait
 * of the harness polls cp_real_interrupted() and unwinds through the
 * normal cleanup path. SIGPIPE is ignored.
 */
#ifndef CP_SIG_H
#define CP_SIG_H

/* Returns 0 or -CP_ESYS. Idempotent. */
int cp_real_signals_install(void);

/* Puts back the dispositions found at install time. */
void cp_real_signals_restore(void);

/* The first stop signal received since install, or 0. */
int cp_real_interrupted(void);

#endif /* CP_SIG_H */
