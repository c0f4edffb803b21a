/* oomlog.c - finds the out-of-memory reports of XLA and its runtimes in a
 * log and reads them into oom_report (oomlog.h).
 *
 * A line goes through three steps.  Wrapping: a line a terminal or an
 * editor broke inside a key phrase ("Out \nof memory", "memory space\n
 * hbm.") is joined with the next.  Cleaning: markdown quotes ('>'), bold
 * marks, backticks and backslash escapes ("1\.") are dropped, so what is
 * left is what XLA printed.  Segmenting: a line that holds several of the
 * report's fields (a paragraph a markdown converter joined, a report pasted
 * onto one line) is cut before each field, label values excepted.  Each
 * piece is then read by key phrases looked for anywhere in it, so log
 * prefixes (absl, Python logging, "[rank3]:", "(EngineCore_DP0 pid=1)")
 * and indentation do not matter.  A field met with no report open begins
 * one (a part pasted alone).  It reads and never judges. */
#include "oomlog.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "lex.h"
#include "size.h"

/* One piece of the log: [s, s + n), 1-based line number. */
struct oomlog_line {
	const char *s;
	size_t n;
	uint32_t no;
};

/* What the lines that follow belong to. */
enum oomlog_block { OB_NONE, OB_TOTAL, OB_REQUIREMENT, OB_ALLOCS, OB_GPU_STATS, OB_BFC_STATS };

struct oomlog_state {
	struct arena *a;
	struct oom_report *reps;
	uint32_t n, cap;
	struct oom_report *cur;
	enum oomlog_block block;
	uint32_t nalloc_cap;
	uint32_t idle;              /* lines read since the open report last took one */
	const char *code;           /* "E1000 CompileTimeHbmOom" seen on a line ... */
	uint32_t code_line;         /* ... this one, for a header on the next lines */
	char *buf, *seg;            /* cleaned line, joined line (grown as needed) */
	size_t bufcap, segcap;
};

/* ---- Small readers over one piece ---- */

/* key in s[0..n), or NULL: memchr finds the candidates. */
static const char *oomlog_memfind(const char *s, size_t n, const char *key, size_t k)
{
	if (!k || n < k)
		return k ? NULL : s;
	const char *e = s + n - k + 1;
	for (const char *p = s; p < e && (p = memchr(p, key[0], (size_t)(e - p))); p++)
		if (!memcmp(p, key, k))
			return p;
	return NULL;
}

/* The first occurrence of key in the piece, or NULL. */
static const char *oomlog_find(const struct oomlog_line *l, const char *key)
{
	return oomlog_memfind(l->s, l->n, key, strlen(key));
}

/* The text after key up to the end of the piece, trimmed; NULL without key. */
static const char *oomlog_after(const struct oomlog_line *l, const char *key, size_t *len)
{
	const char *p = oomlog_find(l, key);
	if (!p)
		return NULL;
	p += strlen(key);
	const char *e = l->s + l->n;
	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	while (e > p && isspace((unsigned char)e[-1]))
		e--;
	*len = (size_t)(e - p);
	return p;
}

/* A size printed at p ("17.60G", "0B", "3.40GiB", "22271409880", "~3.1G"):
 * *out, and *next past it.  "unknown" reads as OOM_UNKNOWN. */
static bool oomlog_size(const char *p, const char *end, uint64_t *out, const char **next)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '(' || *p == '~'))
		p++;
	if (end - p >= 7 && !memcmp(p, "unknown", 7)) {
		*out = OOM_UNKNOWN;
		*next = p + 7;
		return true;
	}
	const char *q = p;
	while (q < end && (isdigit((unsigned char)*q) || *q == '.'))
		q++;
	while (q > p && q[-1] == '.')   /* "1.96G." ends a sentence: the dot is not the number's */
		q--;
	const char *num = q;
	while (q < end && isalpha((unsigned char)*q) && q - num < 4)
		q++;
	*next = q;
	if (q > p && size_parse(p, (size_t)(q - p), out))
		return true;
	/* "5520758552 bytes": the number alone. */
	*next = num;
	return num > p && size_parse(p, (size_t)(num - p), out);
}

/* The size right after key in the piece. */
static bool oomlog_size_after(const struct oomlog_line *l, const char *key, uint64_t *out)
{
	size_t n;
	const char *p = oomlog_after(l, key, &n), *next;
	return p && oomlog_size(p, p + n, out, &next);
}

static char *oomlog_dup(struct oomlog_state *st, const char *s, size_t n)
{
	return arena_strndup(st->a, s, n);
}

/* The text between open and close after key ("program 'X'"), or NULL. */
static const char *oomlog_between(struct oomlog_state *st, const struct oomlog_line *l, const char *key,
				  char close)
{
	const char *p = oomlog_find(l, key);
	if (!p)
		return NULL;
	p += strlen(key);
	const char *e = memchr(p, close, (size_t)(l->s + l->n - p));
	return e && e > p ? oomlog_dup(st, p, (size_t)(e - p)) : NULL;
}

/* The name of an instruction at p ("%fusion.1 = ..." or "fusion.1"): the
 * characters HLO names are made of. */
static const char *oomlog_name_at(struct oomlog_state *st, const char *p, const char *end)
{
	if (p < end && *p == '%')
		p++;
	const char *q = p;
	while (q < end && lex_is_name_char(*q))
		q++;
	while (q > p && q[-1] == '.')
		q--;
	return q > p ? oomlog_dup(st, p, (size_t)(q - p)) : NULL;
}

/* The value of name="..." in an "Operator:" line (C escapes undone), or
 * NULL.  A value the line cuts short ends with the line. */
static const char *oomlog_quoted(struct oomlog_state *st, const char *s, size_t n, const char *name)
{
	size_t k = strlen(name);
	for (size_t i = 0; i + k + 2 <= n; i++) {
		if (memcmp(s + i, name, k) || s[i + k] != '=' || s[i + k + 1] != '"' ||
		    (i && s[i - 1] != ' ' && s[i - 1] != '\t' && s[i - 1] != '{'))
			continue;
		char *out = arena_alloc(st->a, n - i);
		size_t o = 0;
		for (size_t j = i + k + 2; j < n && s[j] != '"'; j++) {
			if (s[j] == '\\' && j + 1 < n) {
				char c = s[++j];
				out[o++] = c == 'n' ? '\n' : c == 't' ? '\t' : c;
			} else {
				out[o++] = s[j];
			}
		}
		out[o] = 0;
		return out;
	}
	return NULL;
}

/* ---- Reports ---- */

static struct oom_report *oomlog_begin(struct oomlog_state *st, enum oom_kind kind, uint32_t line)
{
	if (st->n == st->cap) {
		st->cap = st->cap ? st->cap * 2 : 4;
		st->reps = xreallocarray(st->reps, st->cap, sizeof *st->reps);
	}
	struct oom_report *r = &st->reps[st->n++];
	memset(r, 0, sizeof *r);
	r->kind = kind;
	r->line = line;
	r->repeats = 1;
	r->used = r->capacity = r->exceeded = OOM_UNKNOWN;
	r->total = r->reserved = r->program_bytes = r->arguments = r->output = r->output_shared = OOM_UNKNOWN;
	r->requirement = r->req_reserved = r->global = r->scoped = r->hlo_temp = r->fragmentation = OOM_UNKNOWN;
	r->tensorcore = r->sparsecore = OOM_UNKNOWN;
	r->requested = r->free_bytes = r->rt_reserved = r->reservable = r->largest_free = r->in_use = OOM_UNKNOWN;
	r->gpu_parameters = r->gpu_constants = r->gpu_live_out = r->gpu_temp = r->gpu_total = OOM_UNKNOWN;
	r->utilization = -1;
	r->space = oomlog_gpu(kind) ? "device" : "hbm";
	if (st->code && line - st->code_line <= 2)
		r->code = st->code;
	st->code = NULL;
	st->cur = r;
	st->block = OB_NONE;
	st->nalloc_cap = 0;
	return r;
}

/* "E1000: CompileTimeHbmOom:" - XLA's newer error codes, kept for the
 * header on this line or the next two. */
static void oomlog_code(struct oomlog_state *st, const struct oomlog_line *l)
{
	for (size_t i = 0; i + 7 < l->n; i++) {
		const char *p = l->s + i;
		if (*p != 'E' || (i && isalnum((unsigned char)p[-1])) || !isdigit((unsigned char)p[1]) ||
		    !isdigit((unsigned char)p[2]) || !isdigit((unsigned char)p[3]) || !isdigit((unsigned char)p[4]) ||
		    p[5] != ':')
			continue;
		const char *w = p + 6, *e = l->s + l->n;
		while (w < e && *w == ' ')
			w++;
		const char *q = w;
		while (q < e && isalnum((unsigned char)*q))
			q++;
		char *c = arena_alloc(st->a, 6 + (size_t)(q - w) + 1);
		memcpy(c, p, 5);
		c[5] = q > w ? ' ' : 0;
		memcpy(c + 6, w, (size_t)(q - w));
		c[6 + (q - w)] = 0;
		st->code = c;
		st->code_line = l->no;
		return;
	}
}

/* The word of a memory space at p ("hbm", "vmem"), for "memory space X". */
static const char *oomlog_space_at(struct oomlog_state *st, const char *p, const char *e)
{
	const char *q = p;
	while (q < e && isalnum((unsigned char)*q))
		q++;
	return q > p ? oomlog_dup(st, p, (size_t)(q - p)) : NULL;
}

/* The excess when the report gives both figures but not the excess. */
static void oomlog_exceeded(struct oom_report *r)
{
	if (r->exceeded == OOM_UNKNOWN && r->used != OOM_UNKNOWN && r->capacity != OOM_UNKNOWN && r->used > r->capacity)
		r->exceeded = r->used - r->capacity;
}

/* "Ran out of memory in memory space hbm. Used X of Y hbm. Exceeded hbm
 * capacity by Z." and "... memory space vmem while allocating on stack for
 * %name = ...". */
static bool oomlog_tpu(struct oomlog_state *st, const struct oomlog_line *l)
{
	size_t n;
	const char *p = oomlog_after(l, "Ran out of memory in memory space ", &n);
	if (!p)
		return false;
	const char *e = p + n, *next;
	struct oom_report *r = oomlog_begin(st, OOM_TPU, l->no);
	const char *sp = oomlog_space_at(st, p, e);
	if (sp)
		r->space = sp;
	const char *u = oomlog_find(l, "Used ");
	if (u && oomlog_size(u + 5, e, &r->used, &next)) {
		const char *of = next;
		while (of < e && *of == ' ')
			of++;
		if (e - of > 3 && !memcmp(of, "of ", 3))
			oomlog_size(of + 3, e, &r->capacity, &next);
	}
	const char *x = oomlog_find(l, "capacity by ");
	if (x)
		oomlog_size(x + 12, e, &r->exceeded, &next);
	const char *on = oomlog_find(l, "allocating on stack for ");
	if (on)
		r->culprit = oomlog_name_at(st, on + 24, l->s + l->n);
	return true;
}

/* "Ran out of memory on HBM, the total memory required for HLO temporaries
 * (X) exceeds available HBM (Y)." (the form of some libtpu versions) */
static bool oomlog_tpu_temp(struct oomlog_state *st, const struct oomlog_line *l)
{
	static const char key[] = "memory required for HLO temporaries (";
	const char *p = oomlog_find(l, key);
	if (!p)
		return false;
	const char *e = l->s + l->n, *next;
	struct oom_report *r = oomlog_begin(st, OOM_TPU_TEMP, l->no);
	if (oomlog_size(p + sizeof key - 1, e, &r->hlo_temp, &next))
		r->used = r->requirement = r->hlo_temp;
	const char *c = oomlog_find(l, "exceeds available HBM (");
	if (c)
		oomlog_size(c + 23, e, &r->capacity, &next);
	oomlog_exceeded(r);
	return true;
}

/* "TPU TensorCore Hbm usage: X, SparseCore Hbm usage Y, exceeding available
 * bytes: Z" */
static bool oomlog_tpu_sc(struct oomlog_state *st, const struct oomlog_line *l)
{
	const char *p = oomlog_find(l, "TensorCore Hbm usage: ");
	if (!p)
		return false;
	const char *e = l->s + l->n, *next;
	struct oom_report *r = oomlog_begin(st, OOM_TPU_SC, l->no);
	oomlog_size(p + 22, e, &r->tensorcore, &next);
	const char *s = oomlog_find(l, "SparseCore Hbm usage");
	if (s) {
		s += 20;
		while (s < e && (*s == ':' || *s == ' '))
			s++;
		oomlog_size(s, e, &r->sparsecore, &next);
	}
	const char *x = oomlog_find(l, "available bytes: ");
	if (x)
		oomlog_size(x + 17, e, &r->capacity, &next);
	if (r->tensorcore != OOM_UNKNOWN && r->sparsecore != OOM_UNKNOWN) {
		r->used = r->tensorcore + r->sparsecore;
		oomlog_exceeded(r);
	}
	return true;
}

/* "Aborting compilation early because it's unlikely to have enough memory.
 * Requires X, has Y available." */
static bool oomlog_tpu_early(struct oomlog_state *st, const struct oomlog_line *l)
{
	if (!oomlog_find(l, "Aborting compilation early"))
		return false;
	struct oom_report *r = oomlog_begin(st, OOM_TPU_EARLY, l->no);
	const char *e = l->s + l->n, *next, *q = oomlog_find(l, "Requires ");
	if (q)
		oomlog_size(q + 9, e, &r->used, &next);
	const char *h = oomlog_find(l, ", has ");
	if (h)
		oomlog_size(h + 6, e, &r->capacity, &next);
	oomlog_exceeded(r);
	return true;
}

static struct oom_alloc *oomlog_new_alloc(struct oomlog_state *st, uint32_t rank, uint32_t line);
static void oomlog_label(struct oomlog_state *st, struct oom_alloc *al, const char *s, size_t n);

/* "Allocation (size=X) would exceed memory (size=Y) :: #allocationN
 * [shape = 'S', space=vmem, size = 0x..., scoped, tag = 'T'] :: name" */
static bool oomlog_tpu_scoped(struct oomlog_state *st, const struct oomlog_line *l)
{
	const char *p = oomlog_find(l, "would exceed memory (size=");
	const char *a = oomlog_find(l, "Allocation (size=");
	if (!p || !a)
		return false;
	const char *e = l->s + l->n, *next;
	struct oom_report *r = oomlog_begin(st, OOM_TPU_SCOPED, l->no);
	oomlog_size(a + 17, e, &r->used, &next);
	oomlog_size(p + 26, e, &r->capacity, &next);
	oomlog_exceeded(r);
	const char *sp = oomlog_find(l, "space=");
	if (sp) {
		const char *w = oomlog_space_at(st, sp + 6, e);
		if (w)
			r->space = w;
	}
	struct oom_alloc *al = oomlog_new_alloc(st, 1, l->no);
	al->size = r->used;
	al->shape = oomlog_between(st, l, "shape = '", '\'');
	al->label = oomlog_between(st, l, "tag = '", '\'');
	al->type = oomlog_find(l, ", scoped,") ? "scoped" : NULL;
	/* The instruction follows the last " :: ". */
	const char *last = NULL;
	for (const char *q = l->s; (q = oomlog_memfind(q, (size_t)(e - q), " :: ", 4)); q += 4)
		last = q;
	if (last && last > p)
		r->culprit = al->name = oomlog_name_at(st, last + 4, e);
	st->block = OB_ALLOCS;
	return true;
}

/* The runtime's free memory after "There are ": "Y free", and for a
 * program load ", Z reserved, and W reservable". */
static void oomlog_free(struct oom_report *r, const struct oomlog_line *l)
{
	const char *e = l->s + l->n, *next, *t = oomlog_find(l, "There are ");
	if (t && oomlog_size(t + 10, e, &r->free_bytes, &next)) {
		const char *c = oomlog_find(l, " free, ");
		if (c && oomlog_size(c + 7, e, &r->rt_reserved, &next)) {
			const char *w = oomlog_find(l, "reserved, and ");
			if (w)
				oomlog_size(w + 14, e, &r->reservable, &next);
		}
	}
	const char *g = oomlog_find(l, "largest contiguous region of free memory is ");
	if (g)
		oomlog_size(g + 44, e, &r->largest_free, &next);
}

/* "Error loading program 'X': Attempting to reserve X at the bottom of
 * memory. That was not possible. There are Y free, Z reserved, and W
 * reservable." and "Error allocating device buffer: Attempting to allocate
 * X. That was not possible. There are Y free.; (0x0x0_HBM0)", whose parts
 * may stand on lines of their own. */
static bool oomlog_tpu_runtime(struct oomlog_state *st, const struct oomlog_line *l)
{
	const char *e = l->s + l->n, *next;
	const char *p = oomlog_find(l, "Attempting to reserve ");
	enum oom_kind k = OOM_TPU_RESERVE;
	if (!p && (p = oomlog_find(l, "Attempting to allocate ")))
		k = OOM_TPU_BUFFER;
	if (!p)
		return false;
	struct oom_report *r = oomlog_begin(st, k, l->no);
	oomlog_size(p + (k == OOM_TPU_RESERVE ? 22 : 23), e, &r->requested, &next);
	r->used = r->requested;
	r->program = oomlog_between(st, l, "Error loading program '", '\'');
	const char *d = oomlog_find(l, "; (");
	if (d) {
		const char *q = memchr(d, ')', (size_t)(e - d));
		if (q)
			r->device = oomlog_dup(st, d + 3, (size_t)(q - d - 3));
	}
	oomlog_free(r, l);
	return true;
}

/* "Out of memory while trying to allocate N bytes." or, when the runtime
 * said it another way, "BufferAssignment OOM Debugging." itself. */
static bool oomlog_gpu_oom(struct oomlog_state *st, const struct oomlog_line *l)
{
	uint64_t v;
	if (oomlog_size_after(l, "Out of memory while trying to allocate ", &v)) {
		struct oom_report *r = oomlog_begin(st, OOM_GPU, l->no);
		r->used = r->requested = v;
		return true;
	}
	if (!oomlog_find(l, "BufferAssignment OOM Debugging"))
		return false;
	if (!st->cur || st->cur->kind != OOM_GPU || st->cur->nallocs || st->block != OB_NONE)
		oomlog_begin(st, OOM_GPU, l->no);
	st->block = OB_GPU_STATS;
	return true;
}

/* "Failed to allocate request for 32.00MiB (33554432B) on device ordinal 0" */
static bool oomlog_gpu_request(struct oomlog_state *st, const struct oomlog_line *l)
{
	const char *p = oomlog_find(l, "Failed to allocate request for ");
	if (!p)
		return false;
	const char *e = l->s + l->n, *next;
	struct oom_report *r = oomlog_begin(st, OOM_GPU_REQUEST, l->no);
	oomlog_size(p + 31, e, &r->requested, &next);
	/* The exact figure in parentheses, when printed. */
	if (next < e && *next == ' ' && next + 1 < e && next[1] == '(')
		oomlog_size(next + 2, e, &r->requested, &next);
	r->used = r->requested;
	const char *o = oomlog_find(l, "device ordinal ");
	if (o) {
		const char *d = o + 15;
		while (d < e && isdigit((unsigned char)*d))
			d++;
		r->device = oomlog_dup(st, o, (size_t)(d - o));
	}
	return true;
}

/* "Allocator (GPU_0_bfc) ran out of memory trying to allocate X ..." and
 * TF's "bfc_allocator.cc:275] Ran out of memory trying to allocate X." */
static bool oomlog_gpu_bfc(struct oomlog_state *st, const struct oomlog_line *l)
{
	const char *p = oomlog_find(l, "an out of memory trying to allocate ");
	if (!p || p == l->s || (p[-1] != 'r' && p[-1] != 'R'))
		return false;
	const char *e = l->s + l->n, *next;
	struct oom_report *r = oomlog_begin(st, OOM_GPU_BFC, l->no);
	oomlog_size(p + 36, e, &r->requested, &next);
	r->used = r->requested;
	r->device = oomlog_between(st, l, "Allocator (", ')');
	r->not_failure = oomlog_find(l, "this is not a failure") != NULL;
	return true;
}

/* ---- Lines inside a report ---- */

static struct oom_alloc *oomlog_new_alloc(struct oomlog_state *st, uint32_t rank, uint32_t line)
{
	struct oom_report *r = st->cur;
	if (r->nallocs == st->nalloc_cap) {
		uint32_t cap = st->nalloc_cap ? st->nalloc_cap * 2 : 16;
		struct oom_alloc *v = arena_array(st->a, cap, sizeof *v);
		if (r->nallocs)
			memcpy(v, r->allocs, r->nallocs * sizeof *v);
		r->allocs = v;
		st->nalloc_cap = cap;
	}
	struct oom_alloc *al = &r->allocs[r->nallocs++];
	memset(al, 0, sizeof *al);
	al->rank = rank;
	al->line = line;
	al->size = OOM_UNKNOWN;
	al->unpadded = OOM_UNKNOWN;
	return al;
}

/* The instruction named by an "XLA label:": "%fusion.1 = f32[...] fusion(...)"
 * or "fusion.1 = fusion(...)" give "fusion.1"; a bare opcode (XLA:GPU's
 * "XLA Label: fusion") gives none. */
static void oomlog_label(struct oomlog_state *st, struct oom_alloc *al, const char *s, size_t n)
{
	al->label = oomlog_dup(st, s, n);
	al->label_cut = n >= 3 && !memcmp(s + n - 3, "...", 3);
	const char *eq = memchr(s, '=', n);
	if (!eq)
		return;
	size_t i = s[0] == '%';
	size_t j = i;
	while (j < n && s + j < eq && s[j] != ' ')
		j++;
	if (j > i)
		al->name = oomlog_dup(st, s + i, j - i);
}

static void oomlog_operator(struct oomlog_state *st, struct oom_alloc *al, const char *s, size_t n)
{
	al->op_name = oomlog_quoted(st, s, n, "op_name");
	al->op_type = oomlog_quoted(st, s, n, "op_type");
	al->source_file = oomlog_quoted(st, s, n, "source_file");
	const char *sl = oomlog_memfind(s, n, "source_line=", 12);
	if (sl)
		al->source_line = strtoll(sl + 12, NULL, 10);
}

/* Where "N. Size: " starts in the piece (the digits), or NULL. */
static const char *oomlog_entry_at(const struct oomlog_line *l, const char **size)
{
	const char *p = oomlog_find(l, ". Size: ");
	if (!p)
		return NULL;
	const char *d = p;
	while (d > l->s && isdigit((unsigned char)d[-1]))
		d--;
	if (d == p || (d > l->s && (isalnum((unsigned char)d[-1]) || d[-1] == '.')))
		return NULL;
	*size = p + 8;
	return d;
}

/* "Buffer N:" (XLA:GPU's peak buffers) alone in the piece: its number. */
static bool oomlog_gpu_buffer_at(const struct oomlog_line *l, uint32_t *rank)
{
	const char *p = oomlog_find(l, "Buffer ");
	if (!p || p + 7 >= l->s + l->n || !isdigit((unsigned char)p[7]))
		return false;
	char *end;
	unsigned long v = strtoul(p + 7, &end, 10);
	if (end >= l->s + l->n || *end != ':')
		return false;
	for (const char *q = end + 1; q < l->s + l->n; q++)
		if (!isspace((unsigned char)*q))
			return false;
	*rank = (uint32_t)v;
	return true;
}

/* "N. Size: X" (TPU) or "Buffer N:" (GPU) starts an allocation. */
static bool oomlog_alloc_start(struct oomlog_state *st, const struct oomlog_line *l)
{
	const char *sz, *d = oomlog_entry_at(l, &sz), *next;
	uint32_t rank;
	if (d && !oomlog_gpu(st->cur->kind)) {
		struct oom_alloc *al = oomlog_new_alloc(st, (uint32_t)strtoul(d, NULL, 10), l->no);
		if (!oomlog_size(sz, l->s + l->n, &al->size, &next))
			al->size = OOM_UNKNOWN;
		return true;
	}
	if (!oomlog_gpu(st->cur->kind) || !oomlog_gpu_buffer_at(l, &rank))
		return false;
	oomlog_new_alloc(st, rank, l->no);
	return true;
}

/* Fields of the allocation being read.  An "XLA label:" with no entry
 * open, or after one that has a label already, is an entry of its own
 * (TF's reports list scoped allocations without "N. Size:"). */
static bool oomlog_alloc_field(struct oomlog_state *st, const struct oomlog_line *l)
{
	struct oom_report *r = st->cur;
	struct oom_alloc *al = r->nallocs ? &r->allocs[r->nallocs - 1] : NULL;
	size_t n;
	const char *v, *next;
	if ((v = oomlog_after(l, "XLA label: ", &n)) || (v = oomlog_after(l, "XLA Label: ", &n))) {
		if (!al || al->label)
			al = oomlog_new_alloc(st, al ? al->rank + 1 : 1, l->no);
		oomlog_label(st, al, v, n);
		return true;
	}
	if (!al)
		return false;
	if ((v = oomlog_after(l, "Operator: ", &n)))
		oomlog_operator(st, al, v, n);
	else if ((v = oomlog_after(l, "Entry Parameter Subshape: ", &n))) {
		al->shape = oomlog_dup(st, v, n);
		al->entry_parameter = true;
	} else if ((v = oomlog_after(l, "Unpadded size: ", &n)))
		oomlog_size(v, v + n, &al->unpadded, &next);
	else if ((v = oomlog_after(l, "Extra memory due to padding: ", &n)))
		oomlog_size(v, v + n, &al->padding, &next);
	else if ((v = oomlog_after(l, "Allocation type: ", &n)))
		al->type = oomlog_dup(st, v, n);
	else if ((v = oomlog_after(l, "Shape: ", &n)))
		al->shape = oomlog_dup(st, v, n);
	else if ((v = oomlog_after(l, "Size: ", &n)))
		oomlog_size(v, v + n, &al->size, &next);
	else
		return oomlog_find(l, "==========") != NULL;
	return true;
}

/* "HLO temp X (P% utilization..., F% fragmentation (Z))" */
static void oomlog_hlo_temp(struct oom_report *r, const struct oomlog_line *l)
{
	size_t n;
	const char *p = oomlog_after(l, "HLO temp ", &n), *e, *next;
	if (!p)
		return;
	e = p + n;
	oomlog_size(p, e, &r->hlo_temp, &next);
	const char *u = oomlog_find(l, "% utilization");
	if (u) {
		const char *d = u;
		while (d > l->s && (isdigit((unsigned char)d[-1]) || d[-1] == '.'))
			d--;
		r->utilization = strtod(d, NULL);
	}
	const char *f = oomlog_find(l, "% fragmentation (");
	if (f)
		oomlog_size(f + 17, e, &r->fragmentation, &next);
}

/* Where word w starts in the piece with a size after it ("reserved
 * 528.00M", "program unknown size"), or NULL.  w must start the piece or
 * follow a blank. */
static const char *oomlog_word_size(const struct oomlog_line *l, const char *w)
{
	size_t k = strlen(w);
	const char *e = l->s + l->n;
	for (const char *p = l->s; (p = oomlog_memfind(p, (size_t)(e - p), w, k)); p += k) {
		if (p > l->s && p[-1] != ' ' && p[-1] != '\t' && p[-1] != ':')
			continue;
		const char *q = p + k;
		while (q < e && *q == ' ')
			q++;
		if (q < e && (isdigit((unsigned char)*q) || (e - q >= 7 && !memcmp(q, "unknown", 7))))
			return p;
	}
	return NULL;
}

/* A line in the usage breakdowns: "reserved 528.00M", "program 17.08G". */
static bool oomlog_part(struct oom_report *r, enum oomlog_block b, const struct oomlog_line *l)
{
	static const char *const names[] = { "reserved ", "program ", "arguments ", "global ", "scoped ", NULL };
	for (int k = 0; names[k]; k++) {
		const char *p = oomlog_word_size(l, names[k]), *next;
		uint64_t v;
		if (!p || !oomlog_size(p + strlen(names[k]), l->s + l->n, &v, &next))
			continue;
		uint64_t *total[] = { &r->reserved, &r->program_bytes, &r->arguments, NULL, NULL };
		uint64_t *req[] = { &r->req_reserved, NULL, NULL, &r->global, &r->scoped };
		uint64_t *dst = b == OB_TOTAL ? total[k] : req[k];
		if (dst)
			*dst = v;
		return dst != NULL;
	}
	return false;
}

static void oomlog_gpu_stat(struct oom_report *r, const struct oomlog_line *l)
{
	static const char *const keys[] = { "parameter allocation:", "constant allocation:",
					    "maybe_live_out allocation:", "preallocated temp allocation:",
					    "total allocation:", NULL };
	uint64_t *dst[] = { &r->gpu_parameters, &r->gpu_constants, &r->gpu_live_out, &r->gpu_temp, &r->gpu_total };
	for (int k = 0; keys[k]; k++)
		if (oomlog_size_after(l, keys[k], dst[k]))
			return;
}

/* "Total hbm usage >= X:" / "Program hbm requirement X:": the space word
 * between prefix and suffix, or NULL. */
static const char *oomlog_phrase(const struct oomlog_line *l, const char *prefix, const char *suffix,
				 const char **space_end)
{
	size_t k = strlen(prefix), s = strlen(suffix);
	const char *e = l->s + l->n;
	for (const char *p = l->s; (p = oomlog_memfind(p, (size_t)(e - p), prefix, k)); p += k) {
		const char *w = p + k, *q = w;
		while (q < e && isalpha((unsigned char)*q))
			q++;
		if (q > w && (size_t)(e - q) >= s && !memcmp(q, suffix, s)) {
			*space_end = q;
			return w;
		}
	}
	return NULL;
}

/* A line of the current report; false when it is not one. */
static bool oomlog_body(struct oomlog_state *st, const struct oomlog_line *l)
{
	struct oom_report *r = st->cur;
	const char *p, *q;
	size_t n;
	if (oomlog_run_time(r->kind) && !oomlog_gpu(r->kind) && oomlog_find(l, "There are ")) {
		oomlog_free(r, l);
	} else if (r->kind == OOM_TPU_BUFFER && oomlog_find(l, "largest contiguous region")) {
		oomlog_free(r, l);
	} else if ((p = oomlog_phrase(l, "Total ", " usage >= ", &q))) {
		oomlog_size_after(l, " usage >= ", &r->total);
		st->block = OB_TOTAL;
		oomlog_part(r, OB_TOTAL, l);
	} else if ((p = oomlog_after(l, "Output size ", &n))) {
		const char *next;
		oomlog_size(p, p + n, &r->output, &next);
		const char *sh = oomlog_find(l, "shares ");
		if (sh)
			oomlog_size(sh + 7, l->s + l->n, &r->output_shared, &next);
	} else if ((p = oomlog_phrase(l, "Program ", " requirement ", &q))) {
		oomlog_size_after(l, " requirement ", &r->requirement);
		st->block = OB_REQUIREMENT;
	} else if (oomlog_find(l, "HLO temp ") && st->block == OB_REQUIREMENT) {
		oomlog_hlo_temp(r, l);
	} else if (oomlog_find(l, "Largest program allocations") || oomlog_find(l, "Peak buffers:")) {
		st->block = OB_ALLOCS;
	} else if (oomlog_find(l, "capacity by ") && r->exceeded == OOM_UNKNOWN && !oomlog_run_time(r->kind)) {
		oomlog_size_after(l, "capacity by ", &r->exceeded);
	} else if (st->block == OB_GPU_STATS && oomlog_find(l, " allocation:")) {
		oomlog_gpu_stat(r, l);
	} else if (r->kind == OOM_GPU_BFC && oomlog_find(l, "Stats:")) {
		st->block = OB_BFC_STATS;
	} else if (st->block == OB_BFC_STATS && (oomlog_find(l, "Limit:") || oomlog_find(l, "InUse:"))) {
		if (!oomlog_find(l, "MaxInUse:") && !oomlog_size_after(l, "Limit:", &r->capacity))
			oomlog_size_after(l, "InUse:", &r->in_use);
	} else if ((st->block == OB_TOTAL || st->block == OB_REQUIREMENT) && oomlog_part(r, st->block, l)) {
		/* read */
	} else if ((st->block == OB_ALLOCS || r->kind == OOM_TPU) &&
		   (oomlog_alloc_start(st, l) || oomlog_alloc_field(st, l))) {
		/* A TPU report's entries are read without the "Largest program
		 * allocations" line: a paste may leave it out. */
		st->block = OB_ALLOCS;
	} else {
		return false;
	}
	return true;
}

/* A part of a report with no report open to take it (or one that has
 * that part already): a report of its own, begun there. */
static bool oomlog_fragment(struct oomlog_state *st, const struct oomlog_line *l)
{
	struct oom_report *r = st->cur;
	bool tpu = r && r->kind == OOM_TPU, gpu = r && r->kind == OOM_GPU;
	const char *p, *q, *sz;
	enum oom_kind k = OOM_TPU;
	const char *space = NULL;
	uint32_t rank;
	if ((p = oomlog_phrase(l, "Total ", " usage >= ", &q)) && (!tpu || r->total != OOM_UNKNOWN))
		space = oomlog_dup(st, p, (size_t)(q - p));
	else if ((p = oomlog_phrase(l, "Program ", " requirement ", &q)) && (!tpu || r->requirement != OOM_UNKNOWN))
		space = oomlog_dup(st, p, (size_t)(q - p));
	else if (oomlog_find(l, "Output size ") && oomlog_find(l, " shares ") && (!tpu || r->output != OOM_UNKNOWN))
		;
	else if ((p = oomlog_find(l, "Largest program allocations in ")) && (!tpu || r->nallocs))
		space = oomlog_space_at(st, p + 31, l->s + l->n);
	else if (oomlog_entry_at(l, &sz) && !tpu)
		;
	else if (oomlog_find(l, "XLA label: ") && !r)
		;
	else if ((oomlog_find(l, "Peak buffers:") || oomlog_find(l, "BufferAssignment stats:") ||
		  oomlog_gpu_buffer_at(l, &rank)) && (!gpu || r->nallocs))
		k = OOM_GPU;
	else if (oomlog_find(l, "bfc_allocator") && oomlog_find(l, "Stats:") && (!r || r->kind != OOM_GPU_BFC))
		k = OOM_GPU_BFC;
	else
		return false;
	struct oom_report *nr = oomlog_begin(st, k, l->no);
	nr->partial = true;
	if (space)
		nr->space = space;
	st->block = k == OOM_GPU && oomlog_find(l, "BufferAssignment stats:") ? OB_GPU_STATS
		    : k == OOM_GPU_BFC ? OB_NONE : OB_ALLOCS;
	oomlog_body(st, l);
	return true;
}

/* ---- Cleaning and cutting a line ---- */

/* The line without markdown: leading quote marks, "**", backticks and the
 * backslash before punctuation ("1\.", "op\_name") go; into st->buf. */
static struct oomlog_line oomlog_clean(struct oomlog_state *st, const struct oomlog_line *l)
{
	if (st->bufcap < l->n + 1) {
		st->bufcap = l->n + 64;
		st->buf = xrealloc(st->buf, st->bufcap);
	}
	size_t i = 0, o = 0;
	while (i < l->n && (l->s[i] == ' ' || l->s[i] == '\t' || l->s[i] == '>'))
		i++;
	for (; i < l->n; i++) {
		char c = l->s[i];
		if (c == '`' || (c == '*' && i + 1 < l->n && l->s[i + 1] == '*')) {
			i += c == '*';
			continue;
		}
		if (c == '\\' && i + 1 < l->n && strchr(".*_#[]()-+!<>|{}~", l->s[i + 1]) && l->s[i + 1])
			c = l->s[++i];
		st->buf[o++] = c;
	}
	st->buf[o] = 0;
	return (struct oomlog_line){ st->buf, o, l->no };
}

/* Field keys a joined line is cut before.  SIZE: only with a size after it
 * and a blank before ("reserved 528.00M", not "0B reserved, and");
 * LABEL / OP: what follows is a value cut only before END keys. */
enum { OK_SIZE = 1, OK_LABEL = 2, OK_OP = 4, OK_END = 8, OK_ENTRY = 16 };
struct oomlog_key {
	const char *k;
	unsigned flags;
};
static const struct oomlog_key oomlog_keys[] = {
	{ "Total ", 0 }, { "Output size ", 0 }, { "Program ", 0 }, { "Largest program allocations", 0 },
	{ "reserved ", OK_SIZE }, { "program ", OK_SIZE }, { "arguments ", OK_SIZE }, { "global ", OK_SIZE },
	{ "scoped ", OK_SIZE }, { "HLO temp ", OK_SIZE }, { "Operator: ", OK_OP },
	{ "Shape: ", OK_END }, { "Unpadded size: ", OK_END }, { "Extra memory due to padding: ", OK_END },
	{ "XLA label: ", OK_LABEL | OK_END }, { "XLA Label: ", OK_LABEL | OK_END }, { "Allocation type: ", OK_END },
	{ "==========", OK_END }, { "", OK_ENTRY | OK_END }, { "Entry Parameter Subshape: ", OK_END },
	{ "Peak buffers:", 0 }, { "BufferAssignment stats:", 0 }, { NULL, 0 },
};

/* Whether key kk starts at s[i] as a field, not inside other text. */
static bool oomlog_key_at(const char *s, size_t n, size_t i, const struct oomlog_key *kk)
{
	const char *e = s + n, *p = s + i;
	if (kk->flags & OK_ENTRY) {
		if (!isdigit((unsigned char)*p) || (i && (isalnum((unsigned char)p[-1]) || p[-1] == '.')))
			return false;
		while (p < e && isdigit((unsigned char)*p))
			p++;
		return e - p >= 8 && !memcmp(p, ". Size: ", 8);
	}
	size_t k = strlen(kk->k);
	if ((size_t)(e - p) < k || memcmp(p, kk->k, k))
		return false;
	if (!strcmp(kk->k, "Total ") || !strcmp(kk->k, "Program ")) {
		const char *q = p + k;
		while (q < e && isalpha((unsigned char)*q))
			q++;
		const char *want = kk->k[0] == 'T' ? " usage >= " : " requirement ";
		return q > p + k && (size_t)(e - q) >= strlen(want) && !memcmp(q, want, strlen(want));
	}
	if (kk->flags & OK_SIZE) {
		if (i && p[-1] != ' ' && p[-1] != '\t')
			return false;
		const char *q = p + k;
		while (q < e && *q == ' ')
			q++;
		return q < e && (isdigit((unsigned char)*q) || (e - q >= 7 && !memcmp(q, "unknown", 7)));
	}
	return true;
}

/* Cuts the cleaned line before each field key; calls fn on each piece. */
static bool oomlog_segments(struct oomlog_state *st, const struct oomlog_line *l,
			    bool (*fn)(struct oomlog_state *, const struct oomlog_line *))
{
	bool any = false;
	size_t start = 0;
	unsigned mode = 0;   /* OK_LABEL / OK_OP while inside a value */
	for (size_t i = 0; i < l->n; i++) {
		const struct oomlog_key *hit = NULL;
		char c = l->s[i];
		bool lower = c == 'r' || c == 'p' || c == 'a' || c == 'g' || c == 's';
		if (lower ? i && l->s[i - 1] != ' ' && l->s[i - 1] != '\t' : !c || !strchr("TOPLHSUEXA=B0123456789", c))
			continue;
		for (const struct oomlog_key *kk = oomlog_keys; kk->k && !hit; kk++) {
			if (mode && !(kk->flags & OK_END))
				continue;
			if ((mode & OK_LABEL) && (kk->flags & OK_LABEL))
				continue;
			if (oomlog_key_at(l->s, l->n, i, kk))
				hit = kk;
		}
		if (!hit)
			continue;
		if (i > start) {
			struct oomlog_line piece = { l->s + start, i - start, l->no };
			any |= fn(st, &piece);
		}
		start = i;
		mode = hit->flags & (OK_LABEL | OK_OP);
		/* Past the key, so that it does not match again at once. */
		if (hit->flags & OK_ENTRY) {
			while (i + 1 < l->n && l->s[i + 1] != '.')
				i++;
		} else if (hit->k[0] == '=') {
			while (i + 1 < l->n && l->s[i + 1] == '=')
				i++;
		} else {
			i += strlen(hit->k) - 1;
		}
	}
	struct oomlog_line piece = { l->s + start, l->n - start, l->no };
	any |= fn(st, &piece);
	return any;
}

/* One piece: a report's first line, a line of the open report, or a part
 * that begins one. */
static bool oomlog_piece(struct oomlog_state *st, const struct oomlog_line *l)
{
	if (oomlog_tpu(st, l) || oomlog_tpu_temp(st, l) || oomlog_tpu_sc(st, l) || oomlog_tpu_early(st, l) ||
	    oomlog_tpu_scoped(st, l) || oomlog_tpu_runtime(st, l) || oomlog_gpu_oom(st, l) ||
	    oomlog_gpu_request(st, l) || oomlog_gpu_bfc(st, l))
		return true;
	return (st->cur && oomlog_body(st, l)) || oomlog_fragment(st, l);
}

/* ---- Wrapped lines ---- */

/* Phrases a terminal or an editor may break. */
static const char *const oomlog_wrap_keys[] = {
	"Ran out of memory in memory space ", "Out of memory while trying to allocate ",
	"Failed to allocate request for ", "Attempting to allocate ", "Attempting to reserve ",
	"Exceeded hbm capacity by ", "ran out of memory trying to allocate ", NULL,
};

/* Whether line a ends inside one of the phrases and b (from its first
 * non-blank) goes on with it (1: read them as one line), or a ends right
 * after a whole phrase whose figures are on b (2: one line, a blank
 * between); 0 otherwise. */
static int oomlog_wraps(const char *a, size_t an, const char *b, size_t bn)
{
	while (bn && (*b == ' ' || *b == '\t'))
		b++, bn--;
	if (!bn || !an)
		return 0;
	size_t t = an;
	while (t && (a[t - 1] == ' ' || a[t - 1] == '\t'))
		t--;
	for (const char *const *kp = oomlog_wrap_keys; *kp; kp++) {
		const char *k = *kp;
		size_t kn = strlen(k);
		if (t >= kn - 1 && !memcmp(a + t - (kn - 1), k, kn - 1))
			return 2;
		for (size_t j = 1; j < kn - 1; j++) {
			/* Cheap checks first: the last byte of a, the first of b. */
			if (an < j || a[an - 1] != k[j - 1])
				continue;
			const char *r = k + j;
			size_t rest = kn - j;
			bool blank = *r == ' ';   /* broken at a blank the wrap dropped */
			if (blank)
				r++, rest--;
			if (!rest || *b != *r || memcmp(a + an - j, k, j))
				continue;
			if (!memcmp(b, r, bn < rest ? bn : rest))
				return blank ? 2 : 1;
		}
	}
	return 0;
}

/* ---- Driver ---- */

/* Two reports that are the same one printed twice (the log line and the
 * exception, a retry that failed the same way). */
static bool oomlog_same(const struct oom_report *p, const struct oom_report *r)
{
	return p->kind == r->kind && p->used == r->used && p->capacity == r->capacity &&
	       p->exceeded == r->exceeded && p->requirement == r->requirement && p->tensorcore == r->tensorcore &&
	       p->requested == r->requested && p->free_bytes == r->free_bytes && !strcmp(p->space, r->space) &&
	       ((!p->program && !r->program) || (p->program && r->program && !strcmp(p->program, r->program)));
}

/* A report that says nothing but its kind (a title line, "Ran out of
 * memory in memory space vmem.") followed by the full one. */
static bool oomlog_empty(const struct oom_report *p)
{
	return p->used == OOM_UNKNOWN && p->capacity == OOM_UNKNOWN && p->requested == OOM_UNKNOWN &&
	       !p->nallocs && p->total == OOM_UNKNOWN && p->requirement == OOM_UNKNOWN;
}

static void oomlog_dedupe(struct oomlog_state *st)
{
	uint32_t w = 0;
	for (uint32_t k = 0; k < st->n; k++) {
		struct oom_report *r = &st->reps[k];
		if (w) {
			struct oom_report *p = &st->reps[w - 1];
			if (oomlog_same(p, r)) {
				uint32_t rep = p->repeats + r->repeats;
				if (r->nallocs > p->nallocs)
					*p = *r;
				p->repeats = rep;
				continue;
			}
			if (oomlog_empty(p) && p->kind == r->kind && !strcmp(p->space, r->space)) {
				*p = *r;
				continue;
			}
			/* The BFC allocator's line and XLA's report of the same failure. */
			if (p->kind == OOM_GPU_BFC && oomlog_gpu(r->kind) && r->kind != OOM_GPU_BFC &&
			    p->requested == r->requested && r->line - p->line <= 50) {
				const char *dev = p->device;
				uint64_t cap = p->capacity, use = p->in_use;
				*p = *r;
				p->device = p->device ? p->device : dev;
				p->capacity = p->capacity != OOM_UNKNOWN ? p->capacity : cap;
				p->in_use = p->in_use != OOM_UNKNOWN ? p->in_use : use;
				continue;
			}
		}
		st->reps[w++] = *r;
	}
	st->n = w;
}

/* Phrases one of which is in every line that begins a report or a part of
 * one: with no report open, a line without any is not read (a job log is
 * mostly other lines). */
static const char *const oomlog_anchors[] = {
	"emory", "Hbm usage", "Aborting", "Attempting", "allocate", "usage >=", "requirement", "Output size",
	"Largest program", "Size:", "XLA label", "XLA Label", "Peak buffers", "BufferAssignment", "Buffer ",
	"Stats:", "RESOURCE_EXHAUSTED", NULL,
};

static bool oomlog_anchored(const struct oomlog_line *l)
{
	for (const char *const *a = oomlog_anchors; *a; a++)
		if (oomlog_memfind(l->s, l->n, *a, strlen(*a)))
			return true;
	return false;
}

/* Lines read without a match before the open report is closed: a report's
 * lines come together, and a closed report costs the other lines only the
 * anchor test. */
#define OOMLOG_IDLE_LINES 100

/* One line of the log, perhaps joined with the next: cleaned, cut, read. */
static void oomlog_line(struct oomlog_state *st, const struct oomlog_line *raw)
{
	if (!st->cur && !oomlog_anchored(raw))
		return;
	struct oomlog_line l = oomlog_clean(st, raw);
	oomlog_code(st, &l);
	if (oomlog_segments(st, &l, oomlog_piece))
		st->idle = 0;
	else if (st->cur && ++st->idle >= OOMLOG_IDLE_LINES) {
		st->cur = NULL;
		st->block = OB_NONE;
		st->idle = 0;
	}
}

uint32_t oomlog_read(const struct source *src, struct arena *a, struct oom_log *out)
{
	struct oomlog_state st = { .a = a };
	const char *s = src->buf, *end = src->buf + src->len;
	uint32_t no = 0;
	while (s < end) {
		const char *e = memchr(s, '\n', (size_t)(end - s));
		if (!e)
			e = end;
		struct oomlog_line l = { s, (size_t)(e - s), ++no };
		if (l.n && s[l.n - 1] == '\r')
			l.n--;
		const char *s2 = e + 1;
		if (s2 < end) {
			const char *e2 = memchr(s2, '\n', (size_t)(end - s2));
			if (!e2)
				e2 = end;
			size_t n2 = (size_t)(e2 - s2);
			if (n2 && s2[n2 - 1] == '\r')
				n2--;
			int how = oomlog_wraps(l.s, l.n, s2, n2);
			if (how) {
				while (n2 && (*s2 == ' ' || *s2 == '\t'))
					s2++, n2--;
				if (st.segcap < l.n + n2 + 2) {
					st.segcap = l.n + n2 + 64;
					st.seg = xrealloc(st.seg, st.segcap);
				}
				memcpy(st.seg, l.s, l.n);
				size_t m = l.n;
				if (how == 2 && st.seg[m - 1] != ' ')
					st.seg[m++] = ' ';
				memcpy(st.seg + m, s2, n2);
				struct oomlog_line j = { st.seg, m + n2, no };
				oomlog_line(&st, &j);
				s = e2 + 1;
				no++;
				continue;
			}
		}
		oomlog_line(&st, &l);
		s = e + 1;
	}
	oomlog_dedupe(&st);
	out->nreports = st.n;
	out->reports = NULL;
	if (st.n) {
		out->reports = arena_array(a, st.n, sizeof *out->reports);
		memcpy(out->reports, st.reps, st.n * sizeof *st.reps);
	}
	free(st.reps);
	free(st.buf);
	free(st.seg);
	return st.n;
}

const char *oomlog_kind_name(enum oom_kind k)
{
	switch (k) {
	case OOM_TPU: return "tpu";
	case OOM_TPU_TEMP: return "tpu-temp";
	case OOM_TPU_SC: return "tpu-sparsecore";
	case OOM_TPU_EARLY: return "tpu-early-abort";
	case OOM_TPU_SCOPED: return "tpu-scoped";
	case OOM_TPU_RESERVE: return "tpu-program-load";
	case OOM_TPU_BUFFER: return "tpu-buffer";
	case OOM_GPU: return "gpu";
	case OOM_GPU_REQUEST: return "gpu-request";
	case OOM_GPU_BFC: return "gpu-bfc";
	}
	return "?";
}

bool oomlog_run_time(enum oom_kind k)
{
	return k == OOM_TPU_RESERVE || k == OOM_TPU_BUFFER || k == OOM_GPU || k == OOM_GPU_REQUEST ||
	       k == OOM_GPU_BFC;
}

bool oomlog_gpu(enum oom_kind k)
{
	return k == OOM_GPU || k == OOM_GPU_REQUEST || k == OOM_GPU_BFC;
}
