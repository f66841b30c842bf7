/*
 * creator.h - fs_mark creating empty files.
 */
#ifndef CP_CREATOR_H
#define CP_CREATOR_H

#include "model/vmscan.h"
#include "sim/world.h"

struct cp_creator_group;

/* One fs_mark worker: the process fs_mark forks for one -d directory. */
struct cp_creator_worker {
	struct cp_task task;
	struct cp_creator_group *group;
	unsigned index;              /* which -d */
	struct cp_dentry *dir;       /* the -d directory (held) */
	struct cp_dentry *subdir;    /* current subdirectory (held), or NULL */
	uint64_t subdir_index;
	uint64_t subdir_since_ns;
	uint64_t files_in_loop;      /* created in the current loop */
	uint64_t loops_done;
	uint64_t nr_files;           /* created in total */
	bool in_loop;
	/* its names[] table (fs_mark.c: calloc(-n, sizeof(struct
	 * name_entry)), an anonymous mapping): the pages the entries
	 * written so far have touched, freed when the worker exits */
	uint64_t names_pages;
	/* its memcg reclaims for __GFP_FS charges go a priority level a
	 * step (model/memory.h cp_memcg_stepped): the state between them */
	struct cp_memcg_stepped stepped;
	struct cp_scan_control stepped_sc;
};

/* fs_mark itself: -n files per loop per worker, -L loops; the main
 * process waits for every worker before the next loop. */
struct cp_creator_group {
	struct cp_world *w;
	uint64_t files_per_loop, loops, subdirs, files_per_subdir;
	uint64_t secs_per_dir_ns, name_len, sync;
	struct cp_creator_worker *workers;
	unsigned nr_workers;
	unsigned nr_done_loop;       /* workers finished with the current loop */
	uint64_t loop;               /* loops completed by all workers */
	uint64_t nr_subdirs_made;
	uint64_t nr_names_faults;    /* names[] pages the workers faulted in */
	/* fs_mark's main process: an actor that ends when the last loop is
	 * done, so other actors can stop with it or start after it */
	struct cp_task main_task;
	bool workers_started;
	/* when the workers were forked and when the main process exited:
	 * fs_mark's run time (the real harness times the process) */
	uint64_t start_ns, stop_ns;
	bool stopped;
};

extern const struct cp_actor_ops cp_creator_ops;

/* The main process: add it START_BLOCKED; it stops when woken after the
 * last loop. */
extern const struct cp_actor_ops cp_creator_main_ops;

/* fs_mark.h struct name_entry: the bytes of a worker's names[] table
 * per file (f_name[128] + write_buf_path[40] + fsync_buf_path[40];
 * measured: RssAnon of an fs_mark -n 200000 worker grows 190-211 B a
 * file created). */
#define CP_FS_MARK_NAME_ENTRY_BYTES 208u

/* The name id of file `i` of worker `worker` (walkers stat the same). */
uint64_t cp_creator_name_id(unsigned worker, uint64_t i);

/* The name id of subdirectory `i` (fs_mark names them by number). */
uint64_t cp_creator_subdir_id(uint64_t i);

#endif /* CP_CREATOR_H */
