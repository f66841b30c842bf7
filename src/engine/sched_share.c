/*
 * sched_share.c - the CPU rates of kernel threads and of one autogroup's
 * tasks (sched_share.h), after the kernel's group scheduling on per-CPU
 * runqueues: kernel/sched/autogroup.c (a session's tasks form a group),
 * kernel/sched/fair.c calc_group_shares() (the group's per-CPU weight),
 * update_cfs_group(). Follows 4.11 through 6.18: the weights are the
 * same under CFS and EEVDF, which share a runqueue by weight.
 *
 * The fluid places the runnable tasks as the load balancer would spread
 * them: the group's tasks over m = min(tasks, CPUs) CPUs, its weight
 * 1/m of a nice-0 task on each of them; kernel threads first on the CPUs
 * the group leaves idle, one each, then as evenly as possible over the
 * group's CPUs. On a group CPU with j kernel threads each thread gets
 * 1 / (j + 1/m) of it, the group the rest. The threads' rates are
 * averaged (the balancer moves them); so are the group's tasks'.
 *
 * SIMPLIFIED: weights from the instantaneous runnable counts (the kernel
 * uses PELT load averages, which lag by tens of ms); every kernel thread
 * and task at nice 0; one autogroup; no wake-up latency or slices. No
 * per-CPU runqueues: the load balance (sched_balance_rq()) that leaves
 * tasks stacked on one CPU while another runs one task alone is not
 * simulated; cp_sched_split_light() gives the tasks it disfavours - in
 * the seed, fs_mark's workers, forked anew each loop and stacked beside
 * a reader for a fifth of fs_mark's time (docs/fidelity.md, sessions 37
 * and 44) - the share the machine gave them, as calibrate measures it.
 *
 * Below the guest's scheduler, a VM's vCPUs may share the host's CPUs
 * with the emulation of its disk: cp_sched_host_scale() takes that share
 * from every rate alike (the guest cannot see which vCPU waited).
 */
#include "engine/sched_share.h"

#include "core/bug.h"
#include "engine/work.h"

static uint64_t gcd_u64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

static struct cp_share share(uint64_t num, uint64_t den)
{
	uint64_t g = gcd_u64(num, den);

	CP_BUG_ON(!num || num > den);
	return (struct cp_share){ num / g, den / g };
}

/* n tasks of equal weight on cpus CPUs: min(1, cpus / n). */
static struct cp_share flat(unsigned cpus, unsigned n)
{
	return n <= cpus ? share(1, 1) : share(cpus, n);
}

void cp_sched_shares(unsigned nr_cpus, unsigned nr_kthreads, unsigned nr_tasks, bool autogroup,
		     struct cp_share *kthread, struct cp_share *task)
{
	uint64_t m, free_cpus, on_free, k, q, r, a, b;

	CP_BUG_ON(!nr_cpus);
	*kthread = *task = share(1, 1);
	if (!autogroup) {
		if (nr_kthreads + nr_tasks)
			*kthread = *task = flat(nr_cpus, nr_kthreads + nr_tasks);
		return;
	}
	if (!nr_tasks || !nr_kthreads) {
		/* one level only: the threads share the CPUs, or the group does */
		if (nr_kthreads)
			*kthread = flat(nr_cpus, nr_kthreads);
		if (nr_tasks)
			*task = flat(nr_cpus, nr_tasks);
		return;
	}
	m = nr_tasks < nr_cpus ? nr_tasks : nr_cpus;
	free_cpus = nr_cpus - m;
	on_free = nr_kthreads < free_cpus ? nr_kthreads : free_cpus;
	k = nr_kthreads - on_free; /* threads on the group's CPUs */
	if (!k) {
		*task = share(m, nr_tasks);
		return;
	}
	/* r of the m group CPUs hold q + 1 threads, m - r hold q. A CPU with
	 * j threads gives each 1 / (j + 1/m) = m / (jm + 1) and the group
	 * 1 / (jm + 1); a = qm + 1, b = (q + 1)m + 1 are the two denominators. */
	q = k / m;
	r = k % m;
	a = q * m + 1;
	b = (q + 1) * m + 1;
	*kthread = share(on_free * a * b + r * (q + 1) * m * a + (m - r) * q * m * b,
			 a * b * nr_kthreads);
	*task = share(r * a + (m - r) * b, a * b * nr_tasks);
}

void cp_sched_split_light(struct cp_share task, unsigned nr_heavy, unsigned nr_light,
			  struct cp_share light, struct cp_share *heavy_rate,
			  struct cp_share *light_rate)
{
	uint64_t n = (uint64_t)nr_heavy + nr_light, u_num, u_den;

	CP_BUG_ON(!light.num || light.num > light.den);
	*heavy_rate = *light_rate = task;
	if (!nr_heavy || !nr_light)
		return;
	/* u, the rate per unit weight: the group's CPUs over the weights */
	u_num = task.num * n * light.den;
	u_den = task.den * (nr_heavy * light.den + nr_light * light.num);
	if (u_num <= u_den) {
		*heavy_rate = share(u_num, u_den);
		*light_rate = share(task.num * n * light.num, u_den);
		return;
	}
	/* the heavy tasks at one CPU each, the light ones the rest */
	*heavy_rate = share(1, 1);
	*light_rate = share(task.num * n - task.den * nr_heavy, task.den * nr_light);
}

struct cp_share cp_sched_host_scale(struct cp_share rate, unsigned nr_cpus, struct cp_share host)
{
	uint64_t all = (uint64_t)nr_cpus * host.den, keep = all - host.num, num;

	CP_BUG_ON(!nr_cpus || !host.den || host.num >= host.den);
	if (!host.num)
		return rate;
	if (rate.den <= UINT64_MAX / all && rate.num <= UINT64_MAX / keep)
		return share(rate.num * keep, rate.den * all);
	/* too large to be exact: round the numerator down, at least 1 */
	num = cp_mul_div_u64(rate.num, keep, all);
	return share(num ? num : 1, rate.den);
}
