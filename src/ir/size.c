/* size.c - byte sizes of arrays: dense bytes, XLA's ShapeUtil::ArraySize
 * over the first tile of a TPU layout (MEMORY_FACTS §1.3), the default
 * TPU tilings of §1.4, and XLA's human-readable units.  It sizes one array
 * at a time; it knows nothing of tuples' leaves, shardings or liveness. */
#include "size.h"
#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* Element bits straight from types.def, so this unit needs no other object
 * (the unit tests link it alone). */
static const uint8_t size_bits[PT_COUNT] = {
	[PT_INVALID] = 0,
#define TYPE(e, text, bits) [PT_##e] = bits,
#include "types.def"
#undef TYPE
};

uint64_t size_mul(uint64_t a, uint64_t b)
{
	if (a && b > UINT64_MAX / a)
		return UINT64_MAX;
	return a * b;
}

uint64_t size_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

uint64_t size_sub(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

uint64_t size_round_up(uint64_t n, uint64_t m)
{
	if (m <= 1)
		return n;
	uint64_t r = n % m;
	if (!r)
		return n;
	return n > UINT64_MAX - (m - r) ? UINT64_MAX : n + (m - r);
}

/* ceil(n * bits / 8) without overflowing for n near 2^64 / 8. */
static uint64_t size_bits_to_bytes(uint64_t n, uint64_t bits)
{
	uint64_t whole = size_mul(n / 8, bits);
	uint64_t rest = (n % 8) * bits;
	uint64_t add = (rest + 7) / 8;
	return whole > UINT64_MAX - add ? UINT64_MAX : whole + add;
}

void size_array_of(struct size_array *a, const struct hlo_shape *s)
{
	a->type = s->type;
	a->rank = s->rank;
	a->dims = s->dims;
	a->layout = s->layout;
	if (s->type == PT_BUFFER && s->elems && s->elems[0])
		size_array_of(a, s->elems[0]);
}

int size_type_bits(enum ptype t)
{
	return t < PT_COUNT ? size_bits[t] : 0;
}

uint64_t size_byte_width(enum ptype t)
{
	return ((uint64_t)size_type_bits(t) + 7) / 8;
}

static bool size_is_array(const struct size_array *a)
{
	return a->type != PT_TUPLE && a->type != PT_BUFFER && a->type != PT_TOKEN && a->type != PT_OPAQUE &&
	       a->type != PT_INVALID && a->type < PT_COUNT;
}

static uint64_t size_dim(const struct size_array *a, uint32_t d)
{
	return a->dims[d] < 0 ? 0 : (uint64_t)a->dims[d];
}

/* LayoutUtil::MaxSplitSize: the largest piece of dim d under its split
 * config (SC(d:i,j)), else the dim itself. */
static uint64_t size_split_dim(const struct size_array *a, uint32_t d)
{
	uint64_t size = size_dim(a, d);
	const struct hlo_layout *l = a->layout;
	if (!l || !l->nsplits)
		return size;
	for (uint32_t s = 0; s < l->nsplits; s++) {
		if (l->splits[s].dim != (int64_t)d)
			continue;
		uint64_t max = 0, last = 0;
		for (uint32_t k = 0; k < l->splits[s].n; k++) {
			int64_t ix = l->splits[s].indices[k];
			uint64_t at = ix < 0 ? 0 : (uint64_t)ix;
			if (at > last && at - last > max)
				max = at - last;
			if (at > last)
				last = at;
		}
		if (size > last && size - last > max)
			max = size - last;
		return max < size ? max : size;
	}
	return size;
}

uint64_t size_elements(const struct size_array *a)
{
	uint64_t n = 1;
	for (uint32_t d = 0; d < a->rank; d++)
		n = size_mul(n, size_dim(a, d));
	return n;
}

bool size_fits_int64(const struct size_array *a)
{
	if (!size_is_array(a))
		return true;
	return size_elements(a) <= INT64_MAX && size_dense(a) <= INT64_MAX && size_padded(a) <= INT64_MAX;
}

uint64_t size_dense(const struct size_array *a)
{
	return size_dense_bits(a, a->layout ? a->layout->element_bits : 0);
}

uint64_t size_dense_bits(const struct size_array *a, int64_t ebits)
{
	if (!size_is_array(a))
		return 0;
	uint64_t n = size_elements(a);
	if (ebits > 0)
		return size_bits_to_bytes(n, (uint64_t)ebits);
	return size_mul(n, size_byte_width(a->type));
}

/* Logical dim that is the k-th most-minor physical dim. */
static uint32_t size_physical(const struct size_array *a, uint32_t k)
{
	const struct hlo_layout *l = a->layout;
	if (l && l->rank == a->rank && k < l->rank && l->minor_to_major[k] >= 0 &&
	    (uint64_t)l->minor_to_major[k] < a->rank)
		return (uint32_t)l->minor_to_major[k];
	return a->rank - 1 - k;
}

uint64_t size_tiled(const struct size_array *a, uint32_t ntile, const int64_t *tile, int64_t tail,
		    int64_t element_bits)
{
	if (!size_is_array(a))
		return 0;
	uint64_t n = 1;
	/* Tile dims pair with physical dims from the most minor: tile[ntile-1-k]
	 * with physical dim k (a missing dim counts as 1).  Walk from the most
	 * major tiled dim down so a '*' can fold its dim into the next one. */
	uint64_t carry = 1;
	for (uint32_t j = 0; j < ntile; j++) {
		uint32_t k = ntile - 1 - j;
		uint64_t d = k < a->rank ? size_split_dim(a, size_physical(a, k)) : 1;
		d = size_mul(d, carry);
		carry = 1;
		int64_t t = tile[j];
		if (t < 0 && k > 0) {
			carry = d;
			continue;
		}
		n = size_mul(n, t > 0 ? size_round_up(d, (uint64_t)t) : d);
	}
	for (uint32_t k = ntile; k < a->rank; k++)
		n = size_mul(n, size_split_dim(a, size_physical(a, k)));
	if (tail > 1)
		n = size_round_up(n, (uint64_t)tail);
	if (element_bits > 0)
		return size_bits_to_bytes(n, (uint64_t)element_bits);
	return size_mul(n, size_byte_width(a->type));
}

bool size_has_tiles(const struct hlo_layout *l)
{
	return l && l->ntiles > 0;
}

uint64_t size_padded(const struct size_array *a)
{
	const struct hlo_layout *l = a->layout;
	if (!size_has_tiles(l))
		return size_dense(a);
	return size_tiled(a, l->tiles[0].rank, l->tiles[0].dims, l->tail_padding, l->element_bits);
}

/* ---- Default TPU tilings (MEMORY_FACTS §1.4) ---- */

/* Packing p = 32 / bitwidth: 1 for 32-bit and wider (64-bit types are
 * tiled like 32-bit ones: an inference, TPUs emulate them), 2 for 16-bit,
 * 4 for 8-bit (pred is 8-bit now), 8 for 4-bit; 2- and 1-bit types and
 * 6-bit floats extrapolate from the bit width (inferred, rare). */
static int64_t size_packing(enum ptype t)
{
	int bits = size_type_bits(t);
	if (bits >= 32)
		return 1;
	if (bits > 8)
		return 2;
	if (bits > 4)
		return 4;
	if (bits > 2)
		return 8;
	return bits == 2 ? 16 : 32;
}

/* Mosaic's min_tiling = (1 + (gen < 4)) * p (infer_memref_layout.cc l.71). */
static int64_t size_min_tiling(enum ptype t, int gen)
{
	return (gen < 4 ? 2 : 1) * size_packing(t);
}

bool size_tpu_default_tile(const struct size_array *a, int gen, bool large, struct size_tile *out)
{
	int64_t p = size_packing(a->type);
	int64_t min = size_min_tiling(a->type, gen);
	int bits = size_type_bits(a->type);
	out->rank = 0;
	out->dims[0] = out->dims[1] = 0;
	out->sub = p > 1 ? p : 0;
	/* Sub-byte types are packed on TPU: the default layout carries E(bits). */
	out->element_bits = bits > 0 && bits < 8 ? bits : 0;
	if (!size_is_array(a))
		return false;
	if (a->rank == 0) {
		/* The minimal 1-D tile: f32 T(128), bf16 T(256), pred T(512) on v4+. */
		out->rank = 1;
		out->dims[0] = min * 128;
		return !large;
	}
	if (a->rank == 1) {
		/* T(k*128), k = min_tiling doubled until >= min(ceil(n/128), max(8, p)). */
		uint64_t n = size_dim(a, 0);
		uint64_t need = (n + 127) / 128;
		uint64_t cap = (uint64_t)(p > 8 ? p : 8);
		if (need > cap)
			need = cap;
		int64_t k = min;
		while ((uint64_t)k < need)
			k *= 2;
		out->rank = 1;
		out->dims[0] = k * 128;
		return !large;
	}
	/* Second-minor tile: min_tiling doubled until >= min(second_minor, 8),
	 * or up to 8p for the large variant (which 32-bit types do not have). */
	uint64_t sm = size_dim(a, size_physical(a, 1));
	int64_t cap = large ? 8 * p : 8;
	bool exists = !large || p > 1;
	int64_t t = min;
	while (t < cap && (uint64_t)t < sm)
		t *= 2;
	out->rank = 2;
	out->dims[0] = t;
	out->dims[1] = 128;
	return exists;
}

void size_tpu_default(const struct size_array *a, int gen, uint64_t *lo, uint64_t *hi, uint64_t *unpadded)
{
	struct size_tile t;
	size_tpu_default_tile(a, gen, false, &t);
	int64_t ebits = a->layout && a->layout->element_bits ? a->layout->element_bits : t.element_bits;
	*lo = *hi = size_tiled(a, t.rank, t.dims, 1, ebits);
	if (unpadded)
		*unpadded = size_dense_bits(a, ebits);
	/* 16-bit: compact before TPU7x (large only behind an XLA flag), both
	 * possible from TPU7x on; 8-bit and 4-bit: both forms seen in dumps. */
	int bits = size_type_bits(a->type);
	bool uncertain = bits < 16 || gen >= 7;
	if (uncertain && bits < 32 && size_tpu_default_tile(a, gen, true, &t)) {
		uint64_t big = size_tiled(a, t.rank, t.dims, 1, ebits);
		if (big > *hi)
			*hi = big;
	}
}

size_t size_tile_format(const struct size_tile *t, char *buf, size_t cap)
{
	int n = 0;
	if (t->rank == 2)
		n = snprintf(buf, cap, "T(%lld,%lld)", (long long)t->dims[0], (long long)t->dims[1]);
	else if (t->rank == 1)
		n = snprintf(buf, cap, "T(%lld)", (long long)t->dims[0]);
	else if (cap)
		buf[0] = 0;
	size_t len = n > 0 ? (size_t)n : 0;
	/* Sub-tiles as dumps print them: (2,1) packing for 2-D tiles of packed
	 * types; rank 1 adds (128)(p,1). */
	if (t->rank && t->sub > 1) {
		n = snprintf(len < cap ? buf + len : NULL, len < cap ? cap - len : 0,
			     t->rank == 1 ? "(128)(%lld,1)" : "(%lld,1)", (long long)t->sub);
		len += n > 0 ? (size_t)n : 0;
	}
	if (t->rank && t->element_bits) {
		n = snprintf(len < cap ? buf + len : NULL, len < cap ? cap - len : 0, "E(%lld)",
			     (long long)t->element_bits);
		len += n > 0 ? (size_t)n : 0;
	}
	return len;
}

char *size_human(uint64_t bytes, char *buf)
{
	/* tsl::strings::HumanReadableNumBytes works on int64; the same steps
	 * in uint64 also print the model's sums past it (a saturated sum is
	 * "16.00E") instead of clamping them to 8.00E. */
	uint64_t n = bytes;
	if (n < 1024) {
		snprintf(buf, 16, "%lluB", (unsigned long long)n);
		return buf;
	}
	static const char units[] = "KMGTPE";
	const char *unit = units;
	while (n >= (uint64_t)1024 * 1024 && unit[1]) {
		n /= 1024;
		unit++;
	}
	snprintf(buf, 16, *unit == 'K' ? "%.1f%c" : "%.2f%c", (double)n / 1024.0, *unit);
	return buf;
}

uint32_t size_unit_shift(uint64_t max, uint64_t n)
{
	uint64_t room = INT64_MAX / (n ? n : 1);
	uint32_t shift = 0;
	while (shift < 63 && ((max >> shift) + 1) > room)
		shift++;
	return shift;
}

uint64_t size_units(uint64_t v, uint32_t shift)
{
	return shift ? (v >> shift) + ((v & ((UINT64_C(1) << shift) - 1)) != 0) : v;
}

/* ---- Parsing ---- */

static bool size_unit_is(const char *u, size_t un, const char *want)
{
	size_t n = strlen(want);
	if (un != n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (tolower((unsigned char)u[i]) != tolower((unsigned char)want[i]))
			return false;
	return true;
}

bool size_parse(const char *s, size_t n, uint64_t *out)
{
	const char *p = s, *end = s + n;
	if (!n || !isdigit((unsigned char)s[0]))
		return false;
	uint64_t whole = 0;
	while (p < end && isdigit((unsigned char)*p)) {
		unsigned d = (unsigned)(*p++ - '0');
		if (whole > (UINT64_MAX - d) / 10)
			return false;
		whole = whole * 10 + d;
	}
	double frac = 0, scale = 1;
	bool has_frac = false;
	if (p < end && *p == '.') {
		p++;
		if (p == end || !isdigit((unsigned char)*p))
			return false;
		while (p < end && isdigit((unsigned char)*p)) {
			scale /= 10;
			frac += (*p++ - '0') * scale;
			has_frac = true;
		}
	}
	double mult;
	if (p == end || size_unit_is(p, (size_t)(end - p), "B"))
		mult = 1;
	else if (size_unit_is(p, (size_t)(end - p), "K") || size_unit_is(p, (size_t)(end - p), "KiB"))
		mult = 1024.0;
	else if (size_unit_is(p, (size_t)(end - p), "M") || size_unit_is(p, (size_t)(end - p), "MiB"))
		mult = 1024.0 * 1024;
	else if (size_unit_is(p, (size_t)(end - p), "G") || size_unit_is(p, (size_t)(end - p), "GiB"))
		mult = 1024.0 * 1024 * 1024;
	else if (size_unit_is(p, (size_t)(end - p), "T") || size_unit_is(p, (size_t)(end - p), "TiB"))
		mult = 1024.0 * 1024 * 1024 * 1024;
	else if (size_unit_is(p, (size_t)(end - p), "P") || size_unit_is(p, (size_t)(end - p), "PiB"))
		mult = 1024.0 * 1024 * 1024 * 1024 * 1024;
	else if (size_unit_is(p, (size_t)(end - p), "E") || size_unit_is(p, (size_t)(end - p), "EiB"))
		mult = 1024.0 * 1024 * 1024 * 1024 * 1024 * 1024;   /* "Requires 3.47E": under 8E fits */
	else if (size_unit_is(p, (size_t)(end - p), "KB"))
		mult = 1e3;
	else if (size_unit_is(p, (size_t)(end - p), "MB"))
		mult = 1e6;
	else if (size_unit_is(p, (size_t)(end - p), "GB"))
		mult = 1e9;
	else if (size_unit_is(p, (size_t)(end - p), "TB"))
		mult = 1e12;
	else
		return false;
	if (mult == 1 && !has_frac) {
		if (whole > (uint64_t)INT64_MAX)
			return false;
		*out = whole;
		return true;
	}
	double v = ((double)whole + frac) * mult;
	if (!(v == 0 || v >= 1) || v > 9.2e18)
		return false;
	*out = (uint64_t)(v + 0.5);
	return true;
}
