/*
 * calib_profile.h - writing the machine profile `cachepressure calibrate`
 * measured, and reading profiles back as sources: the profile calibrate
 * copies its unmeasured keys from (--from), and the profile a kernel-lab
 * guest measured (`calibrate --kernel`, labcal.h), whose measured keys
 * the host takes over with their comments.
 *
 * A source keeps each key's value (from inih) and the comment lines just
 * above it and its inline comment (read as text: inih drops comments).
 */
#ifndef CP_CALIB_PROFILE_H
#define CP_CALIB_PROFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "calibrate.h"

struct cp_diag;

#define CP_CALIB_SRC_MAX 64

struct cp_calib_src_key {
	char section[32], key[48], value[160];
	char comment[1024]; /* the comment lines above it and its inline comment, '\n'-ended */
};

struct cp_calib_source {
	const char *path; /* as named in the profile's comments (not owned) */
	struct cp_calib_src_key k[CP_CALIB_SRC_MAX];
	size_t nr;
};

/* Loads the profile file path. 0, -CP_ENOENT when it cannot be read,
 * -CP_EINVAL when it is not valid INI (diag names the file and line). */
int cp_calib_source_load(struct cp_calib_source *s, const char *path, struct cp_diag *diag);

/* The same from len bytes of text, named name in messages and comments. */
int cp_calib_source_parse(struct cp_calib_source *s, const char *name, const char *text,
			  size_t len, struct cp_diag *diag);

/* The key section/key of s, or NULL. */
const struct cp_calib_src_key *cp_calib_source_find(const struct cp_calib_source *s,
						    const char *section, const char *key);

/* Takes over the keys a lab guest measured: text (len bytes) is the
 * profile the guest's calibrate wrote. Each key of c (but name and
 * description) that has a value there becomes measured, with that value,
 * the guest's comment (its "measured: " prefix dropped, its "range: "
 * line into range) and then note on a line of its own; keys without a
 * value stay unmeasured (copied from --from by the writer). The guest's
 * fs_mark create rate is taken from its closing comment. Returns 0, or
 * -CP_EINVAL when the text is not valid INI or measured nothing. */
int cp_calib_take_guest(struct cp_calibration *c, const char *text, size_t len,
			const char *note, struct cp_diag *diag);

/* The mean of n >= 2 profiles calibrate wrote (paths), of one machine
 * and kernel, into c (cp_calibration_init'ed): a key measured in all with
 * the same value keeps it; one whose values differ, a rate or cost that
 * drifts (cp_calib_value.drifts), gets the mean (its unit kept, rounded
 * to a whole number when the inputs were whole), the inputs' values in
 * its comment and the widest of their ranges; the fs_mark create rate,
 * the mean of theirs. Keys no input measured stay unmeasured (they must
 * agree: the writer copies them from the first input). c's host and
 * kernel are the inputs'. -CP_EINVAL naming the file and key when a
 * setting differs (cpus, ram, zones, ...), a key is measured in some
 * only, a value is not a number or units differ, or a file is not a
 * calibrated profile; -CP_ENOENT when one cannot be read. */
int cp_calib_mean(struct cp_calibration *c, const char *const *paths, size_t n,
		  struct cp_diag *diag);

/* Profiles cp_calib_mean and cp_calib_median take at most. */
#define CP_CALIB_COMBINE_MAX 32

/* As cp_calib_mean, with the median of the inputs in place of their mean
 * (for an even number, the mean of the two middle values) for each key
 * that drifts and for fs_mark's create rate: a calibration taken while
 * the machine was disturbed (on grid s24 of docs/fidelity.md, two
 * calibrations a minute apart measured the copy and device rates at half
 * the others') moves a mean, not a median. Their comments say "median". */
int cp_calib_median(struct cp_calibration *c, const char *const *paths, size_t n,
		    struct cp_diag *diag);

/* Writes the profile: a header naming c->host, c->command, c->date and
 * c->kernel; each measured key with "measured: HOW" (and "range: ")
 * comment lines above it; each unmeasured key copied from src (may be
 * NULL or have no path) with its comments, or left as "; key =". */
void cp_calib_profile_write(FILE *out, const struct cp_calibration *c,
			    const struct cp_calib_source *src);

#endif /* CP_CALIB_PROFILE_H */
