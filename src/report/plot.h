/*
 * plot.h - the input of `cachepressure plot`: gnuplot data files and a
 * gnuplot script drawing, for every run of a JSON file (model and real
 * overlaid), the page cache and the reclaimable slab over time and the
 * bytes each reader re-read per pass.
 *
 * Only files are written here; the CLI makes the directory, runs gnuplot
 * on the script and removes the files.
 */
#ifndef CP_REPORT_PLOT_H
#define CP_REPORT_PLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cachepressure/result.h>

struct cp_diag;

enum cp_plot_quantity {
	CP_PLOT_PAGECACHE, /* page cache bytes */
	CP_PLOT_SLAB,      /* reclaimable slab bytes */
};

/* The quantity at series row `row` of r, in bytes. The model's series
 * has pages (pagecache_pages; slab_dentry_pages + slab_name_pages +
 * slab_inode_pages + slab_ili_pages), the real one bytes (file_bytes;
 * slab_reclaimable_bytes, or kmem_bytes in a cgroup v1). Returns false
 * when r's series has no such column (or row is out of range). */
bool cp_plot_value(const struct cp_run_result *r, enum cp_plot_quantity q, size_t row,
		   int64_t *bytes);

/* The legend label of r's group: "model (patched, linux-6.x)", "real
 * (6.18.44)". No single quotes. */
void cp_plot_label(char *buf, size_t len, const struct cp_run_result *r);

/* Groups runs[0..n) by label, numbered from 0 in order of first
 * appearance: group_of[i] is run i's (group_of holds n). Returns the
 * number of groups. Each group is one colour and one legend entry. */
size_t cp_plot_groups(const struct cp_run_result *runs, size_t n, size_t *group_of);

enum cp_plot_format { CP_PLOT_SVG, CP_PLOT_PNG };

/* ".svg" / ".png" at the end of path (any case). -CP_EINVAL otherwise. */
int cp_plot_format_of(const char *path, enum cp_plot_format *fmt);

/* Writes into the existing directory dir the data files and dir/plot.gp,
 * the script that draws runs[0..n) into output (format fmt). output must
 * not contain a quote or a newline (-CP_EINVAL). Returns 0, -CP_EINVAL
 * (no run, or no run with a series or a pass), -CP_EIO, -CP_ENOMEM; diag
 * says which. The caller removes the files: cp_plot_remove_files(). */
int cp_plot_write_files(const char *dir, const struct cp_run_result *runs, size_t n,
			const char *output, enum cp_plot_format fmt, struct cp_diag *diag);

/* Removes what cp_plot_write_files() may have written for n runs into
 * dir (not dir itself). */
void cp_plot_remove_files(const char *dir, const struct cp_run_result *runs, size_t n);

#endif /* CP_REPORT_PLOT_H */
