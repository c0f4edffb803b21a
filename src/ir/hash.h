/* hash.h - the one 64-bit hash of bytes (FNV-1a 64): finding fingerprints,
 * annotate's line matching, compile signatures.  Stable across runs and
 * machines (fingerprints are stored in baselines); not for hash tables,
 * which intern.h keys. */
#ifndef HLO_HASH_H
#define HLO_HASH_H
#include <stddef.h>
#include <stdint.h>

#define HASH64_INIT UINT64_C(0xcbf29ce484222325)

/* h with the n bytes at p mixed in. */
static inline uint64_t hash64(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;
	for (size_t k = 0; k < n; k++)
		h = (h ^ b[k]) * UINT64_C(0x100000001b3);
	return h;
}
#endif
