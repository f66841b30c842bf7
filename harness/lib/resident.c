/*
 * resident.c - making a file wholly resident in the page cache again
 * (resident.h).
 */
#include "resident.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/alloc.h"

int64_t cp_refetch_missing(const char *path, uint64_t size_bytes)
{
	const uint64_t page = 4096, chunk = 1 << 20;
	uint64_t nr_pages = (size_bytes + page - 1) / page, i = 0, done = 0;
	unsigned char *vec = NULL;
	char *buf = NULL;
	void *map = MAP_FAILED;
	int fd = open(path, O_RDONLY | O_CLOEXEC), err = 0;

	if (fd < 0)
		return -1;
	if (!nr_pages) {
		close(fd);
		return 0;
	}
	vec = cp_malloc(nr_pages);
	buf = cp_malloc(chunk);
	map = mmap(NULL, size_bytes, PROT_READ, MAP_SHARED, fd, 0);
	if (!vec || !buf || map == MAP_FAILED || mincore(map, size_bytes, vec)) {
		err = errno ? errno : ENOMEM;
		goto out;
	}
	while (i < nr_pages) {
		uint64_t j, off, len;

		if (vec[i] & 1) {
			i++;
			continue;
		}
		for (j = i; j < nr_pages && !(vec[j] & 1) && (j - i) * page < chunk; j++)
			;
		off = i * page;
		len = (j - i) * page;
		if (off + len > size_bytes)
			len = size_bytes - off;
		if (pread(fd, buf, len, (off_t)off) < 0) {
			err = errno;
			goto out;
		}
		done += len;
		i = j;
	}
out:
	if (map != MAP_FAILED)
		munmap(map, size_bytes);
	cp_free(vec);
	cp_free(buf);
	close(fd);
	if (err) {
		errno = err;
		return -1;
	}
	return (int64_t)done;
}
