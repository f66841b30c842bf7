/*
 * err.c - error strings and the diagnostic buffer.
 */
#include <cachepressure/error.h>

#include <stdarg.h>
#include <stdio.h>

static const char *const err_names[CP_EMAX] = {
	[CP_OK] = "success",
	[CP_EINVAL] = "invalid input",
	[CP_ENOMEM] = "out of memory",
	[CP_EIO] = "input/output error",
	[CP_ENOENT] = "not found",
	[CP_ERANGE] = "value out of range",
	[CP_EPERM] = "not permitted",
	[CP_EBUSY] = "busy",
	[CP_ENOSPC] = "no space left",
	[CP_ESYS] = "system call failed",
	[CP_EAGAIN] = "try again",
	[CP_EINTR] = "interrupted",
};

const char *cp_strerror(int rc)
{
	int e = rc < 0 ? -rc : rc;

	if (e >= CP_EMAX || !err_names[e])
		return "unknown error";
	return err_names[e];
}

int cp_diag_set(struct cp_diag *diag, int rc, const char *fmt, ...)
{
	va_list ap;

	if (!diag)
		return rc;
	va_start(ap, fmt);
	vsnprintf(diag->msg, sizeof(diag->msg), fmt, ap);
	va_end(ap);
	return rc;
}
