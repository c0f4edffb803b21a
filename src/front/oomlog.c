/* oomlog.c - finds XLA's out-of-memory reports in a log and reads them into
 * oom_report (oomlog.h).  Line by line, each line's key phrase is looked
 * for anywhere in it, so that log prefixes (absl, TF timestamps, Python
 * logging), indentation and tabs do not matter.  It reads and never judges. */
#include "oomlog.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "size.h"

/* One line of the log: [s, s + n), 1-based number. */
struct oomlog_line {
	const char *s;
	size_t n;
	uint32_t no;
};

/* What the lines that follow belong to. */
enum oomlog_block { OB_NONE, OB_TOTAL, OB_REQUIREMENT, OB_ALLOCS, OB_GPU_STATS };

struct oomlog_state {
	struct arena *a;
	struct oom_report *reps;
	uint32_t n, cap;
	struct oom_report *cur;
	enum oomlog_block block;
	uint32_t nalloc_cap;
};

/* ---- Small readers over one line ---- */

/* The first occurrence of key in the line, or NULL. */
static const char *oomlog_find(const struct oomlog_line *l, const char *key)
{
	size_t k = strlen(key);
	for (size_t i = 0; i + k <= l->n; i++)
		if (l->s[i] == key[0] && !memcmp(l->s + i, key, k))
			return l->s + i;
	return NULL;
}

/* The text after key up to the end of the line, trimmed; NULL without key. */
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

/* A size printed at p ("17.60G", "0B", "3.40GiB", "22271409880"): *out,
 * and *next past it.  "unknown" reads as OOM_UNKNOWN. */
static bool oomlog_size(const char *p, const char *end, uint64_t *out, const char **next)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '('))
		p++;
	if (end - p >= 7 && !memcmp(p, "unknown", 7)) {
		*out = OOM_UNKNOWN;
		*next = p + 7;
		return true;
	}
	const char *q = p;
	while (q < end && (isdigit((unsigned char)*q) || *q == '.'))
		q++;
	while (q < end && isalpha((unsigned char)*q) && q - p < 24)
		q++;
	if (next)
		*next = q;
	return q > p && size_parse(p, (size_t)(q - p), out);
}

/* The size right after key in the line. */
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
	r->used = r->capacity = r->exceeded = OOM_UNKNOWN;
	r->total = r->reserved = r->program = r->arguments = r->output = r->output_shared = OOM_UNKNOWN;
	r->requirement = r->req_reserved = r->global = r->scoped = r->hlo_temp = r->fragmentation = OOM_UNKNOWN;
	r->tensorcore = r->sparsecore = OOM_UNKNOWN;
	r->gpu_parameters = r->gpu_constants = r->gpu_live_out = r->gpu_temp = r->gpu_total = OOM_UNKNOWN;
	r->utilization = -1;
	r->space = kind == OOM_GPU ? "device" : "hbm";
	st->cur = r;
	st->block = OB_NONE;
	st->nalloc_cap = 0;
	return r;
}

/* "Ran out of memory in memory space hbm. Used X of Y hbm. Exceeded hbm
 * capacity by Z." */
static bool oomlog_tpu(struct oomlog_state *st, const struct oomlog_line *l)
{
	size_t n;
	const char *p = oomlog_after(l, "Ran out of memory in memory space ", &n);
	if (!p)
		return false;
	const char *e = p + n, *dot = memchr(p, '.', n);
	struct oom_report *r = oomlog_begin(st, OOM_TPU, l->no);
	if (dot && dot > p)
		r->space = oomlog_dup(st, p, (size_t)(dot - p));
	const char *u = oomlog_find(l, "Used ");
	const char *next;
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
	if (c && oomlog_size(c + 23, e, &r->capacity, &next) && r->used != OOM_UNKNOWN && r->used > r->capacity)
		r->exceeded = r->used - r->capacity;
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
		if (r->capacity != OOM_UNKNOWN && r->used > r->capacity)
			r->exceeded = r->used - r->capacity;
	}
	return true;
}

/* "Out of memory while trying to allocate N bytes." or, when the runtime
 * said it another way, "BufferAssignment OOM Debugging." itself. */
static bool oomlog_gpu(struct oomlog_state *st, const struct oomlog_line *l)
{
	uint64_t v;
	if (oomlog_size_after(l, "Out of memory while trying to allocate ", &v)) {
		oomlog_begin(st, OOM_GPU, l->no)->used = v;
		return true;
	}
	if (!oomlog_find(l, "BufferAssignment OOM Debugging"))
		return false;
	if (!st->cur || st->cur->kind != OOM_GPU || st->cur->nallocs || st->block != OB_NONE)
		oomlog_begin(st, OOM_GPU, l->no);
	st->block = OB_GPU_STATS;
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
	const char *sl = NULL;
	for (size_t i = 0; i + 12 <= n && !sl; i++)
		if (!memcmp(s + i, "source_line=", 12))
			sl = s + i + 12;
	if (sl)
		al->source_line = strtoll(sl, NULL, 10);
}

/* "N. Size: X" (TPU) or "Buffer N:" (GPU) starts an allocation. */
static bool oomlog_alloc_start(struct oomlog_state *st, const struct oomlog_line *l)
{
	const char *p = oomlog_find(l, ". Size: ");
	if (p && st->cur->kind != OOM_GPU) {
		const char *d = p;
		while (d > l->s && isdigit((unsigned char)d[-1]))
			d--;
		if (d == p)
			return false;
		struct oom_alloc *al = oomlog_new_alloc(st, (uint32_t)strtoul(d, NULL, 10), l->no);
		const char *next;
		oomlog_size(p + 8, l->s + l->n, &al->size, &next);
		return true;
	}
	p = oomlog_find(l, "Buffer ");
	if (!p || st->cur->kind != OOM_GPU || !isdigit((unsigned char)p[7]))
		return false;
	oomlog_new_alloc(st, (uint32_t)strtoul(p + 7, NULL, 10), l->no);
	return true;
}

/* Fields of the allocation being read. */
static bool oomlog_alloc_field(struct oomlog_state *st, const struct oomlog_line *l)
{
	struct oom_report *r = st->cur;
	if (!r->nallocs)
		return false;
	struct oom_alloc *al = &r->allocs[r->nallocs - 1];
	size_t n;
	const char *v, *next;
	if ((v = oomlog_after(l, "Operator: ", &n)))
		oomlog_operator(st, al, v, n);
	else if ((v = oomlog_after(l, "XLA label: ", &n)) || (v = oomlog_after(l, "XLA Label: ", &n)))
		oomlog_label(st, al, v, n);
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
		return false;
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

/* A line in the usage breakdowns: "reserved 528.00M", "program 17.08G". */
static bool oomlog_part(struct oom_report *r, enum oomlog_block b, const struct oomlog_line *l)
{
	static const char *const names[] = { "reserved ", "program ", "arguments ", "global ", "scoped ", NULL };
	size_t i = 0;
	while (i < l->n && (l->s[i] == ' ' || l->s[i] == '\t'))
		i++;
	for (int k = 0; names[k]; k++) {
		size_t kn = strlen(names[k]);
		if (l->n - i < kn || memcmp(l->s + i, names[k], kn))
			continue;
		uint64_t v;
		const char *next;
		if (!oomlog_size(l->s + i + kn, l->s + l->n, &v, &next))
			return false;
		uint64_t *total[] = { &r->reserved, &r->program, &r->arguments, NULL, NULL };
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

/* A line of the current report; false when it is not one. */
static bool oomlog_body(struct oomlog_state *st, const struct oomlog_line *l)
{
	struct oom_report *r = st->cur;
	const char *p;
	size_t n;
	if ((p = oomlog_find(l, " usage >= ")) && oomlog_find(l, "Total ")) {
		oomlog_size_after(l, " usage >= ", &r->total);
		st->block = OB_TOTAL;
	} else if ((p = oomlog_after(l, "Output size ", &n))) {
		const char *next;
		oomlog_size(p, p + n, &r->output, &next);
		const char *sh = oomlog_find(l, "shares ");
		if (sh)
			oomlog_size(sh + 7, l->s + l->n, &r->output_shared, &next);
	} else if (oomlog_find(l, "Program ") && oomlog_find(l, " requirement ")) {
		oomlog_size_after(l, " requirement ", &r->requirement);
		st->block = OB_REQUIREMENT;
	} else if (oomlog_find(l, "HLO temp ") && st->block == OB_REQUIREMENT) {
		oomlog_hlo_temp(r, l);
	} else if (oomlog_find(l, "Largest program allocations") || oomlog_find(l, "Peak buffers:")) {
		st->block = OB_ALLOCS;
	} else if (st->block == OB_GPU_STATS && oomlog_find(l, " allocation:")) {
		oomlog_gpu_stat(r, l);
	} else if ((st->block == OB_TOTAL || st->block == OB_REQUIREMENT) && oomlog_part(r, st->block, l)) {
		/* read */
	} else if (st->block == OB_ALLOCS && (oomlog_alloc_start(st, l) || oomlog_alloc_field(st, l))) {
		/* read */
	} else {
		return false;
	}
	return true;
}

/* ---- Driver ---- */

/* The same report printed twice (the log line and the exception): keep
 * the one with more allocations. */
static void oomlog_dedupe(struct oomlog_state *st)
{
	uint32_t w = 0;
	for (uint32_t k = 0; k < st->n; k++) {
		struct oom_report *r = &st->reps[k];
		if (w) {
			struct oom_report *p = &st->reps[w - 1];
			if (p->kind == r->kind && p->used == r->used && p->capacity == r->capacity &&
			    p->exceeded == r->exceeded && p->requirement == r->requirement &&
			    p->tensorcore == r->tensorcore) {
				if (r->nallocs > p->nallocs)
					*p = *r;
				continue;
			}
		}
		st->reps[w++] = *r;
	}
	st->n = w;
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
		if (!oomlog_tpu(&st, &l) && !oomlog_tpu_temp(&st, &l) && !oomlog_tpu_sc(&st, &l) &&
		    !oomlog_gpu(&st, &l) && st.cur)
			oomlog_body(&st, &l);
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
	return st.n;
}

const char *oomlog_kind_name(enum oom_kind k)
{
	switch (k) {
	case OOM_TPU: return "tpu";
	case OOM_TPU_TEMP: return "tpu-temp";
	case OOM_TPU_SC: return "tpu-sparsecore";
	case OOM_GPU: return "gpu";
	}
	return "?";
}
