/*
 * walker.h - the seed author's read-dir: readdir + stat in a loop.
 */
#ifndef CP_WALKER_H
#define CP_WALKER_H

#include "sim/world.h"

struct cp_walker {
	struct cp_task task;
	struct cp_dentry *dir;      /* the directory walked (held) */
	unsigned creator_worker;    /* whose files it holds (their name ids) */
	uint64_t nr_entries;        /* entries in the directory */
	uint64_t pos;               /* next entry */
	uint64_t nr_passes;         /* completed passes */
	uint64_t nr_misses;         /* inodes allocated by lookups: icache misses */
	uint64_t nr_misses_pass;
	uint64_t nr_since_cluster;  /* misses since the last cluster read */
};

extern const struct cp_actor_ops cp_walker_ops;

#endif /* CP_WALKER_H */
