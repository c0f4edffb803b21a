/* print_value.c - prints one attribute value as XLA would, rebuilt from
 * its decoded IR (attr.h) with defaults dropped; a value that does not
 * decode, or an attribute it does not know, is copied from its text with
 * whitespace normalised and comments dropped, so nothing is lost.  The
 * order of attributes is print.c's, shardings are print_sharding.c's. */
#include "print_int.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "lex.h"
#include "metadata.h"

/* ---- Small output helpers ---- */

void print_name(struct print_ctx *p, const char *name, size_t len)
{
	if (p->style != PRINT_SHORT)
		fputc('%', p->out);
	fwrite(name, 1, len, p->out);
}

void print_shape(struct print_ctx *p, const struct hlo_shape *s, bool with_layout)
{
	char buf[512];
	size_t n = ir_shape_format_ex(s, with_layout, true, buf, sizeof buf);
	if (n < sizeof buf) {
		fputs(buf, p->out);
		return;
	}
	char *big = xmalloc(n + 1);
	ir_shape_format_ex(s, with_layout, true, big, n + 1);
	fputs(big, p->out);
	free(big);
}

void print_i64s(FILE *out, const int64_t *v, uint32_t n, const char *sep)
{
	for (uint32_t k = 0; k < n; k++)
		fprintf(out, "%s%lld", k ? sep : "", (long long)v[k]);
}

/* {1,2,3}: XLA joins integer lists without spaces. */
static void print_int_list(FILE *out, const struct attr_ints *l)
{
	fputc('{', out);
	print_i64s(out, l->v, l->n, ",");
	fputc('}', out);
}

/* absl::CEscape: \n \r \t \" \' \\ and octal for other non-printable bytes. */
static void print_cescape(FILE *out, const char *s, size_t n)
{
	size_t run = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		const char *esc = NULL;
		switch (c) {
		case '\n': esc = "\\n"; break;
		case '\r': esc = "\\r"; break;
		case '\t': esc = "\\t"; break;
		case '"': esc = "\\\""; break;
		case '\'': esc = "\\'"; break;
		case '\\': esc = "\\\\"; break;
		default:
			if (c >= 0x20 && c < 0x7f)
				continue;
		}
		fwrite(s + run, 1, i - run, out);
		if (esc)
			fputs(esc, out);
		else
			fprintf(out, "\\%03o", c);
		run = i + 1;
	}
	fwrite(s + run, 1, n - run, out);
}

void print_quoted(FILE *out, const char *s, size_t n, bool escape)
{
	fputc('"', out);
	if (escape)
		print_cescape(out, s, n);
	else
		fwrite(s, 1, n, out);
	fputc('"', out);
}

/* XLA's LexesAsJsonDict: the whole text is one brace-balanced dict
 * ("..." strings skipped), possibly followed by whitespace. */
static bool print_lexes_as_json(const char *s, size_t n)
{
	if (!n || s[0] != '{')
		return false;
	int depth = 0;
	size_t i = 0;
	while (i < n) {
		char c = s[i++];
		if (c == '"') {
			while (i < n && s[i] != '"')
				i += s[i] == '\\' ? 2 : 1;
			if (i >= n)
				return false;
			i++;
		} else if (c == '{') {
			depth++;
		} else if (c == '}' && --depth == 0) {
			break;
		}
	}
	if (depth)
		return false;
	for (; i < n; i++)
		if (!isspace((unsigned char)s[i]))
			return false;
	return true;
}

static bool print_is_ident_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool print_is_ident_char(char c)
{
	return print_is_ident_start(c) || (c >= '0' && c <= '9') || c == '.' || c == '-';
}

static bool print_is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static bool print_is_index_comment(const char *s, size_t n)
{
	if (n < 11 || memcmp(s, "/*index=", 8) || memcmp(s + n - 2, "*/", 2))
		return false;
	for (size_t k = 8; k < n - 2; k++)
		if (s[k] < '0' || s[k] > '9')
			return false;
	return true;
}

/* ---- Values copied from their text ---- */

/* Copies an attribute value: whitespace runs become one space (none at all
 * when compact), strings are copied as they are, comments are dropped
 * except XLA's own index=N markers.  For attributes that name computations
 * or instructions, names get (default, long) or lose (short) their '%'.
 * Inline bodies are copied without name rewriting. */
void print_value_text(struct print_ctx *p, struct span sp, bool names, bool compact)
{
	const char *s = p->f->src->buf + sp.start;
	size_t n = (size_t)span_len(sp), i = 0;
	FILE *out = p->out;
	if (names && n && s[0] == '{') {
		/* an inline body "{ ... }" or a list "{%a, %b}": only lists get names rewritten */
		size_t k = 1;
		while (k < n && print_is_space(s[k]))
			k++;
		if (k < n && (!strncmp(s + k, "ROOT", 4) || memchr(s, '=', n)))
			names = false;
	}
	while (i < n) {
		char c = s[i];
		if (print_is_space(c)) {
			while (i < n && print_is_space(s[i]))
				i++;
			if (i < n && !compact)
				fputc(' ', out);
			continue;
		}
		if (c == '"' || c == '\'') {
			size_t j = i + 1;
			while (j < n && s[j] != c)
				j += s[j] == '\\' ? 2 : 1;
			j = j < n ? j + 1 : n;
			fwrite(s + i, 1, j - i, out);
			i = j;
			continue;
		}
		if (lex_at_comment(s, n, i) && s[i + 1] == '/') {
			/* a line comment cannot survive joining the value onto one line */
			i = lex_comment_end(s, n, i, NULL);
			continue;
		}
		if (lex_at_comment(s, n, i)) {
			size_t j = lex_comment_end(s, n, i, NULL);
			if (print_is_index_comment(s + i, j - i))
				fwrite(s + i, 1, j - i, out);
			i = j;
			while (i < n && print_is_space(s[i]))
				i++;
			continue;
		}
		if (names && (c == '%' || print_is_ident_start(c))) {
			size_t j = i + (c == '%');
			size_t k = j;
			while (k < n && print_is_ident_char(s[k]))
				k++;
			print_name(p, s + j, k - j);
			i = k;
			continue;
		}
		fputc(c, out);
		i++;
	}
}

void print_attr_as_text(struct print_ctx *p, const struct hlo_attr *a, bool names, bool compact)
{
	fprintf(p->out, ", %.*s=", IR_ANM(p->f, a));   /* unknown ones too */
	print_value_text(p, ir_attr_value(a), names, compact);
}

/* ---- Scalars, strings, lists ---- */

struct hlo_value *print_decode(struct print_ctx *p, const struct hlo_attr *a)
{
	return attr_parse(p->f, a, &p->scratch, NULL);
}

bool print_decode_int(struct print_ctx *p, const struct hlo_attr *a, int64_t *out)
{
	if (attr_text_int(p->f, ir_attr_value(a), out))
		return true;
	struct hlo_value *v = print_decode(p, a);
	return v && attr_int(v, out, NULL);
}

bool print_decode_bool(struct print_ctx *p, const struct hlo_attr *a, bool *out)
{
	if (attr_text_bool(p->f, ir_attr_value(a), out))
		return true;
	struct hlo_value *v = print_decode(p, a);
	return v && attr_bool(v, out, NULL);
}

static bool print_decode_ints(struct print_ctx *p, const struct hlo_attr *a, struct attr_ints *out)
{
	if (attr_text_ints(p->f, ir_attr_value(a), &p->scratch, out))
		return true;
	struct hlo_value *v = print_decode(p, a);
	return v && attr_ints(v, &p->scratch, out, NULL);
}

/* An identifier value (enum), without '%'. */
static bool print_decode_ident(struct print_ctx *p, const struct hlo_attr *a, const char **s, size_t *n)
{
	if (attr_text_ident(p->f, ir_attr_value(a), s, n) && **s != '%')
		return true;
	struct hlo_value *v = print_decode(p, a);
	if (!v || v->kind != V_IDENT || !v->key)
		return false;
	*s = v->key->str;
	*n = v->key->len;
	return true;
}

/* The unescaped contents of a string value. */
static bool print_decode_string(struct print_ctx *p, const struct hlo_attr *a, char **s, size_t *n)
{
	struct hlo_value *v = print_decode(p, a);
	return v && attr_string(p->f, v, &p->scratch, s, n, NULL);
}

static bool print_eq_nocase(const char *a, size_t n, const char *b)
{
	if (strlen(b) != n)
		return false;
	for (size_t k = 0; k < n; k++)
		if (tolower((unsigned char)a[k]) != tolower((unsigned char)b[k]))
			return false;
	return true;
}

static void print_cased(FILE *out, const char *s, size_t n, bool upper)
{
	for (size_t k = 0; k < n; k++)
		fputc(upper ? toupper((unsigned char)s[k]) : tolower((unsigned char)s[k]), out);
}

/* ---- Computation and instruction names ---- */

/* The names of a callee attribute: "%a", "{%a, %b}" or "%a, %b" (spans
 * without '%'); false for anything else (inline bodies). */
static bool print_callee_names(struct print_ctx *p, const struct hlo_attr *a, struct span *names, uint32_t cap,
			       uint32_t *count)
{
	const struct hlo_value *v = print_decode(p, a);
	if (!v)
		return false;
	const struct hlo_value *c = v->kind == V_BRACE || v->kind == V_SEQ ? v->child : v;
	uint32_t k = 0;
	for (; c; c = c == v ? NULL : c->next, k++) {
		if ((c->kind != V_NAME && c->kind != V_IDENT) || k == cap || (k && !c->comma_before))
			return false;
		names[k] = span_make(c->span.start + (c->kind == V_NAME), c->span.end);
	}
	*count = k;
	return true;
}

static void print_callee_attr(struct print_ctx *p, const struct hlo_attr *a)
{
	struct span names[64];
	uint32_t n;
	if (!print_callee_names(p, a, names, 64, &n)) {
		print_attr_as_text(p, a, true, false);
		return;
	}
	bool list = a->key == ATTR_BRANCH_COMPUTATIONS || a->key == ATTR_CALLED_COMPUTATIONS;
	fprintf(p->out, ", %s=%s", print_attr_name(a), list ? "{" : "");
	for (uint32_t k = 0; k < n; k++) {
		if (k)
			fputs(", ", p->out);
		print_name(p, ir_text(p->f, names[k]), (size_t)span_len(names[k]));
	}
	if (list)
		fputc('}', p->out);
}

static void print_control_attr(struct print_ctx *p, const struct hlo_instr *i)
{
	uint32_t n;
	struct hlo_instr **pred = ir_control(i, &n);
	if (!pred)
		return;  /* {}: XLA prints nothing without predecessors */
	fputs(", control-predecessors={", p->out);
	for (uint32_t k = 0; k < n; k++) {
		bool dup = false;
		for (uint32_t j = 0; j < k; j++)
			dup |= pred[j] == pred[k];
		if (dup)
			continue;
		if (k)
			fputs(", ", p->out);
		print_name(p, ir_name(pred[k]), ir_name_len(pred[k]));
	}
	fputc('}', p->out);
}

/* ---- Metadata (MD:28-88) ---- */

static bool print_metadata_shown(const struct hlo_metadata *md)
{
	return (md->op_type && md->op_type[0]) || (md->op_name && md->op_name[0]) ||
	       (md->source_file && md->source_file[0]) || (md->scheduling_name && md->scheduling_name[0]) ||
	       md->stack_frame_id;
}

void print_metadata_body(FILE *out, const struct hlo_metadata *md)
{
	const char *sep = "";
	struct { const char *key; const char *val; } strs[] = {
		{ "op_type", md->op_type }, { "op_name", md->op_name }, { "source_file", md->source_file },
	};
	for (int k = 0; k < 3; k++) {
		if (strs[k].val && strs[k].val[0]) {
			fprintf(out, "%s%s=", sep, strs[k].key);
			print_quoted(out, strs[k].val, strlen(strs[k].val), true);
			sep = " ";
		}
	}
	struct { const char *key; int64_t val; } ints[] = {
		{ "source_line", md->source_line }, { "source_end_line", md->source_end_line },
		{ "source_column", md->source_column }, { "source_end_column", md->source_end_column },
	};
	for (int k = 0; k < 4; k++) {
		if (ints[k].val) {
			fprintf(out, "%s%s=%lld", sep, ints[k].key, (long long)ints[k].val);
			sep = " ";
		}
	}
	if (md->profile_type.n) {
		fprintf(out, "%sprofile_type=", sep);
		print_int_list(out, &md->profile_type);
		sep = " ";
	}
	if (md->deduplicated_name && md->deduplicated_name[0]) {
		fprintf(out, "%sdeduplicated_name=", sep);
		print_quoted(out, md->deduplicated_name, strlen(md->deduplicated_name), true);
		sep = " ";
	}
	if (md->preserve_layout) {
		fprintf(out, "%spreserve_layout=true", sep);
		sep = " ";
	}
	if (md->scheduling_name && md->scheduling_name[0]) {
		/* XLA writes it without escaping (HLO_TEXT_SYNTAX 9.16) */
		fprintf(out, "%sscheduling_name=", sep);
		print_quoted(out, md->scheduling_name, strlen(md->scheduling_name), false);
		sep = " ";
	}
	if (md->stack_frame_id)
		fprintf(out, "%sstack_frame_id=%lld", sep, (long long)md->stack_frame_id);
}

bool print_decode_metadata(struct print_ctx *p, struct span sp, struct hlo_metadata *md)
{
	return metadata_decode(p->f, sp, &p->scratch, md, NULL) && span_is_none(md->unknown_key);
}

static void print_metadata_attr(struct print_ctx *p, const struct hlo_attr *a)
{
	struct hlo_metadata md;
	if (!print_decode_metadata(p, ir_attr_value(a), &md)) {
		print_attr_as_text(p, a, false, false);
		return;
	}
	if (!print_metadata_shown(&md))
		return;  /* HI:4163-4189 */
	fputs(", metadata={", p->out);
	print_metadata_body(p->out, &md);
	fputc('}', p->out);
}

/* ---- Frontend attributes and backend config ---- */

static int print_fa_cmp(const void *x, const void *y)
{
	const struct hlo_frontend_attr *a = x, *b = y;
	size_t n = a->key_len < b->key_len ? a->key_len : b->key_len;
	int c = memcmp(a->key, b->key, n);
	if (c)
		return c;
	if (a->key_len != b->key_len)
		return a->key_len < b->key_len ? -1 : 1;
	return a->span.start < b->span.start ? -1 : a->span.start > b->span.start;
}

/* Sorted by key, joined with "," (FrontendAttributesToString). */
void print_frontend_attr(struct print_ctx *p, const struct hlo_attr *a)
{
	struct hlo_frontend_attrs fa;
	if (!metadata_frontend(p->f, ir_attr_value(a), &p->scratch, &fa, NULL)) {
		print_attr_as_text(p, a, false, false);
		return;
	}
	if (!fa.n)
		return;
	qsort(fa.items, fa.n, sizeof *fa.items, print_fa_cmp);
	fprintf(p->out, ", %s={", print_attr_name(a));
	for (uint32_t k = 0; k < fa.n; k++) {
		const struct hlo_frontend_attr *it = &fa.items[k];
		fprintf(p->out, "%s%.*s=", k ? "," : "", (int)it->key_len, it->key);
		if (it->json || print_lexes_as_json(it->value, it->len))
			fwrite(it->value, 1, it->len, p->out);
		else
			print_quoted(p->out, it->value, it->len, true);
	}
	fputc('}', p->out);
}

/* A raw dict as written, else the C-escaped string (HI:4190-4213). */
static void print_backend_attr(struct print_ctx *p, const struct hlo_attr *a)
{
	struct span sp = ir_attr_value(a);
	const char *s = p->f->src->buf + sp.start;
	if (span_len(sp) && s[0] == '{') {
		fprintf(p->out, ", %s=", print_attr_name(a));
		fwrite(s, 1, (size_t)span_len(sp), p->out);
		return;
	}
	char *str;
	size_t n;
	if (!print_decode_string(p, a, &str, &n)) {
		print_attr_as_text(p, a, false, false);
		return;
	}
	if (!n)
		return;
	fprintf(p->out, ", %s=", print_attr_name(a));
	if (print_lexes_as_json(str, n))
		fwrite(str, 1, n, p->out);
	else
		print_quoted(p->out, str, n, true);
}

/* ---- Windows, slices, padding ---- */

static void print_window_field(FILE *out, const struct hlo_window *w, const char *name, int which)
{
	fprintf(out, "%s=", name);
	for (uint32_t d = 0; d < w->rank; d++) {
		const struct hlo_window_dim *x = &w->dims[d];
		if (d)
			fputc('x', out);
		switch (which) {
		case 0: fprintf(out, "%lld", (long long)x->size); break;
		case 1: fprintf(out, "%lld", (long long)x->stride); break;
		case 2: fprintf(out, "%lld_%lld", (long long)x->pad_lo, (long long)x->pad_hi); break;
		case 3: fprintf(out, "%lld", (long long)x->lhs_dilate); break;
		case 4: fprintf(out, "%lld", (long long)x->rhs_dilate); break;
		default: fputc(x->reversal ? '1' : '0', out); break;
		}
	}
}

/* window_util::ToString (WU:95-140): fields in order, defaults omitted. */
static void print_window_attr(struct print_ctx *p, const struct hlo_instr *i, const struct hlo_attr *a)
{
	struct hlo_value *v = print_decode(p, a);
	struct hlo_window w;
	if (!v || !attr_window(p->f, v, &p->scratch, &w, NULL)) {
		print_attr_as_text(p, a, false, false);
		return;
	}
	if (!w.rank) {
		/* a window with no dimensions is not printed, except on custom-call */
		if (i->op == OP_CUSTOM_CALL)
			fprintf(p->out, ", %s={}", print_attr_name(a));
		return;
	}
	bool has[6] = { true, false, false, false, false, false };
	for (uint32_t d = 0; d < w.rank; d++) {
		const struct hlo_window_dim *x = &w.dims[d];
		has[1] |= x->stride != 1;
		has[2] |= x->pad_lo || x->pad_hi;
		has[3] |= x->lhs_dilate != 1;
		has[4] |= x->rhs_dilate != 1;
		has[5] |= x->reversal;
	}
	static const char *const names[] = { "size", " stride", " pad", " lhs_dilate", " rhs_dilate", " rhs_reversal" };
	fprintf(p->out, ", %s={", print_attr_name(a));
	for (int k = 0; k < 6; k++)
		if (has[k])
			print_window_field(p->out, &w, names[k], k);
	fputc('}', p->out);
}

/* slice={[0:4], [0:6:2]}: strides only when one is not 1 (HIS:1941-1958). */
static void print_slice_attr(struct print_ctx *p, const struct hlo_attr *a)
{
	struct hlo_value *v = print_decode(p, a);
	struct hlo_slice s;
	if (!v || !attr_slice(v, &p->scratch, &s, NULL)) {
		print_attr_as_text(p, a, false, false);
		return;
	}
	bool strides = false;
	for (uint32_t d = 0; d < s.rank; d++)
		strides |= s.dims[d].stride != 1;
	fprintf(p->out, ", %s={", print_attr_name(a));
	for (uint32_t d = 0; d < s.rank; d++) {
		fprintf(p->out, "%s[%lld:%lld", d ? ", " : "", (long long)s.dims[d].start, (long long)s.dims[d].limit);
		if (strides)
			fprintf(p->out, ":%lld", (long long)s.dims[d].stride);
		fputc(']', p->out);
	}
	fputc('}', p->out);
}

/* lo_hi per dimension, _interior on all when one is non-zero (HI:5447-5460). */
static void print_padding_attr(struct print_ctx *p, const struct hlo_attr *a)
{
	struct hlo_value *v = print_decode(p, a);
	struct hlo_padding pd;
	if (!v || !attr_padding(p->f, v, &p->scratch, &pd, NULL) || !pd.rank) {
		print_attr_as_text(p, a, false, false);
		return;
	}
	bool interior = false;
	for (uint32_t d = 0; d < pd.rank; d++)
		interior |= pd.dims[d].interior != 0;
	fprintf(p->out, ", %s=", print_attr_name(a));
	for (uint32_t d = 0; d < pd.rank; d++) {
		fprintf(p->out, "%s%lld_%lld", d ? "x" : "", (long long)pd.dims[d].lo, (long long)pd.dims[d].hi);
		if (interior)
			fprintf(p->out, "_%lld", (long long)pd.dims[d].interior);
	}
}

/* ---- Collectives and aliasing ---- */

static void print_int_lists(FILE *out, const struct attr_int_lists *l)
{
	fputc('{', out);
	for (uint32_t k = 0; k < l->n; k++) {
		if (k)
			fputc(',', out);
		print_int_list(out, &l->lists[k]);
	}
	fputc('}', out);
}

static void print_int_lists_attr(struct print_ctx *p, const struct hlo_attr *a)
{
	struct attr_ints one;
	if (print_decode_ints(p, a, &one)) {
		fprintf(p->out, ", %s=", print_attr_name(a));
		print_int_list(p->out, &one);
		return;
	}
	struct hlo_value *v = print_decode(p, a);
	struct attr_int_lists l;
	if (!v || !attr_int_lists(v, &p->scratch, &l, NULL)) {
		print_attr_as_text(p, a, false, false);
		return;
	}
	fprintf(p->out, ", %s=", print_attr_name(a));
	print_int_lists(p->out, &l);
}

/* {{0,1},{2,3}} or [G,S]<=[N]T(..) as stored (RG:74-83, 295-327). */
static void print_replica_groups_attr(struct print_ctx *p, const struct hlo_attr *a)
{
	struct hlo_value *v = print_decode(p, a);
	struct hlo_replica_groups rg;
	struct print_tiles t;
	if (!v || !sharding_replica_groups(p->f, v, &p->scratch, &rg, NULL) || rg.kind == RG_MESH ||
	    (rg.kind == RG_IOTA && !print_tiles_from(&t, &rg.iota, rg.iota.dims, rg.iota.rank))) {
		print_attr_as_text(p, a, false, false);
		return;
	}
	fprintf(p->out, ", %s=", print_attr_name(a));
	if (rg.kind == RG_LIST)
		print_int_lists(p->out, &rg.list);
	else
		print_tiles(p->out, &t);
}

void print_shape_index(FILE *out, const struct attr_ints *idx)
{
	print_int_list(out, idx);
}

/* {{0}: (1, {}), ...} in the given order (HIS:493-521). */
static void print_aliasing_attr(struct print_ctx *p, const struct hlo_attr *a)
{
	struct hlo_value *v = print_decode(p, a);
	struct hlo_aliases al;
	if (!v || !attr_aliases(v, &p->scratch, false, &al, NULL)) {
		print_attr_as_text(p, a, false, false);
		return;
	}
	if (!al.n)
		return;
	fprintf(p->out, ", %s={", print_attr_name(a));
	for (uint32_t k = 0; k < al.n; k++) {
		if (k)
			fputs(", ", p->out);
		print_shape_index(p->out, &al.items[k].output_index);
		fprintf(p->out, ": (%lld, ", (long long)al.items[k].number);
		print_shape_index(p->out, &al.items[k].index);
		fputc(')', p->out);
	}
	fputc('}', p->out);
}

static void print_shapes_attr(struct print_ctx *p, const struct hlo_attr *a, bool one)
{
	struct hlo_value *v = print_decode(p, a);
	struct attr_shapes sh;
	if (!v || !attr_shapes(v, &p->scratch, &sh, NULL) || (one && (sh.n != 1 || v->kind == V_BRACE))) {
		print_attr_as_text(p, a, false, false);
		return;
	}
	fprintf(p->out, ", %s=%s", print_attr_name(a), one ? "" : "{");
	for (uint32_t k = 0; k < sh.n; k++) {
		if (k)
			fputs(", ", p->out);
		print_shape(p, sh.shapes[k], true);
	}
	if (!one)
		fputc('}', p->out);
}

/* ---- Enums ---- */

/* Default comparison type for the operand type (CU): FLOAT for floating
 * and complex, SIGNED for signed ints, UNSIGNED for unsigned and pred. */
static const char *print_default_compare_type(const struct hlo_instr *i)
{
	const struct hlo_shape *s = i->noperands && ir_operands(i)[0].instr ? ir_operands(i)[0].instr->shape : NULL;
	if (!s)
		return NULL;
	if (ir_type_is_float(s->type) || ir_type_is_complex(s->type))
		return "FLOAT";
	if (ir_type_is_signed_int(s->type))
		return "SIGNED";
	if (ir_type_is_unsigned_int(s->type) || s->type == PT_PRED)
		return "UNSIGNED";
	return NULL;
}

/* operand_precision={high,default}: lower case, omitted when all default
 * (HIS:84-110). */
static void print_precision_attr(struct print_ctx *p, const struct hlo_attr *a)
{
	struct hlo_value *v = print_decode(p, a);
	bool ok = v && v->kind == V_BRACE, all_default = true;
	for (const struct hlo_value *c = ok ? v->child : NULL; c; c = c->next) {
		ok &= c->kind == V_IDENT && c->key && (c == v->child || c->comma_before);
		if (ok)
			all_default &= print_eq_nocase(c->key->str, c->key->len, "default");
	}
	if (!ok) {
		print_attr_as_text(p, a, false, false);
		return;
	}
	if (all_default)
		return;
	fprintf(p->out, ", %s={", print_attr_name(a));
	for (const struct hlo_value *c = v->child; c; c = c->next) {
		if (c != v->child)
			fputc(',', p->out);
		print_cased(p->out, c->key->str, c->key->len, false);
	}
	fputc('}', p->out);
}

/* ---- One attribute ---- */

/* Numbers, booleans and their lists. True when printed (or dropped as the default), false to
 * copy the text. */
static bool print_number_attr(struct print_ctx *p, const struct hlo_instr *i, const struct hlo_attr *a,
			 const struct print_attr_info *info)
{
	FILE *out = p->out;
	const char *name = print_attr_name(a);
	switch (info->fmt) {
	case PF_INT: {
		int64_t x;
		if (!print_decode_int(p, a, &x))
			return false;
		if (info->dflt && x == strtoll(info->dflt, NULL, 10))
			return true;
		fprintf(out, ", %s=%lld", name, (long long)x);
		return true;
	}
	case PF_INTS: {
		struct attr_ints l;
		if (!print_decode_ints(p, a, &l))
			return false;
		if (info->dflt && !l.n)
			return true;
		fprintf(out, ", %s=", name);
		print_int_list(out, &l);
		return true;
	}
	case PF_INT_LISTS:
		print_int_lists_attr(p, a);
		return true;
	case PF_TRUE_ONLY: {
		bool b;
		if (i->op == OP_TOPK || !print_decode_bool(p, a, &b))
			return false;  /* topk prints is_stable=false too */
		if (b)
			fprintf(out, ", %s=true", name);
		return true;
	}
	case PF_BOOLS: {
		struct hlo_value *v = print_decode(p, a);
		struct attr_bools bs;
		if (!v || !attr_bools(v, &p->scratch, &bs, NULL))
			return false;
		fprintf(out, ", %s={", name);
		for (uint32_t k = 0; k < bs.n; k++)
			fprintf(out, "%s%s", k ? "," : "", bs.v[k] ? "true" : "false");
		fputc('}', out);
		return true;
	}
	case PF_FLOAT: {
		struct hlo_value *v = print_decode(p, a);
		double d;
		if (!v || !attr_float(v, &d, NULL))
			return false;
		fprintf(out, ", %s=%.6g", name, (double)(float)d);
		return true;
	}
	default:
		return false;
	}
}

/* Strings, enums, algorithms, compare types, accuracy. True when printed (or dropped as the default), false to
 * copy the text. */
static bool print_word_attr(struct print_ctx *p, const struct hlo_instr *i, const struct hlo_attr *a,
			 const struct print_attr_info *info)
{
	FILE *out = p->out;
	const char *name = print_attr_name(a);
	switch (info->fmt) {
	case PF_STRING:
	case PF_RAW_STRING: {
		char *s;
		size_t n;
		if (!print_decode_string(p, a, &s, &n))
			return false;
		if (info->dflt && strlen(info->dflt) == n && !memcmp(s, info->dflt, n))
			return true;
		fprintf(out, ", %s=", name);
		print_quoted(out, s, n, info->fmt == PF_STRING);
		return true;
	}
	case PF_LOWER:
	case PF_UPPER: {
		const char *s;
		size_t n;
		if (!print_decode_ident(p, a, &s, &n))
			return false;
		if (info->dflt && print_eq_nocase(s, n, info->dflt))
			return true;
		fprintf(out, ", %s=", name);
		print_cased(out, s, n, info->fmt == PF_UPPER);
		return true;
	}
	case PF_ALGORITHM: {
		const char *s;
		size_t n;
		if (!print_decode_ident(p, a, &s, &n))
			return false;
		if (print_eq_nocase(s, n, "unset") && i->op != OP_RNG_BIT_GENERATOR)
			return true;
		fprintf(out, ", %s=", name);
		print_cased(out, s, n, false);
		return true;
	}
	case PF_COMPARE_TYPE: {
		const char *s, *dflt = print_default_compare_type(i);
		size_t n;
		if (!print_decode_ident(p, a, &s, &n))
			return false;
		if (dflt && strlen(dflt) == n && !memcmp(s, dflt, n))
			return true;
		fprintf(out, ", %s=%.*s", name, (int)n, s);
		return true;
	}
	case PF_ACCURACY: {
		struct hlo_value *v = print_decode(p, a);
		const struct hlo_value *m = v && v->kind == V_BRACE ? v->child : NULL;
		if (m && !m->next && m->kind == V_PAIR && !strcmp(m->key->str, "mode") && m->child &&
		    m->child->kind == V_IDENT && print_eq_nocase(m->child->key->str, m->child->key->len, "default"))
			return true;
		print_attr_as_text(p, a, false, true);
		return true;
	}
	default:
		return false;
	}
}

void print_instr_attr(struct print_ctx *p, const struct hlo_instr *i, const struct hlo_attr *a,
			     const struct print_attr_info *info)
{
	switch (info->fmt) {
	case PF_COMPACT:
		print_attr_as_text(p, a, false, true);
		return;
	case PF_INT:
	case PF_INTS:
	case PF_INT_LISTS:
	case PF_TRUE_ONLY:
	case PF_BOOLS:
	case PF_FLOAT:
		if (print_number_attr(p, i, a, info))
			return;
		break;
	case PF_STRING:
	case PF_RAW_STRING:
	case PF_LOWER:
	case PF_UPPER:
	case PF_ALGORITHM:
	case PF_COMPARE_TYPE:
	case PF_ACCURACY:
		if (print_word_attr(p, i, a, info))
			return;
		break;
	case PF_CALLEE:
		print_callee_attr(p, a);
		return;
	case PF_CONTROL:
		print_control_attr(p, i);
		return;
	case PF_SHARDING:
		print_sharding_attr(p, a);
		return;
	case PF_METADATA:
		print_metadata_attr(p, a);
		return;
	case PF_FRONTEND:
		print_frontend_attr(p, a);
		return;
	case PF_BACKEND:
		print_backend_attr(p, a);
		return;
	case PF_WINDOW:
		print_window_attr(p, i, a);
		return;
	case PF_SLICE:
		print_slice_attr(p, a);
		return;
	case PF_PADDING:
		print_padding_attr(p, a);
		return;
	case PF_REPLICA_GROUPS:
		print_replica_groups_attr(p, a);
		return;
	case PF_ALIASING:
		print_aliasing_attr(p, a);
		return;
	case PF_SHAPES:
	case PF_SHAPE:
		print_shapes_attr(p, a, info->fmt == PF_SHAPE);
		return;
	case PF_PRECISION:
		print_precision_attr(p, a);
		return;
	case PF_TEXT:
		break;
	}
	print_attr_as_text(p, a, false, false);
}
