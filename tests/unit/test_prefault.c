/* test_prefault.c - the prefault helper on tables in fresh anonymous
 * mappings: it faults in pages up to a bounded distance past what the
 * filler says it uses, follows a table that moved, never changes the
 * contents, and does nothing at all through a NULL helper. */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include "prefault.h"
#include "unit.h"

#define TP_MIB ((size_t)1 << 20)
#define TP_ELEM 64

static size_t tp_resident(const void *p, size_t n)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), np = n / page, got = 0;
	unsigned char v[8192];
	if (np > sizeof v || mincore((void *)(uintptr_t)p, n, v) != 0)
		return (size_t)-1;
	for (size_t k = 0; k < np; k++)
		got += v[k] & 1;
	return got;
}

/* What [p, p + n) holds once the helper is done with it: the count of
 * resident pages when it has reached want and not changed for 100 ms, or
 * after 5 s.  A helper running past its bound keeps the count moving. */
static size_t tp_wait(const void *p, size_t n, size_t want)
{
	struct timespec ms = { 0, 10 * 1000 * 1000 };
	size_t got = tp_resident(p, n);
	for (int k = 0, same = 0; k < 500 && (got < want || same < 10); k++) {
		nanosleep(&ms, NULL);
		size_t now = tp_resident(p, n);
		same = now == got ? same + 1 : 0;
		got = now;
	}
	return got;
}

static char *tp_map(size_t n)
{
	void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(p != MAP_FAILED);
	return p == MAP_FAILED ? NULL : p;
}

static void prefault_ahead(void)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), n = 16 * TP_MIB, cap = n / TP_ELEM;
	char *t = tp_map(n), *moved = tp_map(2 * n);
	struct prefault *p = prefault_start();
	if (!p || !t || !moved) {
		printf("  (prefault_ahead: skipped, no helper: the kernel cannot populate pages)\n");
		goto out;
	}
	memset(t, 0x5a, page);   /* the filler's first page, written before the helper sees it */
	prefault_hold(p);
	prefault_set(p, 0, 0, t, TP_ELEM, cap);
	prefault_release(p);
	prefault_used(p, 0, 0);
	/* 2 MiB ahead of nothing used: 2 MiB of pages, and no more. */
	CHECK_INT(tp_wait(t, n, 2 * TP_MIB / page), 2 * TP_MIB / page);
	prefault_used(p, 0, 8 * TP_MIB / TP_ELEM);
	CHECK_INT(tp_wait(t, n, 10 * TP_MIB / page), 10 * TP_MIB / page);
	CHECK(t[0] == 0x5a && t[page - 1] == 0x5a && t[page] == 0 && t[10 * TP_MIB - 1] == 0);
	/* Moved (as realloc does) to a mapping twice as large: the pages
	 * already done are taken as moved along; it goes on from there. */
	prefault_hold(p);
	prefault_set(p, 0, 0, moved, TP_ELEM, 2 * cap);
	prefault_release(p);
	prefault_used(p, 0, 20 * TP_MIB / TP_ELEM);
	CHECK_INT(tp_wait(moved, 2 * n, 12 * TP_MIB / page), 12 * TP_MIB / page);
	CHECK_INT(tp_resident(moved, 10 * TP_MIB), 0);
	/* Past the table's end nothing is touched. */
	prefault_used(p, 0, 2 * cap);
	CHECK_INT(tp_wait(moved, 2 * n, 22 * TP_MIB / page), 22 * TP_MIB / page);
out:
	prefault_stop(p);
	if (t)
		munmap(t, n);
	if (moved)
		munmap(moved, 2 * n);
}

/* Every call takes a NULL helper (no spare core) and does nothing (a
 * crash stops the run). */
static void prefault_null(void)
{
	char table[64];
	prefault_hold(NULL);
	prefault_set(NULL, 0, 0, table, 1, sizeof table);
	prefault_release(NULL);
	prefault_used(NULL, 0, 1);
	prefault_stop(NULL);
}

const struct unit_case unit_prefault_cases[] = {
	{ "prefault_ahead", prefault_ahead },
	{ "prefault_null", prefault_null },
	{ NULL, NULL },
};
