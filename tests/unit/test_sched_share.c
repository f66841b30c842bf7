/*
 * test_sched_share.c - the CPU rates of kernel threads and of an
 * autogroup's tasks (src/engine/sched_share.c). Every expected rate is
 * worked by hand from the kernel's weights: a nice-0 entity weighs 1024
 * (sched_prio_to_weight[20]); a group's 1024 shares are split over the
 * CPUs it runs on in proportion to its load there (calc_group_shares());
 * a CPU is shared among its runqueue's entities by weight.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "engine/sched_share.h"

static void expect(unsigned cpus, unsigned k, unsigned t, bool ag, uint64_t kn, uint64_t kd,
		   uint64_t tn, uint64_t td)
{
	struct cp_share ks, ts;

	cp_sched_shares(cpus, k, t, ag, &ks, &ts);
	assert_int_equal(ks.num, kn);
	assert_int_equal(ks.den, kd);
	assert_int_equal(ts.num, tn);
	assert_int_equal(ts.den, td);
}

/* Without autogroup every entity weighs the same: 5 on 2 CPUs get 2/5. */
static void without_autogroup_all_share_equally(void **state)
{
	(void)state;
	expect(2, 1, 4, false, 2, 5, 2, 5);
	expect(2, 0, 2, false, 1, 1, 1, 1); /* no more tasks than CPUs */
}

/* kswapd beside four tasks of one group on 2 CPUs: the group weighs 512
 * on each CPU, so kswapd's CPU goes 1024 : 512 - kswapd 2/3, the group
 * 1/3 there and all of the other CPU: 4/3 CPUs for 4 tasks, 1/3 each. */
static void a_kthread_gets_two_thirds_beside_a_group_on_two_cpus(void **state)
{
	(void)state;
	expect(2, 1, 4, true, 2, 3, 1, 3);
}

/* Two kernel threads, one per CPU, each against the group's 512:
 * 2/3 each; the group keeps 1/3 of each CPU, 2/3 for 4 tasks = 1/6. */
static void two_kthreads_take_two_thirds_of_each_cpu(void **state)
{
	(void)state;
	expect(2, 2, 4, true, 2, 3, 1, 6);
}

/* A one-task group runs on one CPU: a kernel thread takes the idle one. */
static void a_kthread_takes_a_cpu_the_group_leaves_idle(void **state)
{
	(void)state;
	expect(2, 1, 1, true, 1, 1, 1, 1);
	/* a second thread shares the group's CPU 1024 : 1024, so the
	 * threads average (1 + 1/2) / 2 = 3/4 and the task gets 1/2 */
	expect(2, 2, 1, true, 3, 4, 1, 2);
}

/* 4 CPUs, 4 tasks: the group weighs 256 per CPU, kswapd gets 1024/1280
 * = 4/5 of its CPU, the group 1/5 there and 3 other CPUs: 16/5 for 4
 * tasks = 4/5 - what a flat share of 5 entities on 4 CPUs gives too. */
static void four_cpus_four_tasks_match_the_flat_share(void **state)
{
	(void)state;
	expect(4, 1, 4, true, 4, 5, 4, 5);
	expect(4, 1, 4, false, 4, 5, 4, 5);
}

/* One level only: threads alone share the CPUs equally, so do tasks. */
static void one_class_alone_shares_the_cpus_equally(void **state)
{
	(void)state;
	expect(2, 3, 0, true, 2, 3, 1, 1);
	expect(2, 0, 3, true, 1, 1, 2, 3);
}

/* Three threads over a 2-task group on 2 CPUs: 1 and 2 threads per CPU
 * (q = 1, r = 1, m = 2). The CPU with 2 threads: each 1024/(2048+512) =
 * 2/5, the group 1/5; the one with 1: 2/3 and 1/3. Threads average
 * (2/5 + 2/5 + 2/3) / 3 = 22/45; tasks (1/5 + 1/3) / 2 = 4/15. */
static void threads_spread_as_evenly_as_the_cpus_allow(void **state)
{
	(void)state;
	expect(2, 3, 2, true, 22, 45, 4, 15);
}

static void expect_split(struct cp_share task, unsigned heavy, unsigned light, uint64_t ln,
			 uint64_t ld, uint64_t hn, uint64_t hd, uint64_t lrn, uint64_t lrd)
{
	struct cp_share h, l;

	cp_sched_split_light(task, heavy, light, (struct cp_share){ ln, ld }, &h, &l);
	assert_int_equal(h.num, hn);
	assert_int_equal(h.den, hd);
	assert_int_equal(l.num, lrn);
	assert_int_equal(l.den, lrd);
}

/* Two readers and two light workers (4/5 of a reader's rate) on 2 CPUs,
 * 1/2 a task: 2 CPUs over weights 1 + 1 + 4/5 + 4/5 = 18/5 give 5/9 a
 * unit - each reader 5/9 of a CPU, each worker 4/9 (together 2 CPUs). */
static void light_tasks_share_in_proportion_to_their_weight(void **state)
{
	(void)state;
	expect_split((struct cp_share){ 1, 2 }, 2, 2, 4, 5, 5, 9, 4, 9);
}

/* Water filling: a task never runs on more than one CPU. One reader and
 * two workers at 1/4 on 2 CPUs (2/3 a task): 2 / (1 + 1/2) = 4/3 a unit
 * would put the reader above one CPU, so it gets 1 and the workers the
 * other CPU, 1/2 each. One of each on 2 CPUs: both a whole CPU. */
static void a_task_is_never_given_more_than_one_cpu(void **state)
{
	(void)state;
	expect_split((struct cp_share){ 2, 3 }, 1, 2, 1, 4, 1, 1, 1, 2);
	expect_split((struct cp_share){ 1, 1 }, 1, 1, 4, 5, 1, 1, 1, 1);
}

/* Light tasks alone, or none, or a share of 1/1: the group's rate. */
static void without_both_kinds_the_group_rate_holds(void **state)
{
	(void)state;
	expect_split((struct cp_share){ 2, 3 }, 0, 3, 1, 2, 2, 3, 2, 3);
	expect_split((struct cp_share){ 2, 3 }, 3, 0, 1, 2, 2, 3, 2, 3);
	expect_split((struct cp_share){ 1, 2 }, 2, 2, 1, 1, 1, 2, 1, 2);
}

/* cp_sched_host_scale(): the host takes 258/1000 of a CPU from 2 busy
 * vCPUs, so each keeps (2 - 0.258) / 2 = 1742/2000 of its rate: a task at
 * 2/3 goes at 2/3 x 1742/2000 = 3484/6000 = 871/1500. Nothing taken,
 * nothing changes. */
static void the_host_takes_its_share_from_every_rate(void **state)
{
	struct cp_share r = cp_sched_host_scale((struct cp_share){ 2, 3 }, 2,
						(struct cp_share){ 258, 1000 });

	(void)state;
	assert_int_equal(r.num, 871);
	assert_int_equal(r.den, 1500);
	r = cp_sched_host_scale((struct cp_share){ 2, 3 }, 2, (struct cp_share){ 0, 1 });
	assert_int_equal(r.num, 2);
	assert_int_equal(r.den, 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(without_autogroup_all_share_equally),
		cmocka_unit_test(a_kthread_gets_two_thirds_beside_a_group_on_two_cpus),
		cmocka_unit_test(two_kthreads_take_two_thirds_of_each_cpu),
		cmocka_unit_test(a_kthread_takes_a_cpu_the_group_leaves_idle),
		cmocka_unit_test(four_cpus_four_tasks_match_the_flat_share),
		cmocka_unit_test(one_class_alone_shares_the_cpus_equally),
		cmocka_unit_test(threads_spread_as_evenly_as_the_cpus_allow),
		cmocka_unit_test(light_tasks_share_in_proportion_to_their_weight),
		cmocka_unit_test(a_task_is_never_given_more_than_one_cpu),
		cmocka_unit_test(without_both_kinds_the_group_rate_holds),
		cmocka_unit_test(the_host_takes_its_share_from_every_rate),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
