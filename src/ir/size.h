/* size.h - byte sizes of HLO arrays: dense (unpadded) bytes, the TPU padded
 * size of a tiled layout exactly as XLA's ShapeUtil::ArraySize computes it
 * (MEMORY_FACTS §1.3), the default TPU tilings of §1.4 for arrays that carry
 * no tiles yet, and XLA's human-readable byte units.  Pure functions: no
 * allocation, no I/O, no knowledge of shardings or liveness (see mem.h). */
#ifndef HLO_SIZE_H
#define HLO_SIZE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ir.h"

/* One array as it is sized.  dims may differ from the written shape (the
 * per-device dims of a sharded array); the layout is the written one. */
struct size_array {
	enum ptype type;
	uint32_t rank;
	const int64_t *dims;              /* bounded dims hold the bound; '?' (< 0) counts as 0 */
	const struct hlo_layout *layout;  /* NULL: descending minor_to_major, no tiles */
};

/* Fills a from an array shape (type, rank, dims, layout). */
void size_array_of(struct size_array *a, const struct hlo_shape *s);

/* Storage bits of one element as XLA's primitive_util::BitWidth (pred 8,
 * s4 4, f8* 8, c64 64, token/opaque/tuple 0). */
int size_type_bits(enum ptype t);
/* primitive_util::ByteWidth: ceil(bits / 8), so s4 takes a whole byte
 * unless the layout packs it with E(4). */
uint64_t size_byte_width(enum ptype t);

/* Dense bytes, ShapeUtil::ByteSizeOfElements: elements x byte width, or
 * ceil(elements x E / 8) when the layout has E(n).  Ignores tiles.  This is
 * the "unpadded size" of XLA's OOM report.  0 for tokens and opaque. */
uint64_t size_dense(const struct size_array *a);
/* size_dense with element_bits in place of the layout's E(n) (0 = the
 * type's byte width): the unpadded size under a default TPU layout. */
uint64_t size_dense_bits(const struct size_array *a, int64_t element_bits);

/* A first tile (only it pads, MEMORY_FACTS §1.3), as in a layout or as
 * chosen by size_tpu_default_tile.  dims[k] < 0 means '*' (combine). */
struct size_tile {
	uint32_t rank;                    /* 0 = untiled */
	int64_t dims[2];
	int64_t sub;                      /* packing sub-tile rows (the p of (p,1)), 0 none; printing only */
	int64_t element_bits;             /* E(n) the default layout carries, 0 none */
};

/* ShapeUtil::ArraySize with an explicit first tile (ntile dims, most-major
 * first), tail padding L (1 = none) and element bits E (0 = type width):
 * the most-minor physical dims (minor_to_major order) round up to the tile,
 * tile dims beyond the array's rank count as 1, the other dims are taken as
 * they are; then L, then E.  A '*' tile dim folds that dim into the next
 * more-minor one before rounding.  Split configs use the largest piece. */
uint64_t size_tiled(const struct size_array *a, uint32_t ntile, const int64_t *tile, int64_t tail,
		    int64_t element_bits);

/* Padded bytes of the array with its own layout: size_tiled with the
 * layout's first tile, L(n) and E(n); size_dense when it has no tiles
 * (XLA's ArraySize returns ByteSizeOfElements then, so L(n) without tiles
 * pads nothing). */
uint64_t size_padded(const struct size_array *a);

/* True when the layout has at least one tile. */
bool size_has_tiles(const struct hlo_layout *l);

/* The default tiling TPU generation gen (2..7) gives an untiled array,
 * per MEMORY_FACTS §1.4 (Mosaic's getTilingFactor rule, tpu_info, dumps):
 * rank 0 the minimal 1-D tile, rank 1 T(k*128), rank >= 2 (sublanes,128)
 * on the physical minor dims.  large selects the "large second-minor"
 * variant (T(16,128) for 16-bit, T(32,128) 8-bit, T(64,128) 4-bit).
 * Returns false when the variant does not exist for this array (then the
 * compact tile applies): 32-bit and wider types, and rank < 2. */
bool size_tpu_default_tile(const struct size_array *a, int gen, bool large, struct size_tile *out);

/* Padded bytes under the default TPU tiling: *lo with the compact tiles,
 * *hi the larger of compact and large second-minor tiles where §1.4 says
 * the default is not certain (8-bit and 4-bit types on every generation,
 * 16-bit from TPU7x on); *hi == *lo otherwise.  *unpadded (may be NULL)
 * gets the dense size with the packing the default layout implies (E(4)
 * for 4-bit types). */
void size_tpu_default(const struct size_array *a, int gen, uint64_t *lo, uint64_t *hi, uint64_t *unpadded);

/* Formats a tile as XLA prints it, e.g. "T(8,128)(2,1)E(4)". */
size_t size_tile_format(const struct size_tile *t, char *buf, size_t cap);

/* XLA's human-readable bytes (tsl HumanReadableNumBytes without "iB"):
 * "512B", "481.0K", "530.00M", "14.31G" - 1024-based, K with one decimal,
 * larger units with two, integer division between units as XLA does.
 * buf needs 16 bytes; returns buf. */
char *size_human(uint64_t bytes, char *buf);

/* Parses a size s[0..n): a plain byte count ("17179869184"), or a number
 * (decimals allowed) with a unit: K M G T P E or KiB ... EiB (1024-based,
 * as XLA prints sizes), KB MB GB TB (1000-based, as spec sheets).  Units
 * are case-insensitive; a trailing 'B' alone means bytes.  False for junk
 * or a value past 2^63; zero is a size. */
bool size_parse(const char *s, size_t n, uint64_t *out);

/* Byte arithmetic for the model and the rules: every sum or product of
 * sizes goes through these, saturating at UINT64_MAX (a saturated figure
 * prints as "16.00E" and exceeds every capacity; it never wraps to a small
 * number).  Shapes over INT64_MAX bytes are rejected by the parser, so
 * saturation only happens when many huge buffers are added together. */
uint64_t size_mul(uint64_t a, uint64_t b);
uint64_t size_add(uint64_t a, uint64_t b);
/* a - b, or 0 when b > a (a saving or an excess is never negative). */
uint64_t size_sub(uint64_t a, uint64_t b);
/* n rounded up to a multiple of m (m <= 1: n), saturating. */
uint64_t size_round_up(uint64_t n, uint64_t m);
/* Sweeps add sizes into int64 difference arrays.  Each size fits in int64
 * but n of them added together need not: size_unit_shift is the smallest
 * s such that n sizes of at most max bytes, counted in 2^s-byte units
 * rounded up (size_units), keep every prefix sum within int64.  It is 0
 * (exact) unless the sizes add up to exabytes; an upper bound then. */
uint32_t size_unit_shift(uint64_t max, uint64_t n);
uint64_t size_units(uint64_t v, uint32_t shift);
/* Number of elements (dims multiplied, '?' as 0), saturating. */
uint64_t size_elements(const struct size_array *a);
/* True when the array's element count, dense bytes and padded bytes all
 * fit in int64, as XLA's ShapeUtil::ValidateShapeSize requires. */
bool size_fits_int64(const struct size_array *a);
#endif
