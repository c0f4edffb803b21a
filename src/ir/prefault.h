/* prefault.h - faults in the pages of growing tables on a helper thread, a
 * little ahead of the one thread that fills them, so that a serial pass on
 * a large module does not stop for the kernel at every fresh page.  It
 * never reads or writes the tables' contents: only where their pages are.
 * Tables are told apart by number; tables filled in step form a group. */
#ifndef HLO_PREFAULT_H
#define HLO_PREFAULT_H
#include <stddef.h>

#define PREFAULT_TABLES 8

struct prefault;

/* A helper with nothing to do yet, or NULL (HLO_NO_PREFAULT set, the
 * kernel cannot populate pages, or the thread did not start): then every
 * call below does nothing.  Whether a core is spare is the caller's
 * question. */
struct prefault *prefault_start(void);
/* Keeps the helper between two steps (its lock) while the caller moves
 * tables (realloc), until prefault_release. */
void prefault_hold(struct prefault *p);
/* While held: table k of group g now lives at base, room for cap
 * elements of elem bytes. */
void prefault_set(struct prefault *p, unsigned k, unsigned g, void *base, size_t elem, size_t cap);
void prefault_release(struct prefault *p);
/* Group g's tables have n elements in use: the helper keeps each about
 * PREFAULT_AHEAD bytes of its largest table ahead.  Cheap enough to call
 * every few thousand elements. */
void prefault_used(struct prefault *p, unsigned g, size_t n);
/* Stops and joins the helper, and frees p.  Call before the tables move
 * or are freed without prefault_hold. */
void prefault_stop(struct prefault *p);
#endif
