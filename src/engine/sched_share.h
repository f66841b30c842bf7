/*
 * sched_share.h - how fast each runnable task progresses when kernel
 * threads and the tasks of one autogroup share the CPUs.
 *
 * With sched_autogroup_enabled (kernel/sched/autogroup.c), every
 * session's tasks form a task group of their own; kernel threads stay in
 * the root group. On each CPU the root runqueue sees a kernel thread as
 * one entity of weight 1024 (nice 0) and the session's group as one
 * entity whose weight is the group's 1024 shares split over the CPUs in
 * proportion to its load there (calc_group_shares(), kernel/sched/fair.c).
 * So a kernel thread woken beside the group's tasks on 2 CPUs gets 1024 /
 * (1024 + 512) = 2/3 of its CPU, where a flat fair share among five tasks
 * would give it 2/5. Without autogroup every task is one entity of the
 * root runqueue: the CPUs are shared equally.
 *
 * The engine shares the CPUs as a fluid (engine.c); this file gives the
 * fluid's rates, in CPU-seconds per second, as exact fractions.
 */
#ifndef CP_SCHED_SHARE_H
#define CP_SCHED_SHARE_H

#include <stdbool.h>
#include <stdint.h>

/* A rate num / den CPU-seconds per second: 0 < num <= den. */
struct cp_share {
	uint64_t num, den;
};

/*
 * The rate of each runnable kernel thread (*kthread) and of each runnable
 * task of the session's group (*task) with nr_kthreads and nr_tasks of
 * them runnable on nr_cpus (>= 1) CPUs. A rate whose class has no
 * runnable member is 1/1.
 */
void cp_sched_shares(unsigned nr_cpus, unsigned nr_kthreads, unsigned nr_tasks, bool autogroup,
		     struct cp_share *kthread, struct cp_share *task);

/*
 * The group's CPUs (task x (nr_heavy + nr_light), task from
 * cp_sched_shares()) split when nr_light of its tasks get `light` (<= 1)
 * of another task's rate while both are runnable: the share the
 * machine's load balancing leaves fs_mark's freshly forked workers
 * beside the readers, which a fluid cannot place (engine.c
 * cp_engine_set_light_share()). Filled like water: in proportion to the
 * weights (1 and light) while no task passes one CPU, else the others at
 * one CPU each and the light ones the rest. Rates of a class with no
 * task are `task`.
 */
void cp_sched_split_light(struct cp_share task, unsigned nr_heavy, unsigned nr_light,
			  struct cp_share light, struct cp_share *heavy_rate,
			  struct cp_share *light_rate);

/*
 * rate scaled by (nr_cpus - host) / nr_cpus: what a runnable task keeps
 * when the host takes `host` (0 <= host < 1) of a CPU from nr_cpus busy
 * vCPUs to run the VM's virtual disk (engine.h
 * cp_engine_set_host_io_share()). Exact; host 0 gives rate back.
 */
struct cp_share cp_sched_host_scale(struct cp_share rate, unsigned nr_cpus, struct cp_share host);

#endif /* CP_SCHED_SHARE_H */
