/* test_size.c - unit tests of size.c: element widths, dense bytes, XLA's
 * ArraySize over the first tile (MEMORY_FACTS §1.3), the default TPU tilings
 * of §1.4, tile printing and XLA's human-readable units.  Hand-checked
 * numbers are spelled out next to each case. */
#include <string.h>
#include "size.h"
#include "unit.h"

/* A layout with minor_to_major m2m (rank n) and up to two tiles. */
struct tl {
	struct hlo_layout l;
	struct hlo_tile t[2];
	int64_t m2m[8], d0[4], d1[4];
};

static const struct hlo_layout *tl_make(struct tl *x, uint32_t n, const int64_t *m2m, uint32_t r0,
					const int64_t *t0, uint32_t r1, const int64_t *t1)
{
	memset(x, 0, sizeof *x);
	x->l.rank = n;
	if (n)
		memcpy(x->m2m, m2m, n * sizeof *m2m);
	x->l.minor_to_major = x->m2m;
	x->l.tail_padding = 1;
	if (r0) {
		memcpy(x->d0, t0, r0 * sizeof *t0);
		x->t[0].rank = r0;
		x->t[0].dims = x->d0;
		x->l.ntiles = 1;
	}
	if (r1) {
		memcpy(x->d1, t1, r1 * sizeof *t1);
		x->t[1].rank = r1;
		x->t[1].dims = x->d1;
		x->l.ntiles = 2;
	}
	x->l.tiles = x->t;
	return &x->l;
}

static struct size_array arr(enum ptype t, uint32_t rank, const int64_t *dims, const struct hlo_layout *l)
{
	struct size_array a = { t, rank, dims, l };
	return a;
}

static void test_widths(void)
{
	CHECK_INT(size_type_bits(PT_PRED), 8);
	CHECK_INT(size_byte_width(PT_PRED), 1);
	CHECK_INT(size_byte_width(PT_S4), 1);  /* whole byte without E(4) */
	CHECK_INT(size_byte_width(PT_U2), 1);
	CHECK_INT(size_byte_width(PT_S1), 1);
	CHECK_INT(size_byte_width(PT_F4E2M1FN), 1);
	CHECK_INT(size_byte_width(PT_F6E3M2FN), 1);
	CHECK_INT(size_byte_width(PT_F8E4M3FN), 1);
	CHECK_INT(size_byte_width(PT_BF16), 2);
	CHECK_INT(size_byte_width(PT_F32), 4);
	CHECK_INT(size_byte_width(PT_S64), 8);
	CHECK_INT(size_byte_width(PT_C64), 8);
	CHECK_INT(size_byte_width(PT_C128), 16);
	CHECK_INT(size_byte_width(PT_TOKEN), 0);
	CHECK_INT(size_byte_width(PT_TUPLE), 0);
}

static void test_dense(void)
{
	int64_t d[] = { 7 }, d2[] = { 3, 3 }, d3[] = { 2, 0, 5 }, dq[] = { -1, 4 };
	struct size_array a = arr(PT_S4, 1, d, NULL);
	CHECK_INT(size_dense(&a), 7);                /* s4[7]{0}: one byte each */
	struct hlo_layout e4 = { .rank = 1, .minor_to_major = (int64_t[]){ 0 }, .tail_padding = 1, .element_bits = 4 };
	a.layout = &e4;
	CHECK_INT(size_dense(&a), 4);                /* ceil(28 / 8) */
	struct hlo_layout e4b = { .rank = 2, .minor_to_major = (int64_t[]){ 1, 0 }, .tail_padding = 1, .element_bits = 4 };
	a = arr(PT_U4, 2, d2, &e4b);
	CHECK_INT(size_dense(&a), 5);                /* ceil(36 / 8) */
	a = arr(PT_F32, 3, d3, NULL);
	CHECK_INT(size_dense(&a), 0);                /* a zero dim */
	a = arr(PT_F32, 2, dq, NULL);
	CHECK_INT(size_dense(&a), 0);                /* '?' counts as 0 */
	a = arr(PT_C128, 2, d2, NULL);
	CHECK_INT(size_dense(&a), 9 * 16);
	a = arr(PT_TOKEN, 0, NULL, NULL);
	CHECK_INT(size_dense(&a), 0);
	a = arr(PT_F32, 0, NULL, NULL);
	CHECK_INT(size_dense(&a), 4);
	CHECK_INT(size_dense_bits(&a, 2), 1);        /* ceil(2 / 8) */
}

static void test_array_size(void)
{
	struct tl x;
	/* bf16[129,1024]{1,0:T(8,128)(2,1)}: 136*1024*2; the (2,1) adds nothing. */
	int64_t d1[] = { 129, 1024 };
	struct size_array a = arr(PT_BF16, 2, d1, tl_make(&x, 2, (int64_t[]){ 1, 0 }, 2, (int64_t[]){ 8, 128 }, 2,
							(int64_t[]){ 2, 1 }));
	CHECK_INT(size_padded(&a), 278528);
	CHECK_INT(size_dense(&a), 264192);
	/* f32[1024,245,64]{1,2,0:T(8,128)}: physical minor dim1 245->256,
	 * second-minor dim2 64, major dim0: 1024*64*256*4. */
	int64_t d2[] = { 1024, 245, 64 };
	a = arr(PT_F32, 3, d2, tl_make(&x, 3, (int64_t[]){ 1, 2, 0 }, 2, (int64_t[]){ 8, 128 }, 0, NULL));
	CHECK_INT(size_padded(&a), 67108864);
	/* The same array in the default order: 64->128, 245->248: 1024*248*128*4. */
	a = arr(PT_F32, 3, d2, tl_make(&x, 3, (int64_t[]){ 2, 1, 0 }, 2, (int64_t[]){ 8, 128 }, 0, NULL));
	CHECK_INT(size_padded(&a), 130023424);
	/* Scalar {:T(128)}: the tile's dims count as 1: 128 elements. */
	a = arr(PT_F32, 0, NULL, tl_make(&x, 0, NULL, 1, (int64_t[]){ 128 }, 0, NULL));
	CHECK_INT(size_padded(&a), 512);
	/* pred[]{:T(512)}: 512 bytes. */
	a.type = PT_PRED;
	a.layout = tl_make(&x, 0, NULL, 1, (int64_t[]){ 512 }, 0, NULL);
	CHECK_INT(size_padded(&a), 512);
	/* Rank-1 f32[300]{0:T(256)}: 512 elements. */
	int64_t d3[] = { 300 };
	a = arr(PT_F32, 1, d3, tl_make(&x, 1, (int64_t[]){ 0 }, 1, (int64_t[]){ 256 }, 0, NULL));
	CHECK_INT(size_padded(&a), 2048);
	/* A 2-D tile on a rank-1 array: the missing second-minor dim is 1 -> 8. */
	a.layout = tl_make(&x, 1, (int64_t[]){ 0 }, 2, (int64_t[]){ 8, 128 }, 0, NULL);
	CHECK_INT(size_padded(&a), 8 * 384 * 4);
	/* f32[3,5]{1,0:T(8,128)L(2048)}: 1024 elements -> 2048. */
	int64_t d4[] = { 3, 5 };
	a = arr(PT_F32, 2, d4, tl_make(&x, 2, (int64_t[]){ 1, 0 }, 2, (int64_t[]){ 8, 128 }, 0, NULL));
	x.l.tail_padding = 2048;
	CHECK_INT(size_padded(&a), 8192);
	/* L without tiles: ArraySize returns ByteSizeOfElements. */
	a = arr(PT_F32, 1, d3, tl_make(&x, 1, (int64_t[]){ 0 }, 0, NULL, 0, NULL));
	x.l.tail_padding = 1024;
	CHECK_INT(size_padded(&a), 1200);
	/* s4[1000,129]{1,0:T(8,128)(8,1)E(4)}: 1000*256 elements * 4 bits. */
	int64_t d5[] = { 1000, 129 };
	a = arr(PT_S4, 2, d5, tl_make(&x, 2, (int64_t[]){ 1, 0 }, 2, (int64_t[]){ 8, 128 }, 2, (int64_t[]){ 8, 1 }));
	x.l.element_bits = 4;
	CHECK_INT(size_padded(&a), 128000);
	CHECK_INT(size_dense(&a), 64500);
	/* pred[14,40,100,128]{3,0,2,1:T(8,128)(4,1)}: 128*16*100*40. */
	int64_t d6[] = { 14, 40, 100, 128 };
	a = arr(PT_PRED, 4, d6, tl_make(&x, 4, (int64_t[]){ 3, 0, 2, 1 }, 2, (int64_t[]){ 8, 128 }, 2,
					  (int64_t[]){ 4, 1 }));
	CHECK_INT(size_padded(&a), 8192000);
	/* '*' combines a dim into the next more-minor one before rounding:
	 * f32[3,5]{1,0:T(*,128)}: 15 elements -> 128. */
	a = arr(PT_F32, 2, d4, tl_make(&x, 2, (int64_t[]){ 1, 0 }, 2, (int64_t[]){ -1, 128 }, 0, NULL));
	CHECK_INT(size_padded(&a), 512);
	/* Split config SC(0:300) on f32[1000,128]{1,0:T(8,128)}: the largest
	 * piece of dim 0 is 700 rows. */
	int64_t d7[] = { 1000, 128 };
	int64_t ix[] = { 300 };
	struct hlo_split sp = { 0, 1, ix };
	a = arr(PT_F32, 2, d7, tl_make(&x, 2, (int64_t[]){ 1, 0 }, 2, (int64_t[]){ 8, 128 }, 0, NULL));
	x.l.nsplits = 1;
	x.l.splits = &sp;
	CHECK_INT(size_padded(&a), 704 * 128 * 4);
	/* Saturation instead of overflow. */
	int64_t huge[] = { INT64_MAX, INT64_MAX };
	a = arr(PT_F32, 2, huge, NULL);
	CHECK(size_dense(&a) == UINT64_MAX);
}

static void test_default_tiles(void)
{
	uint64_t lo, hi, un;
	struct size_tile t;
	char buf[64];
	/* bf16[129,1024] on v5e: T(8,128)(2,1), certain before TPU7x. */
	int64_t d1[] = { 129, 1024 };
	struct size_array a = arr(PT_BF16, 2, d1, NULL);
	size_tpu_default(&a, 5, &lo, &hi, &un);
	CHECK_INT(lo, 278528);
	CHECK_INT(hi, 278528);
	CHECK_INT(un, 264192);
	size_tpu_default_tile(&a, 5, false, &t);
	size_tile_format(&t, buf, sizeof buf);
	CHECK_STR(buf, "T(8,128)(2,1)");
	/* On TPU7x the large 16-bit tile is possible: 144*1024*2. */
	size_tpu_default(&a, 7, &lo, &hi, NULL);
	CHECK_INT(lo, 278528);
	CHECK_INT(hi, 144 * 1024 * 2);
	CHECK(size_tpu_default_tile(&a, 7, true, &t));
	size_tile_format(&t, buf, sizeof buf);
	CHECK_STR(buf, "T(16,128)(2,1)");
	/* 32-bit second-minor 1 / 2 / 3 / 5 -> 1 / 2 / 4 / 8 on v4+. */
	int64_t sm[] = { 1, 2, 3, 5 }, want[] = { 1, 2, 4, 8 };
	for (int k = 0; k < 4; k++) {
		int64_t d[] = { sm[k], 256 };
		a = arr(PT_F32, 2, d, NULL);
		size_tpu_default(&a, 4, &lo, &hi, NULL);
		CHECK_INT(lo, want[k] * 256 * 4);
		CHECK_INT(hi, lo);
		CHECK(!size_tpu_default_tile(&a, 4, true, &t));   /* no large form for 32-bit */
	}
	/* v2/v3 start at 2: f32[1,128] -> T(2,128). */
	int64_t d2[] = { 1, 128 };
	a = arr(PT_F32, 2, d2, NULL);
	size_tpu_default(&a, 3, &lo, &hi, NULL);
	CHECK_INT(lo, 2 * 128 * 4);
	/* f32[2048,1,2048] -> T(1,128): no padding at all. */
	int64_t d3[] = { 2048, 1, 2048 };
	a = arr(PT_F32, 3, d3, NULL);
	size_tpu_default(&a, 5, &lo, &hi, NULL);
	CHECK_INT(lo, 2048LL * 2048 * 4);
	/* s8[100,100]: T(8,128)(4,1) 104*128 or T(32,128)(4,1) 128*128. */
	int64_t d4[] = { 100, 100 };
	a = arr(PT_S8, 2, d4, NULL);
	size_tpu_default(&a, 5, &lo, &hi, NULL);
	CHECK_INT(lo, 104 * 128);
	CHECK_INT(hi, 128 * 128);
	/* s4[64,256]: T(8,128)(8,1)E(4), packed. */
	int64_t d5[] = { 64, 256 };
	a = arr(PT_S4, 2, d5, NULL);
	size_tpu_default(&a, 5, &lo, &hi, &un);
	CHECK_INT(lo, 8192);
	CHECK_INT(un, 8192);
	size_tpu_default_tile(&a, 5, false, &t);
	size_tile_format(&t, buf, sizeof buf);
	CHECK_STR(buf, "T(8,128)(8,1)E(4)");
	/* Rank 1, 32-bit: n<=128 T(128), <=256 T(256), <=512 T(512), else T(1024). */
	int64_t n1[] = { 100, 200, 300, 5000 }, t1[] = { 128, 256, 512, 1024 };
	for (int k = 0; k < 4; k++) {
		int64_t d[] = { n1[k] };
		a = arr(PT_S32, 1, d, NULL);
		size_tpu_default_tile(&a, 5, false, &t);
		CHECK_INT(t.dims[0], t1[k]);
	}
	/* bf16 rank 1: from T(256)(128)(2,1) up to T(1024)(128)(2,1). */
	int64_t d6[] = { 128 };
	a = arr(PT_BF16, 1, d6, NULL);
	size_tpu_default_tile(&a, 5, false, &t);
	size_tile_format(&t, buf, sizeof buf);
	CHECK_STR(buf, "T(256)(128)(2,1)");
	int64_t d7[] = { 6144 };
	a = arr(PT_BF16, 1, d7, NULL);
	size_tpu_default_tile(&a, 5, false, &t);
	size_tile_format(&t, buf, sizeof buf);
	CHECK_STR(buf, "T(1024)(128)(2,1)");
	/* Scalars: f32 T(128), bf16 T(256), pred T(512) on v4+; twice on v2/v3. */
	a = arr(PT_F32, 0, NULL, NULL);
	size_tpu_default(&a, 5, &lo, &hi, NULL);
	CHECK_INT(lo, 512);
	size_tpu_default(&a, 2, &lo, &hi, NULL);
	CHECK_INT(lo, 1024);
	a.type = PT_BF16;
	size_tpu_default_tile(&a, 5, false, &t);
	CHECK_INT(t.dims[0], 256);
	a.type = PT_PRED;
	size_tpu_default_tile(&a, 5, false, &t);
	CHECK_INT(t.dims[0], 512);
	/* Physical order decides the second-minor dim: f32[3,1000]{0,1}:
	 * minor is dim0 (3 -> 128), second-minor dim1 (1000 -> 1000). */
	struct tl x;
	int64_t d8[] = { 3, 1000 };
	a = arr(PT_F32, 2, d8, tl_make(&x, 2, (int64_t[]){ 0, 1 }, 0, NULL, 0, NULL));
	size_tpu_default(&a, 5, &lo, &hi, NULL);
	CHECK_INT(lo, 1000 * 128 * 4);
}

static void test_human(void)
{
	char b[16];
	CHECK_STR(size_human(0, b), "0B");
	CHECK_STR(size_human(1023, b), "1023B");
	CHECK_STR(size_human(1024, b), "1.0K");
	CHECK_STR(size_human(481 * 1024 + 10, b), "481.0K");
	CHECK_STR(size_human(1048575, b), "1024.0K");   /* XLA's quirk: K until a whole MiB */
	CHECK_STR(size_human(1048576, b), "1.00M");
	CHECK_STR(size_human(530ULL << 20, b), "530.00M");
	/* 14.31G: integer MiB then / 1024.0, as XLA. */
	CHECK_STR(size_human((uint64_t)(14.31 * 1073741824.0), b), "14.31G");
	CHECK_STR(size_human(1ULL << 40, b), "1.00T");
	/* Past int64 (sums of huge buffers): printed, never clamped to 8.00E. */
	CHECK_STR(size_human(3ULL << 62, b), "12.00E");
	CHECK_STR(size_human(UINT64_MAX, b), "16.00E");
}

/* The saturating helpers every size sum goes through. */
static void test_saturating(void)
{
	CHECK(size_add(1, 2) == 3);
	CHECK(size_add(UINT64_MAX - 1, 1) == UINT64_MAX);
	CHECK(size_add(UINT64_MAX, UINT64_MAX) == UINT64_MAX);
	CHECK(size_mul(1ULL << 32, 1ULL << 32) == UINT64_MAX);
	CHECK(size_round_up(5, 4) == 8);
	CHECK(size_round_up(UINT64_MAX - 1, 1ULL << 62) == UINT64_MAX);
	CHECK(size_round_up(7, 0) == 7);
	int64_t big[2] = { 4294967296, 4294967296 }, fits[2] = { 1LL << 30, 2 };
	struct size_array a = { .type = PT_F32, .rank = 2, .dims = big };
	CHECK(!size_fits_int64(&a));
	a.dims = fits;
	CHECK(size_fits_int64(&a));
}

const struct unit_case unit_size_cases[] = {
	{ "size_widths", test_widths },
	{ "size_dense", test_dense },
	{ "size_saturating", test_saturating },
	{ "size_array_size", test_array_size },
	{ "size_default_tiles", test_default_tiles },
	{ "size_human", test_human },
	{ NULL, NULL },
};
