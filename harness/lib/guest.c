/*
 * guest.c - is this process inside a kernel-lab guest? (see guest.h)
 */
#include "guest.h"

#include <cachepressure/error.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

static bool has_word(const char *text, const char *word)
{
	size_t n = strlen(word);
	const char *p = text;

	while ((p = strstr(p, word))) {
		bool start = p == text || p[-1] == ' ' || p[-1] == '\t';
		char end = p[n];

		if (start && (end == '\0' || end == ' ' || end == '\n' || end == '\t'))
			return true;
		p += n;
	}
	return false;
}

bool cp_lab_guest_check(const char *proc_cmdline, const char *pid1_argv, size_t pid1_len,
			bool marker_exists)
{
	size_t i = 0;

	if (!marker_exists || !proc_cmdline || !has_word(proc_cmdline, CP_LAB_GUEST_CMDLINE_FLAG))
		return false;
	while (pid1_argv && i < pid1_len) {
		size_t n = strnlen(pid1_argv + i, pid1_len - i);

		if (n == 5 && memcmp(pid1_argv + i, "/init", 5) == 0)
			return true;
		i += n + 1;
	}
	return false;
}

static ssize_t read_small(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return n;
}

int cp_lab_guest_verify(struct cp_diag *diag)
{
	char cmdline[4096], pid1[1024];
	ssize_t n1;

	if (read_small("/proc/cmdline", cmdline, sizeof(cmdline)) < 0)
		cmdline[0] = '\0';
	n1 = read_small("/proc/1/cmdline", pid1, sizeof(pid1));
	if (!cp_lab_guest_check(cmdline, pid1, n1 < 0 ? 0 : (size_t)n1,
				access(CP_LAB_GUEST_MARKER, F_OK) == 0))
		return cp_diag_set(diag, -CP_EPERM,
				   "--guest-disk is only honoured inside a cachepressure lab "
				   "guest (kernel command line %s, pid 1 /init); nothing was "
				   "touched",
				   CP_LAB_GUEST_CMDLINE_FLAG);
	return 0;
}

int cp_lab_admit(const char *guest_disk, const char *what, struct cp_diag *diag)
{
	if (guest_disk) {
		int rc = cp_lab_guest_verify(diag);

		if (rc)
			return rc;
	}
	if (geteuid() != 0)
		return cp_diag_set(diag, -CP_EPERM, "needs root (%s); nothing was touched", what);
	return 0;
}
