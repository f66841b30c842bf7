/*
 * test_engine_work.c - the cost model (counts of work -> CPU ns) and the
 * overflow-safe arithmetic under it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <string.h>

#include "engine/machine.h"
#include "engine/work.h"

static void machine_costs(struct cp_work_cost *c)
{
	struct cp_machine m;

	cp_machine_init(&m);
	m.copy_bandwidth_bps = 1ULL << 30; /* 1 GiB/s */
	m.read_syscall_ns = 1000;
	m.page_cached_ns = 50;
	m.page_insert_ns = 400;
	m.lru_evict_ns = 100;
	m.lru_evict_page_ns = 10;
	m.lru_move_ns = 30;
	m.lru_move_page_ns = 3;
	m.slab_scan_ns = 1000;
	m.object_free_ns = 200;
	cp_work_cost_from_machine(c, &m);
}

/* The cost of one 1 MiB read() of cached data held in `folios` folios. */
static uint64_t cached_mib_read_ns(uint64_t folios)
{
	struct cp_work_cost c;
	struct cp_work w = { 0 };

	machine_costs(&c);
	w.nr_read_calls = 1;
	w.nr_copied_bytes = 1 << 20;
	w.nr_cached_folios = folios;
	return cp_work_cpu_ns(&c, &w);
}

/* One 1 MiB read() of cached order-0 pages: 1000 (syscall)
 * + ceil(2^20 * 1e9 / 2^30) = ceil(976562.5) = 976563 (copy)
 * + 256 folios x 50 = 12800 (lookups) = 990363 ns. */
static void cached_read_costs_syscall_copy_and_lookups(void **state)
{
	(void)state;
	assert_int_equal(cached_mib_read_ns(256), 990363);
}

/* filemap_read() looks up and marks a folio once, whatever its size:
 * the same 1 MiB in two order-7 folios costs 1000 + 976563 + 2 x 50 =
 * 977663 ns. */
static void cached_read_of_large_folios_costs_a_lookup_per_folio(void **state)
{
	(void)state;
	assert_int_equal(cached_mib_read_ns(2), 977663);
}

/* Readahead allocates, charges, inserts and completes a folio once, and
 * each further page of a large folio costs page_insert_page_ns (measured:
 * scripts/measure-read-cost.sh): one order-8 folio = 400 + 255 x 7 =
 * 2185 ns; 256 order-0 folios = 256 x 400 = 102400 ns. */
static void insertion_costs_per_folio_plus_per_further_page(void **state)
{
	struct cp_work_cost c;
	struct cp_work w = { 0 };

	(void)state;
	machine_costs(&c);
	c.page_insert_page_ns = 7;
	w.nr_inserted_folios = 1;
	w.nr_inserted_pages = 256;
	assert_int_equal(cp_work_cpu_ns(&c, &w), 2185);
	w.nr_inserted_folios = 256;
	assert_int_equal(cp_work_cpu_ns(&c, &w), 102400);
}

/* Every field has its own unit cost:
 * 32 inserted x 400 = 12800, 1000 order-0 folios evicted x 100 = 100000,
 * 10 objects scanned x 1000 = 10000, 5 freed x 200 = 1000,
 * 3 creates x 20000 = 60000, 3 mkdir lookups x 1500 = 4500,
 * 2 stats x 1500 = 3000, 1 inode read x 20000 = 20000; sum 211300. */
static void each_kind_of_work_has_its_unit_cost(void **state)
{
	struct cp_work_cost c;
	struct cp_work w = { 0 };

	(void)state;
	machine_costs(&c);
	c.create_cpu_ns = 20000;
	c.mkdir_lookup_ns = 1500;
	c.stat_cpu_ns = 1500;
	c.inode_read_ns = 20000;
	w.nr_inserted_folios = 32;
	w.nr_inserted_pages = 32;
	w.nr_lru_evicted_folios = 1000;
	w.nr_lru_evicted_pages = 1000;
	w.nr_slab_scanned_objects = 10;
	w.nr_freed_objects = 5;
	w.nr_created_files = 3;
	w.nr_mkdir_lookups = 3;
	w.nr_stats = 2;
	w.nr_inode_reads = 1;
	assert_int_equal(cp_work_cpu_ns(&c, &w), 211300);
}

/* Reclaim handles a folio whole (shrink_folio_list, shrink_active_list):
 * a cost per folio and a smaller one per further page. Evicting 2 folios
 * of 512 pages: 2 x 100 + 1022 x 10 = 10420; deactivating 3 order-0
 * folios and one of 16 pages: 4 x 30 + 15 x 3 = 165; sum 10585. */
static void lru_work_costs_per_folio_plus_per_further_page(void **state)
{
	struct cp_work_cost c;
	struct cp_work w = { 0 };

	(void)state;
	machine_costs(&c);
	w.nr_lru_evicted_folios = 2;
	w.nr_lru_evicted_pages = 1024;
	w.nr_lru_moved_folios = 4;
	w.nr_lru_moved_pages = 19;
	assert_int_equal(cp_work_cpu_ns(&c, &w), 10585);
}

/* Filesystem costs start at zero: a machine alone cannot price creates. */
static void machine_costs_leave_filesystem_costs_zero(void **state)
{
	struct cp_work_cost c;
	struct cp_work w = { 0 };

	(void)state;
	machine_costs(&c);
	w.nr_created_files = 1000;
	assert_int_equal(cp_work_cpu_ns(&c, &w), 0);
	assert_int_equal(c.create_cpu_ns, 0);
	assert_int_equal(c.inode_read_ns, 0);
}

static void work_adds_field_by_field(void **state)
{
	struct cp_work a = { 0 }, b = { 0 };

	(void)state;
	a.nr_copied_bytes = 1;
	a.nr_stats = 2;
	b.nr_copied_bytes = 10;
	b.nr_inode_reads = 7;
	b.nr_written_bytes = 5;
	cp_work_add(&a, &b);
	assert_int_equal(a.nr_copied_bytes, 11);
	assert_int_equal(a.nr_stats, 2);
	assert_int_equal(a.nr_inode_reads, 7);
	assert_int_equal(a.nr_written_bytes, 5);
}

/* A buffered write() priced at the machine's buffered_write_bandwidth,
 * the whole write path: 1 MiB at 700 MiB/s = ceil(2^20 * 1e9 / (700 *
 * 2^20)) = ceil(1428571.43) = 1428572 ns, nothing else added. */
static void buffered_write_costs_its_bytes_at_the_write_rate(void **state)
{
	struct cp_work_cost c;
	struct cp_work w = { 0 };

	(void)state;
	machine_costs(&c);
	c.buffered_write_bandwidth_bps = 700ULL << 20;
	w.nr_written_bytes = 1 << 20;
	assert_int_equal(cp_work_cpu_ns(&c, &w), 1428572);
	w.nr_written_bytes = 0;
	assert_int_equal(cp_work_cpu_ns(&c, &w), 0);
}

static void costs_saturate_instead_of_wrapping(void **state)
{
	struct cp_work_cost c;
	struct cp_work w = { 0 };

	(void)state;
	machine_costs(&c);
	w.nr_lru_evicted_folios = UINT64_MAX / 2; /* x 100 does not fit */
	w.nr_lru_evicted_pages = UINT64_MAX / 2;
	w.nr_read_calls = 1;
	assert_int_equal(cp_work_cpu_ns(&c, &w), UINT64_MAX);
}

/* Transfers round up to a whole ns: a byte at 3 B/s takes 333333333.3 ns. */
static void transfer_time_rounds_up(void **state)
{
	(void)state;
	assert_int_equal(cp_transfer_ns(1, 3), 333333334);
	assert_int_equal(cp_transfer_ns(1000, 1000000000), 1000); /* exact */
	assert_int_equal(cp_transfer_ns(0, 7), 0);
	/* 6.5 GiB at 2800 MiB/s: 6656 MiB / 2800 MiB/s = 2.377142857.. s */
	assert_int_equal(cp_transfer_ns(6656ULL << 20, 2800ULL << 20), 2377142858ULL);
}

/* a * b overflows 64 bits here; the 128-bit path must give the exact
 * quotient: 2^62 * 8 / 16 = 2^61; 1e12 * 1e9 / 3e9 = 333333333333. */
static void mul_div_is_exact_past_64_bits(void **state)
{
	(void)state;
	assert_int_equal(cp_mul_div_u64(1ULL << 62, 8, 16), 1ULL << 61);
	assert_int_equal(cp_mul_div_u64(1000000000000ULL, 1000000000ULL, 3000000000ULL),
			 333333333333ULL);
	assert_int_equal(cp_mul_div_u64(UINT64_MAX, UINT64_MAX, UINT64_MAX), UINT64_MAX);
	assert_int_equal(cp_mul_div_u64(UINT64_MAX - 1, UINT64_MAX, UINT64_MAX), UINT64_MAX - 1);
	assert_int_equal(cp_mul_div_u64(1ULL << 63, 4, 1), UINT64_MAX); /* saturates */
	assert_int_equal(cp_mul_div_u64(7, 0, 3), 0);
}

/* The shared memory bus: copy_bandwidth 10, memory_bandwidth 16 (units
 * of 1e9 B/s), 2 CPUs. One copier alone: 10 (its own limit). Two copiers
 * among 2 runnable: m = 2 x min(1, 2/2) = 2 in flight, 16 / 2 = 8 each.
 * Two copiers among 4 runnable: m = 2 x 2/4 = 1: no contention, 10.
 * Three copiers among 3 runnable: m = 3 x 2/3 = 2: 8. No
 * memory_bandwidth: 10 whatever the count. */
static void copy_bandwidth_is_shared_by_the_copies_in_flight(void **state)
{
	struct cp_work_cost c;

	(void)state;
	machine_costs(&c);
	c.copy_bandwidth_bps = 10000000000ULL;
	c.memory_bandwidth_bps = 16000000000ULL;
	assert_int_equal(cp_copy_bandwidth(&c, 1, 1, 2), 10000000000ULL);
	assert_int_equal(cp_copy_bandwidth(&c, 2, 2, 2), 8000000000ULL);
	assert_int_equal(cp_copy_bandwidth(&c, 2, 4, 2), 10000000000ULL);
	assert_int_equal(cp_copy_bandwidth(&c, 3, 3, 2), 8000000000ULL);
	/* one CPU: one copy in flight however many copiers */
	assert_int_equal(cp_copy_bandwidth(&c, 3, 3, 1), 10000000000ULL);
	c.memory_bandwidth_bps = 0;
	assert_int_equal(cp_copy_bandwidth(&c, 2, 2, 2), 10000000000ULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cached_read_costs_syscall_copy_and_lookups),
		cmocka_unit_test(cached_read_of_large_folios_costs_a_lookup_per_folio),
		cmocka_unit_test(insertion_costs_per_folio_plus_per_further_page),
		cmocka_unit_test(each_kind_of_work_has_its_unit_cost),
		cmocka_unit_test(lru_work_costs_per_folio_plus_per_further_page),
		cmocka_unit_test(machine_costs_leave_filesystem_costs_zero),
		cmocka_unit_test(work_adds_field_by_field),
		cmocka_unit_test(buffered_write_costs_its_bytes_at_the_write_rate),
		cmocka_unit_test(costs_saturate_instead_of_wrapping),
		cmocka_unit_test(transfer_time_rounds_up),
		cmocka_unit_test(mul_div_is_exact_past_64_bits),
		cmocka_unit_test(copy_bandwidth_is_shared_by_the_copies_in_flight),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
