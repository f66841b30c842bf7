/*
 * validate.h - scenario validation, internal to src/scenario/.
 */
#ifndef CP_SCENARIO_VALIDATE_H
#define CP_SCENARIO_VALIDATE_H

#include "scenario/scenario.h"

/* Validates sc (cp_scenario_validate) and, when it passes, resolves the
 * file references (file_idx). set_arg, when not NULL, is the --set
 * argument that led here; messages then start with "--set ARG: ".
 * Returns 0 or -CP_EINVAL; on failure sc is unchanged. */
int cp_sc_validate_and_resolve(struct cp_scenario *sc, const char *set_arg,
			       struct cp_diag *diag);

#endif /* CP_SCENARIO_VALIDATE_H */
