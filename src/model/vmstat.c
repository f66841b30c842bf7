/*
 * vmstat.c - names of the event counters (mm/vmstat.c vmstat_text).
 */
#include "model/vmstat.h"

#define CP_VMSTAT_NAME(e, name) name,
static const char *const vmstat_names[CP_NR_VMSTAT] = { CP_VMSTAT_ITEMS(CP_VMSTAT_NAME) };
#undef CP_VMSTAT_NAME

const char *cp_vmstat_name(enum cp_vmstat_item i)
{
	return (unsigned)i < CP_NR_VMSTAT ? vmstat_names[i] : "unknown";
}
