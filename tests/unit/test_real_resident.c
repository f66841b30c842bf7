/*
 * test_real_resident.c - cp_refetch_missing (harness/lib/resident.c):
 * after POSIX_FADV_DONTNEED drops a clean file's pages, the missing bytes
 * are read back and counted; a second call finds every page resident and
 * reads nothing (mincore() on a file mapping reports page-cache
 * residency).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "resident.h"

#define FILE_BYTES (4u << 20)

static char path[64];

static int make_file(void **state)
{
	static char block[65536];
	int fd, i;

	(void)state;
	snprintf(path, sizeof(path), "/var/tmp/cp-resident-XXXXXX");
	fd = mkstemp(path);
	if (fd < 0)
		return -1;
	memset(block, 0x5a, sizeof(block));
	for (i = 0; i < (int)(FILE_BYTES / sizeof(block)); i++)
		if (write(fd, block, sizeof(block)) != (ssize_t)sizeof(block))
			return -1;
	/* clean pages can be dropped; dirty ones cannot */
	if (fsync(fd))
		return -1;
	close(fd);
	return 0;
}

static int remove_file(void **state)
{
	(void)state;
	unlink(path);
	return 0;
}

static void drop(void)
{
	int fd = open(path, O_RDONLY);

	assert_true(fd >= 0);
	assert_int_equal(posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED), 0);
	close(fd);
}

/* Dropped, every byte is read back; then nothing is missing. */
static void dropped_file_is_read_back_then_resident(void **state)
{
	int64_t got;

	(void)state;
	drop();
	got = cp_refetch_missing(path, FILE_BYTES);
	/* DONTNEED on a clean, unmapped file drops all of it; a page another
	 * process keeps would stay, so allow it to be short, never long */
	assert_true(got > 0 && got <= (int64_t)FILE_BYTES);
	assert_int_equal(cp_refetch_missing(path, FILE_BYTES), 0);
}

/* A resident file: nothing to read. */
static void resident_file_reads_nothing(void **state)
{
	(void)state;
	assert_true(cp_refetch_missing(path, FILE_BYTES) >= 0);
	assert_int_equal(cp_refetch_missing(path, FILE_BYTES), 0);
}

/* A missing file is an error with errno, not a count. */
static void missing_file_is_an_error(void **state)
{
	(void)state;
	errno = 0;
	assert_int_equal(cp_refetch_missing("/var/tmp/cp-resident-does-not-exist", 4096), -1);
	assert_int_equal(errno, ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(dropped_file_is_read_back_then_resident),
		cmocka_unit_test(resident_file_reads_nothing),
		cmocka_unit_test(missing_file_is_an_error),
	};

	return cmocka_run_group_tests(tests, make_file, remove_file);
}
