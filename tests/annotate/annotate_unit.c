/* annotate_unit.c - unit checks of the annotate machinery with hand-made
 * findings (no rule involved): the rewrite buffer (order, conflicts,
 * rollback), comment placement (indentation, line ends, instructions that
 * do not start their line, headers), --apply edits (memory space from any
 * point of a buffer's flow, shardings on tuple leaves, refusals, two
 * findings about one buffer) and the unified diff, which a small patcher
 * here applies back.  Built and run by test_annotate_unit.sh against the
 * library next to $HLOLINT. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "annotate.h"
#include "apply.h"
#include "finding.h"
#include "parse.h"
#include "rewrite.h"

static int failures;

#define CHECK(cond)                                                                              \
	do {                                                                                     \
		if (!(cond)) {                                                                   \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);     \
			failures++;                                                              \
		}                                                                                \
	} while (0)

#define CHECK_STR(got, want)                                                                      \
	do {                                                                                      \
		const char *g_ = (got), *w_ = (want);                                             \
		if (strcmp(g_, w_)) {                                                             \
			fprintf(stderr, "%s:%d: got:\n%s\n--- want:\n%s\n---\n", __FILE__, __LINE__, g_, w_); \
			failures++;                                                               \
		}                                                                                 \
	} while (0)

/* ---- rewrite ---- */

static char *rw_text(struct rewrite *r)
{
	size_t n;
	return rewrite_result(r, &n);
}

static void test_rewrite(void)
{
	const char *base = "abcdefghij";
	struct rewrite r;
	rewrite_init(&r, base, 10);
	CHECK(rewrite_empty(&r));
	char *t = rw_text(&r);
	CHECK_STR(t, base);
	free(t);
	CHECK(rewrite_insert(&r, 3, "1", 1));
	CHECK(rewrite_insert(&r, 3, "2", 1));          /* same offset: in order */
	CHECK(rewrite_replace(&r, span_make(3, 5), "XY", 2));
	CHECK(rewrite_insert(&r, 5, "3", 1));          /* at the replacement's end: after it */
	CHECK(rewrite_insert(&r, 10, "!", 1));         /* append */
	CHECK(!rewrite_insert(&r, 11, "?", 1));        /* past the end */
	CHECK(!rewrite_insert(&r, 4, "?", 1));         /* inside a replacement */
	CHECK(!rewrite_replace(&r, span_make(4, 6), "?", 1));   /* overlaps */
	CHECK(rewrite_replace(&r, span_make(3, 5), "XY", 2));   /* the same again: one edit */
	CHECK(!rewrite_replace(&r, span_make(3, 5), "ZZ", 2));  /* the same range, other text */
	CHECK(!rewrite_replace(&r, span_make(6, 6), "?", 1));   /* empty */
	t = rw_text(&r);
	CHECK_STR(t, "abc12XY3fghij!");
	free(t);
	uint32_t mark = rewrite_mark(&r);
	CHECK(rewrite_replace(&r, span_make(7, 9), "", 0));
	CHECK(!rewrite_insert(&r, 8, "?", 1));
	t = rw_text(&r);
	CHECK_STR(t, "abc12XY3fgj!");
	free(t);
	rewrite_rollback(&r, mark);
	CHECK(rewrite_insert(&r, 8, "-", 1));          /* allowed again after the rollback */
	t = rw_text(&r);
	CHECK_STR(t, "abc12XY3fgh-ij!");
	free(t);
	/* An insertion strictly inside a later replacement is refused. */
	CHECK(!rewrite_replace(&r, span_make(7, 9), "..", 2));
	rewrite_free(&r);
}

/* ---- helpers over a parsed text ---- */

struct fixture {
	struct source *src;
	struct hlo_file *f;
	struct finding_sink sink;
};

static bool fx_load(struct fixture *x, const char *text)
{
	struct diag_sink d;
	diag_init(&d, stderr, 20);
	x->src = source_from_memory("<unit>", text, strlen(text));
	x->f = parse_file(x->src, &d);
	finding_sink_init(&x->sink);
	x->sink.src = x->src;
	x->sink.path = "<unit>";
	CHECK(d.errors == 0);
	return d.errors == 0;
}

static void fx_free(struct fixture *x)
{
	finding_sink_free(&x->sink);
	parse_free(x->f);
	source_free(x->src);
}

static struct hlo_instr *fx_instr(struct fixture *x, const char *comp, const char *name)
{
	struct hlo_module *m = x->f->modules;
	struct hlo_comp *c = comp ? ir_find_comp(m, comp) : m->entry;
	return c ? ir_find_instr(c, name) : NULL;
}

/* Annotates module m with one item per finding (instr from the finding). */
static char *fx_annotate(struct fixture *x, struct annotate_item *items, uint32_t n)
{
	struct rewrite r;
	rewrite_init(&r, x->src->buf, x->src->len);
	struct annotate_summary sum = { .total_before = 1024, .total_after = 1024, .target = "tpu-v5e" };
	annotate_module(&r, x->f->modules, items, n, &sum);
	char *t = rw_text(&r);
	rewrite_free(&r);
	return t;
}

static void test_placement(void)
{
	struct fixture x;
	/* Tabs, an instruction after another on one line (its comment names it
	 * and goes above the line), a header with a
	 * trailing comment, CR-only line ends. */
	if (fx_load(&x, "HloModule m // keep\r\rENTRY %e (p: f32[2]) -> f32[2] {\r\t%p = f32[2]{0} parameter(0) "
			"%q = f32[2]{0} negate(%p)\r\tROOT %r = f32[2]{0} negate(%q)\r}\r")) {
		struct hlo_instr *q = fx_instr(&x, NULL, "q"), *r = fx_instr(&x, NULL, "r");
		struct annotate_item it[3] = { 0 };
		it[0].f = finding_add(&x.sink, "unit-a", FINDING_WARNING, x.f->modules, q, "first on q");
		it[0].instr = q;
		it[1].f = finding_add(&x.sink, "unit-b", FINDING_NOTE, x.f->modules, r, "on r\nwith a newline");
		it[1].instr = r;
		it[2].f = finding_add(&x.sink, "unit-c", FINDING_ERROR, x.f->modules, NULL, "module level");
		char *t = fx_annotate(&x, it, 3);
		CHECK_STR(t, "HloModule m // keep\r"
			     "// hlolint: 3 findings (1 error, 1 warning, 1 note): unit-a 1, unit-b 1, unit-c 1\r"
			     "// hlolint: estimated memory per device: 1.0K (tpu-v5e)\r"
			     "// hlolint: unit-c: module level\r"
			     "\rENTRY %e (p: f32[2]) -> f32[2] {\r"
			     "\t// hlolint: unit-a: at %q: first on q\r"
			     "\t%p = f32[2]{0} parameter(0) %q = f32[2]{0} negate(%p)\r"
			     "\t// hlolint: unit-b: on r\\x0awith a newline\r"  /* escaped as in every text output */
			     "\tROOT %r = f32[2]{0} negate(%q)\r}\r");
		free(t);
		/* No items: nothing changes. */
		t = fx_annotate(&x, it, 0);
		CHECK(!strcmp(t, x.src->buf));
		free(t);
	}
	fx_free(&x);
	/* A header followed by code on its line (the block goes above it), and
	 * a suggestion. */
	if (fx_load(&x, "HloModule m ENTRY %e (p: f32[2]) -> f32[2] { ROOT %p = f32[2]{0} parameter(0) }")) {
		struct hlo_instr *p = fx_instr(&x, NULL, "p");
		struct annotate_item it = { 0 };
		struct finding *f = finding_add(&x.sink, "unit", FINDING_WARNING, x.f->modules, p, "msg");
		finding_suggest_sharding(&x.sink, f, "{devices=[2]<=[2]}");
		it.f = f;
		it.instr = p;
		it.why_not = "because";
		char *t = fx_annotate(&x, &it, 1);
		CHECK_STR(t, "// hlolint: 1 finding (0 errors, 1 warning, 0 notes): unit 1\n"
			     "// hlolint: estimated memory per device: 1.0K (tpu-v5e)\n"
			     "// hlolint: unit: at %p: msg; suggestion: sharding={devices=[2]<=[2]} (not applied: because)\n"
			     "HloModule m ENTRY %e (p: f32[2]) -> f32[2] { ROOT %p = f32[2]{0} parameter(0) }");
		struct source *s2 = source_from_memory("<t>", t, strlen(t));
		struct diag_sink d;
		diag_init(&d, stderr, 20);
		parse_free(parse_file(s2, &d));
		CHECK(d.errors == 0);
		source_free(s2);
		free(t);
	}
	fx_free(&x);
}

/* ---- apply ---- */

static const char *const scan_text =
	"HloModule s, entry_computation_layout={(f32[4,8]{1,0})->f32[4,8]{1,0}}\n"
	"\n"
	"%body (p: (s32[], f32[4,8])) -> (s32[], f32[4,8]) {\n"
	"  %p = (s32[], f32[4,8]{1,0}) parameter(0)\n"
	"  %i = s32[] get-tuple-element(%p), index=0\n"
	"  %b = f32[4,8]{1,0} get-tuple-element(%p), index=1\n"
	"  %u = f32[1,8]{1,0} broadcast(f32[] constant(1)), dimensions={}\n"
	"  %z = s32[] constant(0)\n"
	"  %d = f32[4,8]{1,0} dynamic-update-slice(%b, %u, %i, %z)\n"
	"  %one = s32[] constant(1)\n"
	"  %i2 = s32[] add(%i, %one)\n"
	"  ROOT %t = (s32[], f32[4,8]{1,0}) tuple(%i2, %d)\n"
	"}\n"
	"\n"
	"%cond (c: (s32[], f32[4,8])) -> pred[] {\n"
	"  %c = (s32[], f32[4,8]{1,0}) parameter(0)\n"
	"  %ic = s32[] get-tuple-element(%c), index=0\n"
	"  %n = s32[] constant(4)\n"
	"  ROOT %lt = pred[] compare(%ic, %n), direction=LT\n"
	"}\n"
	"\n"
	"ENTRY %main (x: f32[4,8]) -> f32[4,8] {\n"
	"  %x = f32[4,8]{1,0} parameter(0)\n"
	"  %c0 = s32[] constant(0)\n"
	"  %init = (s32[], f32[4,8]{1,0}) tuple(%c0, %x)\n"
	"  %w = (s32[], f32[4,8]{1,0}) while(%init), condition=%cond, body=%body\n"
	"  ROOT %r = f32[4,8] get-tuple-element(%w), index=1\n"
	"}\n";

/* Parses the rewritten text; returns the number of memory-space mismatches
 * (UINT64_MAX when it does not parse). */
static uint64_t reparse_mismatches(const char *text, int64_t *root_space)
{
	struct source *s = source_from_memory("<applied>", text, strlen(text));
	struct diag_sink d;
	diag_init(&d, stderr, 20);
	struct hlo_file *f = parse_file(s, &d);
	uint64_t n = d.errors || !f->modules ? UINT64_MAX : apply_space_mismatches(f->modules);
	if (n != UINT64_MAX && root_space) {
		struct hlo_instr *r = f->modules->entry->root;
		*root_space = r->shape->layout ? r->shape->layout->memory_space : 0;
	}
	parse_free(f);
	source_free(s);
	return n;
}

static void test_apply_space(void)
{
	struct fixture x;
	if (!fx_load(&x, scan_text)) {
		fx_free(&x);
		return;
	}
	struct hlo_module *m = x.f->modules;
	CHECK(apply_space_mismatches(m) == 0);
	struct rewrite r;
	rewrite_init(&r, x.src->buf, x.src->len);
	struct apply_state st;
	apply_init(&st, &r);
	char why[300];
	struct apply_note *notes;
	/* Seeded at a GTE inside the body, not at the write. */
	struct hlo_instr *b = fx_instr(&x, "body", "b");
	struct finding *f = finding_add(&x.sink, "unit", FINDING_WARNING, m, b, "carried");
	finding_suggest_memory_space(f, 5);
	CHECK(apply_finding(&st, m, NULL, f, b, &notes, why, sizeof why));
	uint32_t nn = 0;
	bool header = false;
	for (struct apply_note *n = notes; n; n = n->next) {
		nn++;
		header |= !n->instr;
	}
	/* p, b, d, t, c, x (entry parameter), init, w, r and the ECL's parameter
	 * and result; the signatures have no layouts. */
	CHECK(nn == 11);
	CHECK(header);
	/* The same buffer again, from the while (tuple index 1): nothing new. */
	struct hlo_instr *w = fx_instr(&x, NULL, "w");
	struct finding *g = finding_add(&x.sink, "unit", FINDING_WARNING, m, w, "again");
	finding_suggest_memory_space(g, 5);
	finding_set_tuple_index(&x.sink, g, 1);
	CHECK(apply_finding(&st, m, NULL, g, w, &notes, why, sizeof why));
	CHECK(notes == NULL);
	char *t = rw_text(&r);
	CHECK(strstr(t, "%d = f32[4,8]{1,0:S(5)} dynamic-update-slice") != NULL);
	CHECK(strstr(t, "entry_computation_layout={(f32[4,8]{1,0:S(5)})->f32[4,8]{1,0:S(5)}}") != NULL);
	/* The ROOT had no layout: the default one is written. */
	CHECK(strstr(t, "ROOT %r = f32[4,8]{1,0:S(5)} get-tuple-element") != NULL);
	int64_t space = -1;
	CHECK(reparse_mismatches(t, &space) == 0);
	CHECK(space == 5);
	free(t);
	/* A tuple seed without an index is refused. */
	struct finding *h = finding_add(&x.sink, "unit", FINDING_WARNING, m, w, "which one");
	finding_suggest_memory_space(h, 5);
	CHECK(!apply_finding(&st, m, NULL, h, w, &notes, why, sizeof why));
	CHECK(strstr(why, "which array") != NULL);
	apply_free(&st);
	rewrite_free(&r);
	fx_free(&x);

	/* A user computing on the buffer refuses the whole change. */
	const char *text = "HloModule n\n\nENTRY %e (x: f32[8]) -> f32[8] {\n"
			   "  %z = f32[] constant(0)\n"
			   "  %buf = f32[8]{0:T(256)} broadcast(%z), dimensions={}\n"
			   "  %bc = f32[8]{0:T(256)S(1)} bitcast(%buf)\n"
			   "  ROOT %neg = f32[8]{0} negate(%bc)\n}\n";
	if (fx_load(&x, text)) {
		m = x.f->modules;
		rewrite_init(&r, x.src->buf, x.src->len);
		apply_init(&st, &r);
		struct hlo_instr *buf = fx_instr(&x, NULL, "buf");
		f = finding_add(&x.sink, "unit", FINDING_WARNING, m, buf, "offload");
		finding_suggest_memory_space(f, 5);
		CHECK(!apply_finding(&st, m, NULL, f, buf, &notes, why, sizeof why));
		CHECK(strstr(why, "%neg (negate) computes on the buffer") != NULL);
		CHECK(rewrite_empty(&r));
		apply_free(&st);
		rewrite_free(&r);
	}
	fx_free(&x);
}

/* S(n) goes into layouts in XLA's attribute order (D T L # * E S SC P M),
 * replaces an S(m), and a shape without layout gets the default one. */
static void test_layout_text(void)
{
	struct fixture x;
	const char *text =
		"HloModule l, entry_computation_layout={(f32[8]{0:T(256)S(1)}, f32[8]{0:T(256)L(4)}, "
		"f32[8]{0:T(256)M(8)}, f32[2,3])->(f32[8]{0:T(256)S(1)}, f32[8]{0:T(256)L(4)}, f32[8]{0:T(256)M(8)}, "
		"f32[2,3])}\n\n"
		"ENTRY %e (a: f32[8], b: f32[8], c: f32[8], d: f32[2,3]) -> (f32[8], f32[8], f32[8], f32[2,3]) {\n"
		"  %a = f32[8]{0:T(256)S(1)} parameter(0)\n"
		"  %b = f32[8]{0:T(256)L(4)} parameter(1)\n"
		"  %c = f32[8]{0:T(256)M(8)} parameter(2)\n"
		"  %d = f32[2,3] parameter(3)\n"
		"  ROOT %t = (f32[8]{0:T(256)S(1)}, f32[8]{0:T(256)L(4)}, /*index=2*/f32[8]{0:T(256)M(8)}, f32[2,3]) "
		"tuple(%a, %b, %c, %d)\n}\n";
	if (!fx_load(&x, text)) {
		fx_free(&x);
		return;
	}
	struct hlo_module *m = x.f->modules;
	struct rewrite r;
	rewrite_init(&r, x.src->buf, x.src->len);
	struct apply_state st;
	apply_init(&st, &r);
	char why[300];
	struct apply_note *notes;
	const char *names[] = { "a", "b", "c", "d" };
	for (int k = 0; k < 4; k++) {
		struct hlo_instr *i = fx_instr(&x, NULL, names[k]);
		struct finding *f = finding_add(&x.sink, "unit", FINDING_WARNING, m, i, "to host");
		finding_suggest_memory_space(f, 5);
		CHECK(apply_finding(&st, m, NULL, f, i, &notes, why, sizeof why));
	}
	char *t = rw_text(&r);
	CHECK_STR(t, "HloModule l, entry_computation_layout={(f32[8]{0:T(256)S(5)}, f32[8]{0:T(256)L(4)S(5)}, "
		     "f32[8]{0:T(256)S(5)M(8)}, f32[2,3]{1,0:S(5)})->(f32[8]{0:T(256)S(5)}, f32[8]{0:T(256)L(4)S(5)}, "
		     "f32[8]{0:T(256)S(5)M(8)}, f32[2,3]{1,0:S(5)})}\n\n"
		     "ENTRY %e (a: f32[8], b: f32[8], c: f32[8], d: f32[2,3]) -> (f32[8], f32[8], f32[8], f32[2,3]) {\n"
		     "  %a = f32[8]{0:T(256)S(5)} parameter(0)\n"
		     "  %b = f32[8]{0:T(256)L(4)S(5)} parameter(1)\n"
		     "  %c = f32[8]{0:T(256)S(5)M(8)} parameter(2)\n"
		     "  %d = f32[2,3]{1,0:S(5)} parameter(3)\n"
		     "  ROOT %t = (f32[8]{0:T(256)S(5)}, f32[8]{0:T(256)L(4)S(5)}, /*index=2*/f32[8]{0:T(256)S(5)M(8)}, "
		     "f32[2,3]{1,0:S(5)}) tuple(%a, %b, %c, %d)\n}\n");
	CHECK(reparse_mismatches(t, NULL) == 0);
	free(t);
	apply_free(&st);
	rewrite_free(&r);
	fx_free(&x);
}

static void test_apply_sharding(void)
{
	struct fixture x;
	const char *text = "HloModule t, num_partitions=2\n\n"
			   "ENTRY %e (p: (f32[8], f32[8]), q: f32[8]) -> f32[8] {\n"
			   "  %p = (f32[8]{0}, f32[8]{0}) parameter(0), sharding={{replicated}, {replicated}}\n"
			   "  %q = f32[8]{0} parameter(1)\n"
			   "  %a = f32[8]{0} get-tuple-element(%p), index=1\n"
			   "  ROOT %s = f32[8]{0} add(%a, %q)\n}\n";
	if (!fx_load(&x, text)) {
		fx_free(&x);
		return;
	}
	struct hlo_module *m = x.f->modules;
	struct rewrite r;
	rewrite_init(&r, x.src->buf, x.src->len);
	struct apply_state st;
	apply_init(&st, &r);
	char why[300];
	struct apply_note *notes;
	struct hlo_instr *p = fx_instr(&x, NULL, "p"), *q = fx_instr(&x, NULL, "q");
	struct finding *f = finding_add(&x.sink, "unit", FINDING_WARNING, m, p, "leaf 1");
	finding_suggest_sharding(&x.sink, f, "{devices=[2]<=[2]}");
	finding_set_leaf(&x.sink, f, 1);
	CHECK(apply_finding(&st, m, NULL, f, p, &notes, why, sizeof why));
	CHECK(notes && !strcmp(notes->text, "was {replicated} at index {1}"));
	struct finding *g = finding_add(&x.sink, "unit", FINDING_WARNING, m, q, "add one");
	finding_suggest_sharding(&x.sink, g, "{devices=[2]<=[2]}");
	CHECK(apply_finding(&st, m, NULL, g, q, &notes, why, sizeof why));
	CHECK(notes && !strcmp(notes->text, "was no sharding"));
	/* Another sharding for the same instruction conflicts. */
	struct finding *h = finding_add(&x.sink, "unit", FINDING_WARNING, m, q, "other");
	finding_suggest_sharding(&x.sink, h, "{maximal device=1}");
	CHECK(!apply_finding(&st, m, NULL, h, q, &notes, why, sizeof why));
	CHECK(strstr(why, "conflicts") != NULL);
	/* A suggestion kind --apply does not make. */
	struct finding *k = finding_add(&x.sink, "unit", FINDING_WARNING, m, q, "donate");
	finding_suggest_donation(k, 1);
	CHECK(!apply_supported(k));
	CHECK(!apply_finding(&st, m, NULL, k, q, &notes, why, sizeof why));
	char *t = rw_text(&r);
	CHECK(strstr(t, "sharding={{replicated}, {devices=[2]<=[2]}}") != NULL);
	CHECK(strstr(t, "parameter(1), sharding={devices=[2]<=[2]}\n") != NULL);
	CHECK(reparse_mismatches(t, NULL) == 0);
	free(t);
	apply_free(&st);
	rewrite_free(&r);
	fx_free(&x);
}

/* ---- diff ---- */

/* Applies a unified diff (as annotate_diff writes it) to a; NULL on a
 * malformed or mismatching hunk. */
static char *patch(const char *a, const char *diff)
{
	size_t cap = strlen(a) + strlen(diff) + 1, n = 0;
	char *out = malloc(cap);
	const char *ap = a, *d = diff;
	unsigned long aline = 1;
	d = strchr(d, '\n') + 1;    /* --- */
	d = strchr(d, '\n') + 1;    /* +++ */
	/* Lines of a, kept with their ends. */
	while (*d) {
		unsigned long s1, n1 = 1, s2, n2 = 1;
		if (sscanf(d, "@@ -%lu,%lu +%lu,%lu @@", &s1, &n1, &s2, &n2) != 4) {
			n1 = n2 = 1;
			if (sscanf(d, "@@ -%lu +%lu,%lu @@", &s1, &s2, &n2) != 3 &&
			    sscanf(d, "@@ -%lu,%lu +%lu @@", &s1, &n1, &s2) != 3 && sscanf(d, "@@ -%lu +%lu @@", &s1, &s2) != 2) {
				free(out);
				return NULL;
			}
		}
		if (n1 == 0)
			s1++;
		d = strchr(d, '\n') + 1;
		while (aline < s1) {   /* copy up to the hunk */
			const char *e = ap;
			while (*e && *e != '\n' && *e != '\r')
				e++;
			if (*e == '\r' && e[1] == '\n')
				e++;
			if (*e)
				e++;
			memcpy(out + n, ap, (size_t)(e - ap));
			n += (size_t)(e - ap);
			ap = e;
			aline++;
		}
		while (*d && *d != '@') {
			char op = *d++;
			const char *e = d;
			while (*e && *e != '\n' && *e != '\r')
				e++;
			if (*e == '\r' && e[1] == '\n')
				e++;
			if (*e)
				e++;
			size_t len = (size_t)(e - d);
			bool nonl = !strncmp(e, "\\ No newline at end of file\n", 28);
			size_t keep = nonl ? len - 1 : len;
			if (op == ' ' || op == '-') {
				if (strncmp(ap, d, keep)) {
					free(out);
					return NULL;
				}
				ap += keep;
				aline++;
			}
			if (op == ' ' || op == '+') {
				memcpy(out + n, d, keep);
				n += keep;
			}
			d = nonl ? e + 28 : e;
		}
	}
	size_t rest = strlen(ap);
	memcpy(out + n, ap, rest);
	n += rest;
	out[n] = 0;
	return out;
}

static void diff_roundtrip(const char *a, const char *b)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mf = open_memstream(&buf, &len);
	CHECK(annotate_diff(mf, "a", "b", a, strlen(a), b, strlen(b)));
	fclose(mf);
	if (!strcmp(a, b)) {
		CHECK(len == 0);
	} else {
		char *p = patch(a, buf);
		CHECK(p != NULL);
		if (p && strcmp(p, b)) {
			fprintf(stderr, "diff does not round-trip:\n%s--- patched:\n%s\n", buf, p);
			failures++;
		}
		free(p);
	}
	free(buf);
}

static void test_diff(void)
{
	diff_roundtrip("a\nb\nc\n", "a\nb\nc\n");
	diff_roundtrip("a\nb\nc\n", "a\nx\nb\nc\n");
	diff_roundtrip("a\nb\nc", "a\nb\nc\n");           /* newline at the end added */
	diff_roundtrip("a\nb\nc\n", "a\nb\nC");
	diff_roundtrip("", "x\n");
	diff_roundtrip("x\n", "");
	diff_roundtrip("a\r\nb\r\n", "a\r\n// c\r\nb\r\n");
	diff_roundtrip("1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n", "0\n1\n2\n3\n4\n5\n6\n7x\n8\n9\n10\n11\n12\n13\n14\n15\n");
	/* Repeated lines (no unique anchors) and a long file with scattered edits. */
	diff_roundtrip("}\n}\n}\n}\n", "}\n// x\n}\n}\n// y\n}\n");
	size_t cap = 200000;
	char *a = malloc(cap), *b = malloc(cap);
	size_t na = 0, nb = 0;
	for (int k = 0; k < 3000; k++) {
		na += (size_t)sprintf(a + na, "  %%i%d = f32[] add(%%x, %%y)\n", k);
		if (k % 97 == 0)
			nb += (size_t)sprintf(b + nb, "  // hlolint: note %d\n", k);
		if (k % 211 == 5)
			continue;   /* a deleted line */
		nb += (size_t)sprintf(b + nb, k % 333 == 7 ? "  %%i%d = f32[]{:S(5)} add(%%x, %%y)\n"
							  : "  %%i%d = f32[] add(%%x, %%y)\n", k);
	}
	diff_roundtrip(a, b);
	free(a);
	free(b);
}

int main(void)
{
	test_rewrite();
	test_placement();
	test_apply_space();
	test_layout_text();
	test_apply_sharding();
	test_diff();
	if (failures) {
		fprintf(stderr, "annotate_unit: %d failures\n", failures);
		return 1;
	}
	printf("annotate_unit: ok\n");
	return 0;
}
