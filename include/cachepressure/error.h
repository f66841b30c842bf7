/*
 * error.h - error codes and the optional diagnostic buffer.
 *
 * A library function that can fail returns int: 0 on success or a
 * negative -CP_E* code. Details go into an optional caller-owned
 * struct cp_diag; filling it never allocates.
 */
#ifndef CP_ERROR_H
#define CP_ERROR_H

enum cp_errno {
	CP_OK = 0,
	CP_EINVAL = 1,  /* bad input: syntax, unknown key, value out of range */
	CP_ENOMEM = 2,  /* an allocation failed */
	CP_EIO = 3,     /* reading or writing a file failed */
	CP_ENOENT = 4,  /* a named thing does not exist */
	CP_ERANGE = 5,  /* a number does not fit */
	CP_EPERM = 6,   /* not allowed (not root, refuses a device) */
	CP_EBUSY = 7,   /* a resource is in use */
	CP_ENOSPC = 8,  /* a capacity is exhausted (memory limit, OOM) */
	CP_ESYS = 9,    /* a system call failed; diag names it */
	CP_EAGAIN = 10, /* not yet: the caller's reclaim goes on at its next step */
	CP_EINTR = 11,  /* stopped on the caller's request (a signal) */
	CP_EMAX
};

#define CP_DIAG_LEN 512

/* Optional detail for an error, owned by the caller. */
struct cp_diag {
	char msg[CP_DIAG_LEN];
};

/* Returns a static string naming rc (0 or -CP_E*). Never NULL. */
const char *cp_strerror(int rc);

/* printf-style: writes into diag->msg when diag is not NULL. Truncates
 * silently; never allocates. Returns rc so callers can
 * `return cp_diag_set(diag, -CP_EINVAL, "...")`. */
int cp_diag_set(struct cp_diag *diag, int rc, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 3, 4)))
#endif
	;

#endif /* CP_ERROR_H */
