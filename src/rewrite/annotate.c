/* annotate.c - comment lines above instructions with their indentation and
 * line ends, the summary block, removing an earlier run's comments, and a
 * patience + Myers line diff for --diff.  It never changes HLO text, only
 * adds and removes comment lines (never breaking a line). */
#include "annotate.h"
#include <stdlib.h>
#include <string.h>
#include "diag.h"
#include "hash.h"
#include "lex.h"
#include "size.h"

/* ---- Text around an offset ---- */

struct annotate_buf {
	char *p;
	size_t n, cap;
};

static void annotate_put(struct annotate_buf *b, const char *s, size_t n)
{
	if (b->n + n + 1 > b->cap) {
		b->cap = (b->n + n + 1) * 2;
		b->p = xrealloc(b->p, b->cap);
	}
	memcpy(b->p + b->n, s, n);
	b->n += n;
	b->p[b->n] = 0;
}

static void annotate_puts(struct annotate_buf *b, const char *s)
{
	annotate_put(b, s, strlen(s));
}

static void annotate_put_any(void *b, const char *s, size_t n)
{
	annotate_put(b, s, n);
}

/* Comment text on one line: line ends and other control bytes escaped as
 * in every text output (diag_escape). */
static void annotate_put_clean(struct annotate_buf *b, const char *s)
{
	diag_escape(s, strlen(s), annotate_put_any, b);
}

/* The line end used by the line holding off ("\r\n", "\r" or "\n"); the
 * file's first one when that line has none, else "\n". */
static const char *annotate_eol(const char *t, uint64_t len, uint64_t off)
{
	for (int pass = 0; pass < 2; pass++) {
		for (uint64_t p = pass ? 0 : off; p < len; p++) {
			if (t[p] == '\n')
				return "\n";
			if (t[p] == '\r')
				return p + 1 < len && t[p + 1] == '\n' ? "\r\n" : "\r";
		}
	}
	return "\n";
}

static uint64_t annotate_line_start(const char *t, uint64_t off)
{
	while (off > 0 && t[off - 1] != '\n' && t[off - 1] != '\r')
		off--;
	return off;
}

/* Where the code of the line holding off starts (after its indentation):
 * comments go above the line, so one about an instruction that does not
 * start its line names it ("at %name"): lines are never broken. */
static uint64_t annotate_code_start(const char *t, uint64_t off)
{
	uint64_t p = annotate_line_start(t, off);
	while (p < off && (t[p] == ' ' || t[p] == '\t'))
		p++;
	return p;
}

/* Inserts the comment lines text[0, n) above the line whose code starts
 * at off, with its indentation. */
static void annotate_above(struct rewrite *rw, uint64_t off, const char *const *text, uint32_t n)
{
	const char *t = rw->base;
	uint64_t ls = annotate_line_start(t, off);
	const char *eol = annotate_eol(t, rw->len, off);
	struct annotate_buf b = { 0 };
	for (uint32_t k = 0; k < n; k++) {
		annotate_put(&b, t + ls, (size_t)(off - ls));
		annotate_puts(&b, text[k]);
		annotate_puts(&b, eol);
	}
	rewrite_insert(rw, ls, b.p, b.n);
	free(b.p);
}

/* Inserts the comment lines as a block after the HloModule header (or
 * before a headerless module's first line). */
static void annotate_after_header(struct rewrite *rw, const struct hlo_module *m, const char *const *text, uint32_t n)
{
	const char *t = rw->base;
	struct annotate_buf b = { 0 };
	if (!m->has_header || span_is_none(m->header)) {
		uint64_t at = annotate_line_start(t, m->span.start);
		const char *eol = annotate_eol(t, rw->len, at);
		for (uint32_t k = 0; k < n; k++) {
			annotate_puts(&b, text[k]);
			annotate_puts(&b, eol);
		}
		rewrite_insert(rw, at, b.p, b.n);
		free(b.p);
		return;
	}
	uint64_t he = m->header.end, p = he;
	while (p < rw->len && (t[p] == ' ' || t[p] == '\t'))
		p++;
	/* The block goes after the header's line when nothing but a line
	 * comment follows the header there; else above it (lines are never
	 * broken, so --strip gives the text back). */
	bool line_ok = p >= rw->len || t[p] == '\n' || t[p] == '\r' ||
		       (lex_at_comment(t, (size_t)rw->len, (size_t)p) && t[p + 1] == '/');
	const char *eol = annotate_eol(t, rw->len, he);
	if (!line_ok) {
		for (uint32_t k = 0; k < n; k++) {
			annotate_puts(&b, text[k]);
			annotate_puts(&b, eol);
		}
		rewrite_insert(rw, annotate_line_start(t, m->header.start), b.p, b.n);
		free(b.p);
		return;
	}
	uint64_t at = he;
	while (at < rw->len && t[at] != '\n' && t[at] != '\r')
		at++;
	for (uint32_t k = 0; k < n; k++) {
		annotate_puts(&b, eol);
		annotate_puts(&b, text[k]);
	}
	rewrite_insert(rw, at, b.p, b.n);
	free(b.p);
}

/* How the comments about --apply start: written below, read back by
 * annotate_applied_before. */
#define ANNOTATE_APPLIED IR_LINT_COMMENT " applied "
#define ANNOTATE_APPLY_MADE IR_LINT_COMMENT " --apply made "

bool annotate_applied_before(const struct hlo_file *f)
{
	static const char *const marks[] = { ANNOTATE_APPLY_MADE, ANNOTATE_APPLIED };
	for (uint32_t k = 0; k < f->nlint_comments; k++)
		for (size_t j = 0; j < sizeof marks / sizeof *marks; j++) {
			size_t n = strlen(marks[j]);
			if (span_len(f->lint_comments[k]) >= n && !memcmp(ir_text(f, f->lint_comments[k]), marks[j], n))
				return true;
		}
	return false;
}

void annotate_strip(struct rewrite *rw, const struct hlo_file *f)
{
	const char *t = rw->base;
	for (uint32_t k = 0; k < f->nlint_comments; k++) {
		struct span sp = f->lint_comments[k];
		uint64_t ls = annotate_line_start(t, sp.start), from = sp.start, to = sp.end;
		while (from > ls && (t[from - 1] == ' ' || t[from - 1] == '\t'))
			from--;
		if (from == ls) {   /* alone on its line: the line end goes too */
			if (to < rw->len && t[to] == '\r')
				to++;
			if (to < rw->len && t[to] == '\n')
				to++;
		}
		rewrite_replace(rw, span_make(from, to), "", 0);
	}
}

/* ---- Comment texts ---- */

static void annotate_suggestion(struct annotate_buf *b, const struct finding *f)
{
	char num[64];
	switch (f->suggest) {
	case SUGGEST_SHARDING:
		annotate_puts(b, "; suggestion: sharding=");
		annotate_put_clean(b, f->suggest_text ? f->suggest_text : "");
		return;
	case SUGGEST_SHAPE:
		annotate_puts(b, "; suggestion: shape ");
		annotate_put_clean(b, f->suggest_text ? f->suggest_text : "");
		return;
	case SUGGEST_MEMORY_SPACE:
		snprintf(num, sizeof num, "; suggestion: memory space S(%lld)", (long long)f->suggest_int);
		annotate_puts(b, num);
		return;
	case SUGGEST_DONATE_PARAMETER:
		snprintf(num, sizeof num, "; suggestion: donate parameter %lld", (long long)f->suggest_int);
		annotate_puts(b, num);
		return;
	case SUGGEST_OFFLOAD_PARAMETER:
		snprintf(num, sizeof num, "; suggestion: parameter %lld in S(5)", (long long)f->suggest_int);
		annotate_puts(b, num);
		return;
	case SUGGEST_NONE:
		break;
	}
	/* No machine-readable fix: the rule's "fix: ..." note, if any. */
	for (const struct finding_note *n = f->notes; n; n = n->next)
		if (!strncmp(n->text, "fix: ", 5)) {
			annotate_puts(b, "; ");
			annotate_put_clean(b, n->text);
			return;
		}
}

/* "// hlolint: RULE: MESSAGE; SUGGESTION[ (not applied: WHY)]". */
static char *annotate_finding_text(const struct annotate_item *it, bool at)
{
	const struct finding *f = it->f;
	struct annotate_buf b = { 0 };
	annotate_puts(&b, it->applied ? ANNOTATE_APPLIED : IR_LINT_COMMENT " ");
	annotate_put_clean(&b, f->rule);
	annotate_puts(&b, ": ");
	if (at && f->instruction[0]) {
		/* In the summary block, or above a line the instruction does not start. */
		annotate_puts(&b, "at %");
		annotate_put_clean(&b, f->instruction);
		annotate_puts(&b, ": ");
	}
	annotate_put_clean(&b, f->message);
	annotate_suggestion(&b, f);
	if (it->why_not) {
		annotate_puts(&b, " (not applied: ");
		annotate_put_clean(&b, it->why_not);
		annotate_puts(&b, ")");
	}
	if (it->resolved)
		annotate_puts(&b, " (resolved: no longer reported with the changes applied)");
	return b.p;
}

static char *annotate_note_text(const struct annotate_item *it, const struct apply_note *n, bool at)
{
	struct annotate_buf b = { 0 };
	annotate_puts(&b, ANNOTATE_APPLIED);
	annotate_put_clean(&b, it->f->rule);
	annotate_puts(&b, ": ");
	if (at && n->instr) {
		annotate_puts(&b, "at %");
		annotate_put(&b, ir_name(n->instr), ir_name_len(n->instr));
		annotate_puts(&b, ": ");
	}
	annotate_put_clean(&b, n->text);
	return b.p;
}

/* A comment line waiting for its place. */
struct annotate_line {
	uint64_t off;       /* instruction start */
	uint32_t seq;
	char *text;
};

static int annotate_line_cmp(const void *pa, const void *pb)
{
	const struct annotate_line *a = pa, *b = pb;
	if (a->off != b->off)
		return a->off < b->off ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

struct annotate_lines {
	struct annotate_line *v;
	uint32_t n, cap;
};

static void annotate_lines_add(struct annotate_lines *l, uint64_t off, char *text)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 32;
		l->v = xreallocarray(l->v, l->cap, sizeof *l->v);
	}
	l->v[l->n] = (struct annotate_line){ off, l->n, text };
	l->n++;
}

static const char *annotate_plural(uint64_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

/* The summary block's lines, then module-level findings and header edits. */
static void annotate_summary_lines(struct annotate_lines *out, const struct annotate_item *items, uint32_t n,
				   const struct annotate_summary *sum)
{
	char line[1024];
	unsigned sev[3] = { 0 };
	for (uint32_t k = 0; k < n; k++)
		sev[items[k].f->severity]++;
	int w = snprintf(line, sizeof line, IR_LINT_COMMENT " %u %s (%u %s, %u %s, %u %s):", n,
			 annotate_plural(n, "finding", "findings"), sev[FINDING_ERROR],
			 annotate_plural(sev[FINDING_ERROR], "error", "errors"), sev[FINDING_WARNING],
			 annotate_plural(sev[FINDING_WARNING], "warning", "warnings"), sev[FINDING_NOTE],
			 annotate_plural(sev[FINDING_NOTE], "note", "notes"));
	/* Per rule, in order of first appearance. */
	for (uint32_t k = 0; k < n && w > 0 && (size_t)w < sizeof line; k++) {
		bool seen = false;
		for (uint32_t j = 0; j < k && !seen; j++)
			seen = !strcmp(items[j].f->rule, items[k].f->rule);
		if (seen)
			continue;
		unsigned c = 0;
		for (uint32_t j = k; j < n; j++)
			c += !strcmp(items[j].f->rule, items[k].f->rule);
		w += snprintf(line + w, sizeof line - (size_t)w, "%s %s %u", w && line[w - 1] == ':' ? "" : ",",
			      items[k].f->rule, c);
	}
	annotate_lines_add(out, 0, xstrdup(line));

	char before[16], after[16], hbm[16], where[96] = "";
	size_human(sum->total_before, before);
	size_human(sum->total_after, after);
	if (sum->target && sum->hbm_bytes)
		snprintf(where, sizeof where, " (%s, %s of memory)", sum->target, size_human(sum->hbm_bytes, hbm));
	else if (sum->target)
		snprintf(where, sizeof where, " (%s)", sum->target);
	if (sum->apply) {
		snprintf(line, sizeof line, ANNOTATE_APPLY_MADE "%u of %u %s", sum->napplied, sum->napplicable,
			 annotate_plural(sum->napplicable, "applicable suggestion", "applicable suggestions"));
		annotate_lines_add(out, 0, xstrdup(line));
	}
	if (sum->apply && sum->napplied)
		snprintf(line, sizeof line, IR_LINT_COMMENT " estimated memory per device: %s before, %s after%s", before, after,
			 where);
	else if (!sum->apply && sum->have_after && sum->napplied)
		snprintf(line, sizeof line,
			 IR_LINT_COMMENT " estimated memory per device: %s; %s with the %u applicable %s made by --apply%s",
			 before, after, sum->napplied, annotate_plural(sum->napplied, "suggestion", "suggestions"), where);
	else
		snprintf(line, sizeof line, IR_LINT_COMMENT " estimated memory per device: %s%s", before, where);
	annotate_lines_add(out, 0, xstrdup(line));

	for (uint32_t k = 0; k < n; k++) {
		const struct annotate_item *it = &items[k];
		if (!it->instr)
			annotate_lines_add(out, 0, annotate_finding_text(it, true));
		for (const struct apply_note *x = it->notes; x; x = x->next)
			if (!x->instr)
				annotate_lines_add(out, 0, annotate_note_text(it, x, false));
	}
}

void annotate_module(struct rewrite *rw, const struct hlo_module *m, const struct annotate_item *items, uint32_t n,
		     const struct annotate_summary *sum)
{
	if (!n)
		return;
	struct annotate_lines head = { 0 }, body = { 0 };
	annotate_summary_lines(&head, items, n, sum);
	/* Findings first, then the edits' notes: at one instruction the
	 * finding reads before what was done about it. */
	const char *t = rw->base;
	for (uint32_t k = 0; k < n; k++) {
		const struct annotate_item *it = &items[k];
		if (!it->instr)
			continue;
		uint64_t start = ir_instr_span(it->instr).start, at = annotate_code_start(t, start);
		annotate_lines_add(&body, at, annotate_finding_text(it, at != start));
	}
	for (uint32_t k = 0; k < n; k++)
		for (const struct apply_note *x = items[k].notes; x; x = x->next)
			if (x->instr) {
				uint64_t start = ir_instr_span(x->instr).start, at = annotate_code_start(t, start);
				annotate_lines_add(&body, at, annotate_note_text(&items[k], x, at != start));
			}

	const char **texts = xreallocarray(NULL, head.n + body.n + 1, sizeof *texts);
	for (uint32_t k = 0; k < head.n; k++)
		texts[k] = head.v[k].text;
	annotate_after_header(rw, m, texts, head.n);
	if (body.n)   /* qsort(NULL, 0) is undefined */
		qsort(body.v, body.n, sizeof *body.v, annotate_line_cmp);
	for (uint32_t k = 0; k < body.n;) {
		uint32_t j = k;
		while (j < body.n && body.v[j].off == body.v[k].off) {
			texts[j - k] = body.v[j].text;
			j++;
		}
		annotate_above(rw, body.v[k].off, texts, j - k);
		k = j;
	}
	free(texts);
	for (uint32_t k = 0; k < head.n; k++)
		free(head.v[k].text);
	for (uint32_t k = 0; k < body.n; k++)
		free(body.v[k].text);
	free(head.v);
	free(body.v);
}

/* ---- Unified diff ---- */

struct annotate_text_lines {
	const char **p;     /* line starts */
	size_t *len;        /* with the line end */
	uint64_t *hash;
	uint32_t n;
};

/* Splits at "\n", "\r\n" and a lone "\r". */
static void annotate_split(const char *t, size_t len, struct annotate_text_lines *out)
{
	uint32_t cap = 0;
	memset(out, 0, sizeof *out);
	size_t s = 0;
	while (s < len) {
		size_t e = s;
		while (e < len && t[e] != '\n' && t[e] != '\r')
			e++;
		if (e < len)
			e += t[e] == '\r' && e + 1 < len && t[e + 1] == '\n' ? 2 : 1;
		if (out->n == cap) {
			cap = cap ? cap * 2 : 256;
			out->p = xreallocarray(out->p, cap, sizeof *out->p);
			out->len = xreallocarray(out->len, cap, sizeof *out->len);
			out->hash = xreallocarray(out->hash, cap, sizeof *out->hash);
		}
		uint64_t h = hash64(HASH64_INIT, t + s, e - s);
		out->p[out->n] = t + s;
		out->len[out->n] = e - s;
		out->hash[out->n] = h;
		out->n++;
		s = e;
	}
}

static void annotate_lines_free(struct annotate_text_lines *l)
{
	free(l->p);
	free(l->len);
	free(l->hash);
}

static bool annotate_line_eq(const struct annotate_text_lines *a, uint32_t i, const struct annotate_text_lines *b,
			     uint32_t j)
{
	return a->hash[i] == b->hash[j] && a->len[i] == b->len[j] && !memcmp(a->p[i], b->p[j], a->len[i]);
}

/* Edit script entry per output step: ' ' both, '-' a only, '+' b only. */
struct annotate_script {
	char *op;
	uint32_t n, cap;
};

static void annotate_op(struct annotate_script *s, char op)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 1024;
		s->op = xrealloc(s->op, s->cap);
	}
	s->op[s->n++] = op;
}

#define ANNOTATE_MAX_D 2000

/* Myers' greedy algorithm over a[a0, a1) and b[b0, b1); appends the script.
 * Past ANNOTATE_MAX_D differences: "delete all, insert all" (still a
 * correct diff; the patience step before keeps such gaps rare). */
static void annotate_myers(const struct annotate_text_lines *a, uint32_t a0, uint32_t a1,
			   const struct annotate_text_lines *b, uint32_t b0, uint32_t b1, struct annotate_script *s)
{
	int64_t n = a1 - a0, m = b1 - b0, max = n + m;
	if (max > ANNOTATE_MAX_D)
		max = ANNOTATE_MAX_D;
	/* trace[d] holds V[-d..d] after step d. */
	int64_t *v = xcalloc((size_t)(2 * max + 3), sizeof *v), off = max + 1;
	int64_t **trace = xcalloc((size_t)max + 1, sizeof *trace);
	int64_t found = -1;
	for (int64_t d = 0; d <= max && found < 0; d++) {
		for (int64_t k = -d; k <= d; k += 2) {
			int64_t x = (k == -d || (k != d && v[off + k - 1] < v[off + k + 1])) ? v[off + k + 1]
											    : v[off + k - 1] + 1;
			int64_t y = x - k;
			while (x < n && y < m && annotate_line_eq(a, (uint32_t)(a0 + x), b, (uint32_t)(b0 + y))) {
				x++;
				y++;
			}
			v[off + k] = x;
			if (x >= n && y >= m) {
				found = d;
				break;
			}
		}
		trace[d] = xreallocarray(NULL, (size_t)(2 * d + 1), sizeof **trace);
		for (int64_t k = -d; k <= d; k++)
			trace[d][k + d] = v[off + k];
	}
	if (found < 0) {
		for (int64_t k = 0; k < n; k++)
			annotate_op(s, '-');
		for (int64_t k = 0; k < m; k++)
			annotate_op(s, '+');
	} else {
		/* Backtrack, collecting the script in reverse. */
		struct annotate_script rev = { 0 };
		int64_t x = n, y = m;
		for (int64_t d = found; d > 0; d--) {
			int64_t k = x - y;
			const int64_t *pv = trace[d - 1];
			int64_t pk = (k == -d || (k != d && pv[k - 1 + (d - 1)] < pv[k + 1 + (d - 1)])) ? k + 1 : k - 1;
			int64_t px = pv[pk + (d - 1)], py = px - pk;
			while (x > px && y > py) {
				annotate_op(&rev, ' ');
				x--;
				y--;
			}
			annotate_op(&rev, x == px ? '+' : '-');
			x = px;
			y = py;
		}
		while (x > 0 && y > 0) {
			annotate_op(&rev, ' ');
			x--;
			y--;
		}
		for (uint32_t k = rev.n; k-- > 0;)
			annotate_op(s, rev.op[k]);
		free(rev.op);
	}
	for (int64_t d = 0; d <= max; d++)
		free(trace[d]);
	free(trace);
	free(v);
}

/* Lines that occur exactly once in a[a0, a1) and once in b[b0, b1). */
struct annotate_uniq {
	uint32_t ia, ib;    /* first position on each side */
	uint32_t ca, cb;    /* counts (saturating at 2) */
	bool used;
};

/* Patience diff: the lines unique on both sides, their longest common
 * subsequence as anchors, and the gaps between anchors diffed on their own
 * (Myers once no anchor is left).  Annotated output keeps nearly every
 * original line, and instruction lines are unique, so gaps stay small. */
static void annotate_patience(const struct annotate_text_lines *a, uint32_t a0, uint32_t a1,
			      const struct annotate_text_lines *b, uint32_t b0, uint32_t b1, struct annotate_script *s,
			      int depth)
{
	while (a0 < a1 && b0 < b1 && annotate_line_eq(a, a0, b, b0)) {
		annotate_op(s, ' ');
		a0++;
		b0++;
	}
	uint32_t tail = 0;
	while (a1 > a0 && b1 > b0 && annotate_line_eq(a, a1 - 1, b, b1 - 1)) {
		a1--;
		b1--;
		tail++;
	}
	if (a0 == a1 || b0 == b1 || depth > 16) {
		annotate_myers(a, a0, a1, b, b0, b1, s);
		while (tail--)
			annotate_op(s, ' ');
		return;
	}
	uint32_t cap = 1;
	while (cap < 2 * ((a1 - a0) + (b1 - b0)))
		cap *= 2;
	struct annotate_uniq *tab = xcalloc(cap, sizeof *tab);
	for (int side = 0; side < 2; side++) {
		const struct annotate_text_lines *l = side ? b : a;
		uint32_t lo = side ? b0 : a0, hi = side ? b1 : a1;
		for (uint32_t i = lo; i < hi; i++) {
			uint32_t h = (uint32_t)(l->hash[i] ^ (l->hash[i] >> 32)) & (cap - 1);
			for (;;) {
				struct annotate_uniq *u = &tab[h];
				if (!u->used) {
					if (side)
						break;  /* only in b: no anchor */
					*u = (struct annotate_uniq){ .ia = i, .ca = 1, .used = true };
					break;
				}
				if (annotate_line_eq(a, u->ia, l, i)) {
					if (side) {
						if (!u->cb)
							u->ib = i;
						u->cb += u->cb < 2;
					} else {
						u->ca += u->ca < 2;
					}
					break;
				}
				h = (h + 1) & (cap - 1);
			}
		}
	}
	/* Anchors in a's order, then the longest increasing run in b (patience
	 * sorting with back links). */
	uint32_t na = 0;
	uint32_t *ai = xreallocarray(NULL, (size_t)(a1 - a0) + 1, sizeof *ai);
	uint32_t *bi = xreallocarray(NULL, (size_t)(a1 - a0) + 1, sizeof *bi);
	for (uint32_t i = a0; i < a1; i++) {
		uint32_t h = (uint32_t)(a->hash[i] ^ (a->hash[i] >> 32)) & (cap - 1);
		while (tab[h].used && !annotate_line_eq(a, tab[h].ia, a, i))
			h = (h + 1) & (cap - 1);
		if (tab[h].used && tab[h].ia == i && tab[h].ca == 1 && tab[h].cb == 1) {
			ai[na] = i;
			bi[na] = tab[h].ib;
			na++;
		}
	}
	free(tab);
	uint32_t *tops = xreallocarray(NULL, (size_t)na + 1, sizeof *tops);
	uint32_t *prev = xreallocarray(NULL, (size_t)na + 1, sizeof *prev);
	uint32_t npiles = 0;
	for (uint32_t k = 0; k < na; k++) {
		uint32_t lo = 0, hi = npiles;
		while (lo < hi) {
			uint32_t mid = (lo + hi) / 2;
			if (bi[tops[mid]] < bi[k])
				lo = mid + 1;
			else
				hi = mid;
		}
		prev[k] = lo ? tops[lo - 1] : UINT32_MAX;
		tops[lo] = k;
		if (lo == npiles)
			npiles++;
	}
	uint32_t nlis = npiles;
	uint32_t *lis = xreallocarray(NULL, (size_t)nlis + 1, sizeof *lis);
	for (uint32_t k = nlis, x = npiles ? tops[npiles - 1] : 0; k-- > 0; x = prev[x])
		lis[k] = x;
	if (!nlis) {
		annotate_myers(a, a0, a1, b, b0, b1, s);
	} else {
		uint32_t pa = a0, pb = b0;
		for (uint32_t k = 0; k < nlis; k++) {
			uint32_t x = ai[lis[k]], y = bi[lis[k]];
			annotate_patience(a, pa, x, b, pb, y, s, depth + 1);
			annotate_op(s, ' ');
			pa = x + 1;
			pb = y + 1;
		}
		annotate_patience(a, pa, a1, b, pb, b1, s, depth + 1);
	}
	free(ai);
	free(bi);
	free(tops);
	free(prev);
	free(lis);
	while (tail--)
		annotate_op(s, ' ');
}

static void annotate_diff_line(FILE *out, char op, const char *p, size_t len)
{
	fputc(op, out);
	fwrite(p, 1, len, out);
	if (!len || (p[len - 1] != '\n' && p[len - 1] != '\r'))
		fputs("\n\\ No newline at end of file\n", out);
}

static void annotate_range(FILE *out, char sign, uint32_t start, uint32_t count)
{
	/* GNU diff: an empty range names the line before it. */
	if (count == 1)
		fprintf(out, "%c%u", sign, start + 1);
	else
		fprintf(out, "%c%u,%u", sign, count ? start + 1 : start, count);
}

bool annotate_diff(FILE *out, const char *label_a, const char *label_b, const char *a, size_t alen, const char *b,
		   size_t blen)
{
	if (alen == blen && !memcmp(a, b, alen))
		return true;
	struct annotate_text_lines la, lb;
	annotate_split(a, alen, &la);
	annotate_split(b, blen, &lb);
	struct annotate_script s = { 0 };
	annotate_patience(&la, 0, la.n, &lb, 0, lb.n, &s, 0);

	fprintf(out, "--- %s\n+++ %s\n", label_a, label_b);
	const uint32_t ctx = 3;
	uint32_t k = 0;
	/* Positions in a and b of script entry k. */
	uint32_t *pa = xreallocarray(NULL, (size_t)s.n + 1, sizeof *pa);
	uint32_t *pb = xreallocarray(NULL, (size_t)s.n + 1, sizeof *pb);
	for (uint32_t j = 0, x = 0, y = 0; j <= s.n; j++) {
		pa[j] = x;
		pb[j] = y;
		if (j < s.n) {
			x += s.op[j] != '+';
			y += s.op[j] != '-';
		}
	}
	while (k < s.n) {
		while (k < s.n && s.op[k] == ' ')
			k++;
		if (k == s.n)
			break;
		/* A hunk: from ctx lines before this change to ctx lines after
		 * the last change closer than 2*ctx+1 unchanged lines. */
		uint32_t start = k >= ctx ? k - ctx : 0;
		uint32_t end = k;
		for (;;) {
			while (end < s.n && s.op[end] != ' ')
				end++;
			uint32_t run = end;
			while (run < s.n && s.op[run] == ' ')
				run++;
			if (run < s.n && run - end <= 2 * ctx) {
				end = run;
				continue;
			}
			end = end + ctx < s.n ? end + ctx : s.n;
			break;
		}
		fputs("@@ ", out);
		annotate_range(out, '-', pa[start], pa[end] - pa[start]);
		fputc(' ', out);
		annotate_range(out, '+', pb[start], pb[end] - pb[start]);
		fputs(" @@\n", out);
		for (uint32_t j = start; j < end; j++) {
			if (s.op[j] == '+')
				annotate_diff_line(out, '+', lb.p[pb[j]], lb.len[pb[j]]);
			else
				annotate_diff_line(out, s.op[j], la.p[pa[j]], la.len[pa[j]]);
		}
		k = end;
	}
	free(pa);
	free(pb);
	free(s.op);
	annotate_lines_free(&la);
	annotate_lines_free(&lb);
	return !ferror(out);
}
