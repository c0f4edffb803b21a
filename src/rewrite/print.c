/* print.c - prints modules from the IR as XLA's HloModule::ToString would
 * after parsing them (print.h): computations and instructions in XLA's
 * order, attributes in XLA's order with their values rebuilt from the
 * decoded IR (attr.h), defaults dropped.  A value that does not decode, or
 * an attribute it does not know, is copied from its text with whitespace
 * normalised and comments dropped, so nothing is lost.  It does not turn
 * async computations into -start sugar, print inline bodies as named
 * computations, or canonicalise named (mesh) shardings beyond whitespace. */
#include "print.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "attr.h"
#include "lex.h"
#include "literal.h"
#include "sharding.h"

/* Tile assignments with more dimensions than this are printed as written. */
#define PRINT_MAX_DIMS 32
/* Explicit device lists longer than this are not re-sorted (as written). */
#define PRINT_MAX_SORT_DEVICES (1u << 20)

struct print_ctx {
	FILE *out;
	struct hlo_module *m;
	struct hlo_file *f;
	enum print_style style;
	struct arena scratch;       /* decoded values; released per instruction */
};

/* ---- Small output helpers ---- */

static void print_name(struct print_ctx *p, const char *name, size_t len)
{
	if (p->style != PRINT_SHORT)
		fputc('%', p->out);
	fwrite(name, 1, len, p->out);
}

static void print_shape(struct print_ctx *p, const struct hlo_shape *s, bool with_layout)
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

static void print_i64s(FILE *out, const int64_t *v, uint32_t n, const char *sep)
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

static void print_quoted(FILE *out, const char *s, size_t n, bool escape)
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
static void print_value_text(struct print_ctx *p, struct span sp, bool names, bool compact)
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

static void print_attr_as_text(struct print_ctx *p, const struct hlo_attr *a, bool names, bool compact)
{
	fprintf(p->out, ", %s=", a->name->str);
	print_value_text(p, ir_attr_value(a), names, compact);
}

/* ---- Attribute classes ---- */

/* Where an attribute goes in XLA's printing order (HI:4097-4214, 4310-4554). */
enum print_group {
	PG_OPCODE, PG_CALLEE, PG_SHARDING, PG_FRONTEND, PG_CONTROL, PG_STATISTICS,
	PG_ACCURACY, PG_ORIGIN, PG_METADATA, PG_BACKEND, PG_UNKNOWN
};

/* How a value is printed. */
enum print_fmt {
	PF_TEXT,        /* normalised text */
	PF_COMPACT,     /* text without whitespace (XLA joins with ",") */
	PF_INT,         /* decimal; dropped when equal to dflt (if any) */
	PF_INTS,        /* {1,2}; dropped when empty if dflt is "{}" */
	PF_INT_LISTS,   /* {{0,1},{2,3}} (or a plain int list) */
	PF_TRUE_ONLY,   /* true, or dropped when false */
	PF_BOOLS,       /* {true,false} */
	PF_FLOAT,       /* %g with six digits (absl::StrCat of a float) */
	PF_STRING,      /* C-escaped, double quoted; dropped when equal to dflt */
	PF_RAW_STRING,  /* unescaped, double quoted (XLA prints it raw) */
	PF_LOWER,       /* enum printed in lower case */
	PF_UPPER,       /* enum printed in upper case; dropped when equal to dflt */
	PF_CALLEE,      /* %name, {%a, %b} or %a, %b */
	PF_CONTROL,     /* {%a, %b} from the resolved predecessors */
	PF_SHARDING,
	PF_METADATA,
	PF_FRONTEND,
	PF_BACKEND,
	PF_WINDOW,
	PF_SLICE,
	PF_PADDING,
	PF_REPLICA_GROUPS,
	PF_ALIASING,    /* output_to_operand_aliasing */
	PF_SHAPES,      /* operand_layout_constraints */
	PF_SHAPE,       /* outfeed_shape */
	PF_COMPARE_TYPE,
	PF_PRECISION,   /* operand_precision */
	PF_ALGORITHM,
	PF_ACCURACY,    /* result_accuracy */
};

struct print_attr_info {
	const char *name;
	uint8_t group;
	uint8_t fmt;
	const char *dflt;   /* the value XLA does not print, or NULL */
};

/* Where each attribute prints and how, from attrs.def, by attr_key. */
static const struct print_attr_info print_attr_table[ATTR_COUNT] = {
#define ATTR(e, text, generic, vk, names, nocase, what, pg, pf, dflt) [ATTR_##e] = { text, pg, pf, dflt },
#include "attrs.def"
#undef ATTR
};

static const struct print_attr_info print_unknown_info = { NULL, PG_UNKNOWN, PF_TEXT, NULL };

static const struct print_attr_info *print_info(const struct hlo_attr *a)
{
	if (a->key == ATTR_UNKNOWN || a->key >= ATTR_COUNT || print_attr_table[a->key].group == PG_UNKNOWN)
		return &print_unknown_info;
	return &print_attr_table[a->key];
}

/* XLA's order of the opcode attributes (the PrintExtraAttributesImpl of each
 * instruction class, HIS); NULL-separated lists headed by the opcodes. */
static const char *const print_op_orders[] = {
	"all-gather", "all-gather-start", NULL,
	"channel_id", "replica_groups", "constrain_layout", "dimensions", "use_global_device_ids", NULL,
	"all-reduce", "all-reduce-start", NULL,
	"channel_id", "replica_groups", "constrain_layout", "use_global_device_ids", NULL,
	"reduce-scatter", NULL,
	"channel_id", "replica_groups", "constrain_layout", "use_global_device_ids", "dimensions", NULL,
	"all-to-all", NULL,
	"channel_id", "replica_groups", "constrain_layout", "dimensions", NULL,
	"collective-permute", "collective-permute-start", NULL,
	"channel_id", "source_target_pairs", "slice_sizes", NULL,
	"send", "recv", "send-done", "recv-done", NULL,
	"channel_id", "is_host_transfer", NULL,
	"compare", NULL,
	"direction", "type", NULL,
	"convolution", NULL,
	"window", "dim_labels", "feature_group_count", "batch_group_count", "operand_precision", "algorithm", NULL,
	"custom-call", NULL,
	"window", "dim_labels", "feature_group_count", "batch_group_count", "operand_precision", "algorithm",
	"padding_type", "custom_call_target", "operand_layout_constraints", "custom_call_has_side_effect",
	"literal", "output_to_operand_aliasing", "schedule", "api_version", NULL,
	"dot", "scaled-dot", NULL,
	"lhs_batch_dims", "lhs_contracting_dims", "rhs_batch_dims", "rhs_contracting_dims", "operand_precision",
	"algorithm", NULL,
	"gather", NULL,
	"offset_dims", "collapsed_slice_dims", "start_index_map", "operand_batching_dims",
	"start_indices_batching_dims", "index_vector_dim", "slice_sizes", "indices_are_sorted", NULL,
	"scatter", NULL,
	"update_window_dims", "inserted_window_dims", "scatter_dims_to_operand_dims", "input_batching_dims",
	"scatter_indices_batching_dims", "index_vector_dim", "indices_are_sorted", "unique_indices", NULL,
	"batch-norm-training", "batch-norm-inference", "batch-norm-grad", NULL,
	"epsilon", "feature_index", NULL,
	"fft", NULL,
	"fft_type", "fft_length", NULL,
	"fusion", NULL,
	"kind", "output_to_operand_aliasing", NULL,
	"async-start", "async-update", "async-done", NULL,
	"async_execution_thread", "output_to_operand_aliasing", NULL,
	"topk", NULL,
	"k", "largest", "is_stable", NULL,
	"sort", NULL,
	"dimensions", "is_stable", NULL,
	"reduce-precision", NULL,
	"exponent_bits", "mantissa_bits", NULL,
	"triangular-solve", NULL,
	"left_side", "lower", "unit_diagonal", "transpose_a", NULL,
	"outfeed", NULL,
	"outfeed_shape", "outfeed_config", NULL,
	"scan", NULL,
	"dimensions", "num_carries", "is_reverse", "is_associative", NULL,
	NULL,
};

/* The order list for an opcode name, or NULL. */
static const char *const *print_op_order(const char *op)
{
	const char *const *t = print_op_orders;
	while (*t) {
		bool match = false;
		for (; *t; t++)
			match |= !strcmp(*t, op);
		t++;
		if (match)
			return t;
		while (*t)
			t++;
		t++;
	}
	return NULL;
}

static int print_op_rank(const char *const *order, const char *name)
{
	for (int k = 0; order[k]; k++)
		if (!strcmp(order[k], name))
			return k;
	return -1;
}

/* Order of the callee attributes among themselves (HI:4310-4405). */
static int print_callee_rank(const char *name)
{
	static const char *const order[] = { "to_apply", "is_composite", "condition", "body", "select", "scatter",
					     "true_computation", "false_computation", "branch_computations",
					     "called_computations", "calls", NULL };
	int r = print_op_rank(order, name);
	return r < 0 ? 99 : r;
}

/* ---- Scalars, strings, lists ---- */

static struct hlo_value *print_decode(struct print_ctx *p, const struct hlo_attr *a)
{
	return attr_parse(p->f, a, &p->scratch, NULL);
}

static bool print_decode_int(struct print_ctx *p, const struct hlo_attr *a, int64_t *out)
{
	if (attr_text_int(p->f, ir_attr_value(a), out))
		return true;
	struct hlo_value *v = print_decode(p, a);
	return v && attr_int(v, out, NULL);
}

static bool print_decode_bool(struct print_ctx *p, const struct hlo_attr *a, bool *out)
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

/* Skips whitespace and comments from i (lex.h). */
static size_t print_skip_blank(const char *s, size_t n, size_t i)
{
	return lex_skip_blank(s, n, i, NULL);
}

/* Reads "%a", "{%a, %b}" or "%a, %b" (comments and whitespace allowed);
 * false for anything else (inline bodies). */
static bool print_scan_names(const char *s, size_t n, struct span *names, uint32_t cap, uint32_t *count,
			     bool *braced)
{
	uint32_t k = 0;
	size_t i = print_skip_blank(s, n, 0);
	*braced = i < n && s[i] == '{';
	if (*braced)
		i = print_skip_blank(s, n, i + 1);
	if (*braced && i < n && s[i] == '}') {
		*count = 0;
		return print_skip_blank(s, n, i + 1) == n;
	}
	for (;;) {
		if (i >= n || !(s[i] == '%' || print_is_ident_start(s[i])))
			return false;
		size_t j = i + (s[i] == '%'), e = j;
		while (e < n && print_is_ident_char(s[e]))
			e++;
		if (e == j || k == cap)
			return false;
		names[k++] = span_make(j, e);
		i = print_skip_blank(s, n, e);
		if (i < n && s[i] == ',') {
			i = print_skip_blank(s, n, i + 1);
			continue;
		}
		break;
	}
	if (*braced) {
		if (i >= n || s[i] != '}')
			return false;
		i = print_skip_blank(s, n, i + 1);
	}
	*count = k;
	return i == n;
}

static void print_callee_attr(struct print_ctx *p, const struct hlo_attr *a)
{
	struct span sp = ir_attr_value(a);
	const char *s = p->f->src->buf + sp.start;
	struct span names[64];
	uint32_t n;
	bool braced;
	if (!print_scan_names(s, (size_t)span_len(sp), names, 64, &n, &braced)) {
		print_attr_as_text(p, a, true, false);
		return;
	}
	bool list = a->key == ATTR_BRANCH_COMPUTATIONS || a->key == ATTR_CALLED_COMPUTATIONS;
	(void)braced;
	fprintf(p->out, ", %s=%s", a->name->str, list ? "{" : "");
	for (uint32_t k = 0; k < n; k++) {
		if (k)
			fputs(", ", p->out);
		print_name(p, s + names[k].start, (size_t)span_len(names[k]));
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
		print_name(p, pred[k]->name, pred[k]->name_len);
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

static void print_metadata_body(FILE *out, const struct hlo_metadata *md)
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

static bool print_decode_metadata(struct print_ctx *p, struct span sp, struct hlo_metadata *md)
{
	return attr_metadata(p->f, sp, &p->scratch, md, NULL) && span_is_none(md->unknown_key);
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
static void print_frontend_attr(struct print_ctx *p, const struct hlo_attr *a)
{
	struct hlo_frontend_attrs fa;
	if (!attr_frontend_attributes(p->f, ir_attr_value(a), &p->scratch, &fa, NULL)) {
		print_attr_as_text(p, a, false, false);
		return;
	}
	if (!fa.n)
		return;
	qsort(fa.items, fa.n, sizeof *fa.items, print_fa_cmp);
	fprintf(p->out, ", %s={", a->name->str);
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
		fprintf(p->out, ", %s=", a->name->str);
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
	fprintf(p->out, ", %s=", a->name->str);
	if (print_lexes_as_json(str, n))
		fwrite(str, 1, n, p->out);
	else
		print_quoted(p->out, str, n, true);
}

/* ---- Tile assignments (TA) ---- */

struct print_tiles {
	uint32_t rank;
	int64_t dims[PRINT_MAX_DIMS];
	int64_t *devices;           /* explicit list (count entries), or NULL for iota */
	uint64_t count;
	uint32_t iota_rank;
	int64_t reshape[PRINT_MAX_DIMS];
	int64_t perm[PRINT_MAX_DIMS];
};

/* CanonicalizeIotaDims (TA): drops size-1 reshape dims and merges runs of
 * dims that the transpose keeps adjacent and in order. */
static void print_iota_canon(struct print_tiles *t)
{
	int64_t *dims = t->reshape, *perm = t->perm;
	uint32_t n = t->iota_rank;
	if (n > 1) {
		for (;;) {
			int old_to_new[PRINT_MAX_DIMS];
			uint32_t nn = 0;
			for (uint32_t i = 0; i < n; i++)
				old_to_new[i] = dims[i] == 1 ? -1 : (int)nn++;
			if (nn != n) {
				uint32_t np = 0;
				for (uint32_t i = 0; i < n; i++) {
					if (old_to_new[i] >= 0)
						dims[old_to_new[i]] = dims[i];
					int nd = old_to_new[perm[i]];
					if (nd >= 0)
						perm[np++] = nd;
				}
				n = nn;
			}
			bool changed = false;
			for (uint32_t i = 1, base = 0; i < n; i++) {
				int64_t base_dim = perm[base], dim = perm[i];
				if (base_dim + (int64_t)(i - base) == dim) {
					dims[base_dim] *= dims[dim];
					dims[dim] = 1;
					changed = true;
				} else {
					base = i;
				}
			}
			if (!changed)
				break;
		}
	}
	if (n == 0) {
		dims[0] = 1;
		perm[0] = 0;
		n = 1;
	}
	t->iota_rank = n;
}

static bool print_iota_is_identity(const struct print_tiles *t)
{
	for (uint32_t k = 0; k < t->iota_rank; k++)
		if (t->perm[k] != (int64_t)k)
			return false;
	return true;
}

/* From a decoded assignment; false when too large to handle here. */
static bool print_tiles_from(struct print_tiles *t, const struct hlo_tile_assignment *a, const int64_t *dims,
			     uint32_t rank)
{
	if (rank > PRINT_MAX_DIMS || a->iota_rank > PRINT_MAX_DIMS)
		return false;
	memset(t, 0, sizeof *t);
	t->rank = rank;
	memcpy(t->dims, dims, rank * sizeof *dims);
	t->count = a->count;
	t->devices = a->devices;
	if (!a->devices) {
		t->iota_rank = a->iota_rank;
		memcpy(t->reshape, a->iota_dims, a->iota_rank * sizeof *a->iota_dims);
		for (uint32_t k = 0; k < a->iota_rank; k++)
			t->perm[k] = a->iota_perm ? a->iota_perm[k] : (int64_t)k;
		print_iota_canon(t);
	}
	return true;
}

/* "[dims]" then the explicit list or "<=[reshape]T(perm)" (TA:461-477). */
static void print_tiles(FILE *out, const struct print_tiles *t)
{
	fputc('[', out);
	print_i64s(out, t->dims, t->rank, ",");
	fputc(']', out);
	if (t->devices) {
		print_i64s(out, t->devices, (uint32_t)t->count, ",");
		return;
	}
	fputs("<=[", out);
	print_i64s(out, t->reshape, t->iota_rank, ",");
	fputc(']', out);
	if (!print_iota_is_identity(t)) {
		fputs("T(", out);
		print_i64s(out, t->perm, t->iota_rank, ",");
		fputc(')', out);
	}
}

static int print_i64_cmp(const void *x, const void *y)
{
	int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
	return a < b ? -1 : a > b;
}

/* Sorts the devices within each group of the last tile dimension, as
 * HloSharding::PartialTile does; for iota assignments by splitting the
 * reshape so the group is whole trailing transposed dims and sorting those.
 * False when it cannot (then the assignment is printed as written). */
static bool print_tiles_sort_groups(struct print_ctx *p, struct print_tiles *t)
{
	int64_t group = t->dims[t->rank - 1];
	if (t->devices) {
		if (t->count > PRINT_MAX_SORT_DEVICES)
			return false;
		int64_t *d = arena_array(&p->scratch, (size_t)t->count, sizeof *d);
		memcpy(d, t->devices, (size_t)t->count * sizeof *d);
		for (uint64_t g = 0; g < t->count; g += (uint64_t)group)
			qsort(d + g, (size_t)group, sizeof *d, print_i64_cmp);
		t->devices = d;
		return true;
	}
	if (t->reshape[t->perm[t->iota_rank - 1]] == group)
		return true;
	/* the trailing transposed dims whose sizes multiply to the group size */
	int64_t acc = 1;
	uint32_t k = t->iota_rank;
	while (k > 0 && acc < group && group % (acc * t->reshape[t->perm[k - 1]]) == 0) {
		acc *= t->reshape[t->perm[k - 1]];
		k--;
	}
	if (acc != group) {
		/* split reshape dim d into (size / r, r); the minor r joins the group */
		if (k == 0 || t->iota_rank >= PRINT_MAX_DIMS)
			return false;
		int64_t d = t->perm[k - 1], r = group / acc;
		if (t->reshape[d] % r)
			return false;
		for (uint32_t j = t->iota_rank; j > (uint32_t)d + 1; j--)
			t->reshape[j] = t->reshape[j - 1];
		t->reshape[d + 1] = r;
		t->reshape[d] /= r;
		for (uint32_t j = 0; j < t->iota_rank; j++)
			if (t->perm[j] > d)
				t->perm[j]++;
		for (uint32_t j = t->iota_rank; j > k; j--)
			t->perm[j] = t->perm[j - 1];
		t->perm[k] = d + 1;
		t->iota_rank++;
	}
	qsort(t->perm + k, t->iota_rank - k, sizeof *t->perm, print_i64_cmp);
	print_iota_canon(t);
	return true;
}

/* ---- Shardings (HS:444-597) ---- */

/* Next brace group "{...}" at or after *pos in s[0..n) ("..." skipped);
 * false when none is left. */
static bool print_next_group(const char *s, size_t n, size_t *pos, size_t *start, size_t *end)
{
	size_t i = *pos;
	while (i < n && s[i] != '{')
		i++;
	if (i >= n)
		return false;
	*start = i;
	int depth = 0;
	while (i < n) {
		char c = s[i++];
		if (c == '"' || c == '\'') {
			while (i < n && s[i] != c)
				i += s[i] == '\\' ? 2 : 1;
			i++;
		} else if (c == '{') {
			depth++;
		} else if (c == '}' && --depth == 0) {
			break;
		}
	}
	*end = i;
	*pos = i;
	return depth == 0;
}

/* The metadata entries of a legacy sharding: " metadata={...}" for one,
 * " metadata={{...}, {...}}" for several.  False when one does not decode. */
static bool print_sharding_metadata(struct print_ctx *p, const struct hlo_value *brace, char **text, size_t *len)
{
	*text = NULL;
	*len = 0;
	const struct hlo_value *mv = NULL;
	for (const struct hlo_value *c = brace->child; c; c = c->next)
		if (c->kind == V_PAIR && c->key && !strcmp(c->key->str, "metadata"))
			mv = c->child;
	if (!mv)
		return true;
	const char *s = p->f->src->buf + mv->span.start;
	size_t n = (size_t)span_len(mv->span), i = 1;
	while (i < n && (print_is_space(s[i]) || s[i] == ','))
		i++;
	bool list = i < n && s[i] == '{';
	struct hlo_metadata mds[16];
	uint32_t nmd = 0;
	if (!list) {
		if (!print_decode_metadata(p, mv->span, &mds[0]))
			return false;
		nmd = 1;
	} else {
		size_t pos = 1, a, b;
		while (print_next_group(s, n - 1, &pos, &a, &b)) {
			if (nmd == 16 || !print_decode_metadata(p, span_make(mv->span.start + a, mv->span.start + b),
								 &mds[nmd]))
				return false;
			nmd++;
		}
	}
	if (!nmd)
		return true;
	FILE *mem = open_memstream(text, len);
	if (!mem)
		return false;
	fputs(" metadata={", mem);
	for (uint32_t k = 0; k < nmd; k++) {
		if (nmd > 1)
			fputs(k ? ", {" : "{", mem);
		print_metadata_body(mem, &mds[k]);
		if (nmd > 1)
			fputc('}', mem);
	}
	fputc('}', mem);
	fclose(mem);
	return true;
}

static void print_shard_group(FILE *out, const struct hlo_sharding *s)
{
	if (s->group == SHARD_GROUP_AS)
		fprintf(out, " shard_as %lld", (long long)s->group_id);
	else if (s->group == SHARD_GROUP_LIKE)
		fprintf(out, " shard_like %lld", (long long)s->group_id);
}

/* Rank of a subgroup type in HloSharding::Subgroup's kOrderedTypes. */
static int print_subgroup_rank(enum sharding_subgroup t)
{
	switch (t) {
	case SUBGROUP_MAXIMAL: return 0;
	case SUBGROUP_MANUAL: return 3;
	case SUBGROUP_REPLICATED: return 4;
	case SUBGROUP_UNREDUCED: return 6;
	}
	return 7;
}

static const char *print_subgroup_name(enum sharding_subgroup t)
{
	switch (t) {
	case SUBGROUP_MAXIMAL: return "maximal";
	case SUBGROUP_MANUAL: return "manual";
	case SUBGROUP_REPLICATED: return "replicated";
	case SUBGROUP_UNREDUCED: return "unreduced";
	}
	return "replicated";
}

/* One legacy sharding, canonical as the parser's HloSharding constructors
 * leave it (Subgroup, PartialTile); the text between the braces.  Subgroup
 * dimensions XLA would transpose into its type order are kept as written. */
static bool print_legacy_sharding(struct print_ctx *p, FILE *out, const struct hlo_sharding *s, const char *md)
{
	static const char *const kinds[] = { "replicated", "manual", "maximal", "unknown", "unreduced" };
	const char *kind = NULL;
	struct print_tiles t;
	enum sharding_subgroup types[PRINT_MAX_DIMS];
	uint32_t ntypes = 0;
	bool replicate_last = false;
	t.rank = 0;
	if (s->kind != SHARDING_TILED) {
		kind = kinds[s->kind];
	} else {
		if (!print_tiles_from(&t, &s->tiles, s->tiles.dims, s->tiles.rank) || s->nsubgroups > t.rank)
			return false;
		uint32_t data = t.rank - s->nsubgroups;
		int64_t data_product = 1;
		for (uint32_t k = 0; k < data; k++)
			data_product *= t.dims[k];
		bool same = true;
		for (uint32_t k = 0; k < s->nsubgroups; k++)
			same &= s->subgroups[k] == s->subgroups[0];
		if (s->nsubgroups && same && data_product == 1 && s->subgroups[0] != SUBGROUP_MAXIMAL)
			kind = print_subgroup_name(s->subgroups[0]);
	}
	if (!kind && s->nsubgroups) {
		/* drop size-1 subgroup dims and merge equal neighbours */
		uint32_t data = t.rank - s->nsubgroups, r = data;
		int64_t dims[PRINT_MAX_DIMS];
		memcpy(dims, t.dims, t.rank * sizeof *dims);
		for (uint32_t k = 0; k < s->nsubgroups; k++) {
			int64_t d = t.dims[data + k];
			if (d == 1)
				continue;
			if (ntypes && types[ntypes - 1] == s->subgroups[k]) {
				dims[r - 1] *= d;
				continue;
			}
			types[ntypes++] = s->subgroups[k];
			dims[r++] = d;
		}
		bool ordered = true;
		for (uint32_t k = 1; k < ntypes; k++)
			ordered &= print_subgroup_rank(types[k - 1]) < print_subgroup_rank(types[k]);
		if (!ordered) {
			ntypes = s->nsubgroups;
			memcpy(types, s->subgroups, ntypes * sizeof *types);
		} else {
			memcpy(t.dims, dims, r * sizeof *dims);
			t.rank = r;
			int64_t last = t.dims[t.rank - 1];
			if (ntypes == 1 && types[0] == SUBGROUP_REPLICATED) {
				/* PartialTile */
				if (t.rank == 1 || last == (int64_t)t.count) {
					kind = "replicated";
				} else {
					print_tiles_sort_groups(p, &t);
					replicate_last = true;
					ntypes = 0;
				}
			} else if (ntypes == 1 && types[0] == SUBGROUP_MANUAL && last == (int64_t)t.count) {
				kind = "manual";
			} else if (ntypes && types[ntypes - 1] == SUBGROUP_REPLICATED) {
				print_tiles_sort_groups(p, &t);
			}
		}
	}
	if (kind) {
		fputs(kind, out);
		if (s->kind == SHARDING_MAXIMAL)
			fprintf(out, " device=%lld", (long long)s->device);
	} else {
		fputs("devices=", out);
		print_tiles(out, &t);
		if (replicate_last)
			fputs(" last_tile_dim_replicate", out);
		if (ntypes) {
			fputs(" last_tile_dims={", out);
			for (uint32_t k = 0; k < ntypes; k++)
				fprintf(out, "%s%s", k ? ", " : "", print_subgroup_name(types[k]));
			fputc('}', out);
		}
	}
	print_shard_group(out, s);
	if (md)
		fputs(md, out);
	return true;
}

/* One sharding (a tuple element or the whole value) into a memory stream. */
static bool print_one_sharding(struct print_ctx *p, FILE *out, const struct hlo_sharding *s,
			       const struct hlo_value *brace)
{
	if (s->kind == SHARDING_NAMED) {
		/* written as is (whitespace normalised) */
		FILE *save = p->out;
		p->out = out;
		print_value_text(p, brace->span, false, false);
		p->out = save;
		return true;
	}
	char *md = NULL;
	size_t mdlen;
	if (!print_sharding_metadata(p, brace, &md, &mdlen))
		return false;
	fputc('{', out);
	bool ok = print_legacy_sharding(p, out, s, p->style == PRINT_SHORT ? NULL : md);
	fputc('}', out);
	free(md);
	return ok;
}

static void print_sharding_attr(struct print_ctx *p, const struct hlo_attr *a)
{
	struct hlo_value *v = print_decode(p, a);
	struct hlo_sharding s;
	char *text = NULL;
	size_t len = 0;
	bool ok = v && sharding_decode(p->f, v, &p->scratch, &s, NULL);
	FILE *mem = ok ? open_memstream(&text, &len) : NULL;
	if (mem) {
		if (s.kind != SHARDING_TUPLE) {
			ok = print_one_sharding(p, mem, &s, v);
		} else {
			fputc('{', mem);
			const struct hlo_value *c = v->child;
			for (uint32_t k = 0; ok && k < s.nelems; k++, c = c->next) {
				if (k)
					fputs(", ", mem);
				if (k && k % 5 == 0)
					fprintf(mem, "/*index=%u*/", k);
				ok = print_one_sharding(p, mem, &s.elems[k], c);
			}
			fputc('}', mem);
		}
		fclose(mem);
	}
	if (ok && text) {
		fprintf(p->out, ", %s=", a->name->str);
		fwrite(text, 1, len, p->out);
	} else {
		print_attr_as_text(p, a, false, false);
	}
	free(text);
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
			fprintf(p->out, ", %s={}", a->name->str);
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
	fprintf(p->out, ", %s={", a->name->str);
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
	fprintf(p->out, ", %s={", a->name->str);
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
	fprintf(p->out, ", %s=", a->name->str);
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
		fprintf(p->out, ", %s=", a->name->str);
		print_int_list(p->out, &one);
		return;
	}
	struct hlo_value *v = print_decode(p, a);
	struct attr_int_lists l;
	if (!v || !attr_int_lists(v, &p->scratch, &l, NULL)) {
		print_attr_as_text(p, a, false, false);
		return;
	}
	fprintf(p->out, ", %s=", a->name->str);
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
	fprintf(p->out, ", %s=", a->name->str);
	if (rg.kind == RG_LIST)
		print_int_lists(p->out, &rg.list);
	else
		print_tiles(p->out, &t);
}

static void print_shape_index(FILE *out, const struct attr_ints *idx)
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
	fprintf(p->out, ", %s={", a->name->str);
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
	fprintf(p->out, ", %s=%s", a->name->str, one ? "" : "{");
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
	const struct hlo_shape *s = i->noperands && i->operands[0].instr ? i->operands[0].instr->shape : NULL;
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
	fprintf(p->out, ", %s={", a->name->str);
	for (const struct hlo_value *c = v->child; c; c = c->next) {
		if (c != v->child)
			fputc(',', p->out);
		print_cased(p->out, c->key->str, c->key->len, false);
	}
	fputc('}', p->out);
}

/* ---- One attribute ---- */

static void print_instr_attr(struct print_ctx *p, const struct hlo_instr *i, const struct hlo_attr *a,
			     const struct print_attr_info *info)
{
	FILE *out = p->out;
	const char *name = a->name->str;
	switch (info->fmt) {
	case PF_COMPACT:
		print_attr_as_text(p, a, false, true);
		return;
	case PF_INT: {
		int64_t x;
		if (!print_decode_int(p, a, &x))
			break;
		if (info->dflt && x == strtoll(info->dflt, NULL, 10))
			return;
		fprintf(out, ", %s=%lld", name, (long long)x);
		return;
	}
	case PF_INTS: {
		struct attr_ints l;
		if (!print_decode_ints(p, a, &l))
			break;
		if (info->dflt && !l.n)
			return;
		fprintf(out, ", %s=", name);
		print_int_list(out, &l);
		return;
	}
	case PF_INT_LISTS:
		print_int_lists_attr(p, a);
		return;
	case PF_TRUE_ONLY: {
		bool b;
		if (i->op == OP_TOPK || !print_decode_bool(p, a, &b))
			break;  /* topk prints is_stable=false too */
		if (b)
			fprintf(out, ", %s=true", name);
		return;
	}
	case PF_BOOLS: {
		struct hlo_value *v = print_decode(p, a);
		struct attr_bools bs;
		if (!v || !attr_bools(v, &p->scratch, &bs, NULL))
			break;
		fprintf(out, ", %s={", name);
		for (uint32_t k = 0; k < bs.n; k++)
			fprintf(out, "%s%s", k ? "," : "", bs.v[k] ? "true" : "false");
		fputc('}', out);
		return;
	}
	case PF_FLOAT: {
		struct hlo_value *v = print_decode(p, a);
		double d;
		if (!v || !attr_float(v, &d, NULL))
			break;
		fprintf(out, ", %s=%.6g", name, (double)(float)d);
		return;
	}
	case PF_STRING:
	case PF_RAW_STRING: {
		char *s;
		size_t n;
		if (!print_decode_string(p, a, &s, &n))
			break;
		if (info->dflt && strlen(info->dflt) == n && !memcmp(s, info->dflt, n))
			return;
		fprintf(out, ", %s=", name);
		print_quoted(out, s, n, info->fmt == PF_STRING);
		return;
	}
	case PF_LOWER:
	case PF_UPPER: {
		const char *s;
		size_t n;
		if (!print_decode_ident(p, a, &s, &n))
			break;
		if (info->dflt && print_eq_nocase(s, n, info->dflt))
			return;
		fprintf(out, ", %s=", name);
		print_cased(out, s, n, info->fmt == PF_UPPER);
		return;
	}
	case PF_ALGORITHM: {
		const char *s;
		size_t n;
		if (!print_decode_ident(p, a, &s, &n))
			break;
		if (print_eq_nocase(s, n, "unset") && i->op != OP_RNG_BIT_GENERATOR)
			return;
		fprintf(out, ", %s=", name);
		print_cased(out, s, n, false);
		return;
	}
	case PF_COMPARE_TYPE: {
		const char *s, *dflt = print_default_compare_type(i);
		size_t n;
		if (!print_decode_ident(p, a, &s, &n))
			break;
		if (dflt && strlen(dflt) == n && !memcmp(s, dflt, n))
			return;
		fprintf(out, ", %s=%.*s", name, (int)n, s);
		return;
	}
	case PF_ACCURACY: {
		struct hlo_value *v = print_decode(p, a);
		const struct hlo_value *m = v && v->kind == V_BRACE ? v->child : NULL;
		if (m && !m->next && m->kind == V_PAIR && !strcmp(m->key->str, "mode") && m->child &&
		    m->child->kind == V_IDENT && print_eq_nocase(m->child->key->str, m->child->key->len, "default"))
			return;
		print_attr_as_text(p, a, false, true);
		return;
	}
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

/* ---- Instructions ---- */

struct print_item {
	const struct hlo_attr *a;
	const struct print_attr_info *info;
	int group, rank;
	uint32_t pos;
};

static bool print_item_before(const struct print_item *x, const struct print_item *y)
{
	if (x->group != y->group)
		return x->group < y->group;
	if (x->rank != y->rank)
		return x->rank < y->rank;
	return x->pos < y->pos;
}

static bool print_skip_attr(struct print_ctx *p, const struct hlo_attr *a)
{
	if (p->style != PRINT_SHORT)
		return false;
	/* ShortParsable: no metadata, backend config or control dependencies */
	return a->key == ATTR_METADATA || a->key == ATTR_CONTROL_PREDECESSORS || a->key == ATTR_BACKEND_CONFIG;
}

static void print_instr_attrs(struct print_ctx *p, struct hlo_instr *i)
{
	struct print_item small[16], *items = i->nattrs <= 16 ? small : xmalloc(i->nattrs * sizeof *items);
	uint32_t n = 0;
	const char *op = i->async_wrapped != OP_COUNT ? ir_opcode_name(i->async_wrapped) : ir_opcode_name(i->op);
	const char *const *order = NULL;
	bool order_complete = true;
	for (uint32_t k = 0; k < i->nattrs; k++) {
		const struct hlo_attr *a = &i->attrs[k];
		if (print_skip_attr(p, a))
			continue;
		struct print_item *it = &items[n++];
		it->a = a;
		it->info = print_info(a);
		it->group = it->info->group;
		it->pos = k;
		it->rank = 0;
		if (it->group == PG_CALLEE)
			it->rank = print_callee_rank(a->name->str);
	}
	/* opcode attributes in the opcode's order, when every one is known
	 * there (else as written) */
	uint32_t nop = 0;
	for (uint32_t k = 0; k < n; k++)
		nop += items[k].group == PG_OPCODE;
	if (nop > 1) {
		order = print_op_order(op);
		for (uint32_t k = 0; k < n && order; k++) {
			if (items[k].group != PG_OPCODE)
				continue;
			int r = print_op_rank(order, items[k].a->name->str);
			if (r < 0 && !(i->async_wrapped != OP_COUNT && !strcmp(items[k].a->name->str, "async_execution_thread")))
				order_complete = false;
			items[k].rank = r < 0 ? -1 : r;
		}
		if (!order || !order_complete)
			for (uint32_t k = 0; k < n; k++)
				if (items[k].group == PG_OPCODE)
					items[k].rank = 0;
	}
	for (uint32_t k = 1; k < n; k++) {
		struct print_item x = items[k];
		uint32_t j = k;
		while (j && print_item_before(&x, &items[j - 1])) {
			items[j] = items[j - 1];
			j--;
		}
		items[j] = x;
	}
	for (uint32_t k = 0; k < n; k++)
		print_instr_attr(p, i, items[k].a, items[k].info);
	if (items != small)
		free(items);
}

static void print_instr(struct print_ctx *p, struct hlo_instr *i)
{
	FILE *out = p->out;
	struct arena_mark mk = arena_mark(&p->scratch);
	fputs(i == i->comp->root ? "  ROOT " : "  ", out);
	print_name(p, i->name, i->name_len);
	fputs(" = ", out);
	print_shape(p, i->shape, true);
	fputc(' ', out);
	if (i->async_wrapped != OP_COUNT) {
		struct span op = ir_instr_opcode_span(i);
		fwrite(p->f->src->buf + op.start, 1, (size_t)span_len(op), out);
	} else {
		fputs(ir_opcode_name(i->op), out);
	}
	if (i->op == OP_CONSTANT && !span_is_none(ir_instr_literal(i))) {
		fputc('(', out);
		literal_print(out, p->f, ir_instr_literal(i), i->shape, p->style == PRINT_DEFAULT);
		fputc(')', out);
	} else if (i->op == OP_PARAMETER) {
		fprintf(out, "(%lld)", (long long)i->number);
	} else {
		fputc('(', out);
		for (uint32_t k = 0; k < i->noperands; k++) {
			struct hlo_instr *o = i->operands[k].instr;
			if (k)
				fputs(", ", out);
			if (p->style != PRINT_SHORT && k && k % 5 == 0)
				fprintf(out, "/*index=%u*/", k);
			if (p->style == PRINT_LONG) {
				print_shape(p, o->shape, true);
				fputc(' ', out);
			}
			print_name(p, o->name, o->name_len);
		}
		fputc(')', out);
	}
	if (ir_is_anonymous(i) && i->op == OP_GET_TUPLE_ELEMENT && !i->nattrs)
		fprintf(out, ", index=%lld", (long long)i->number);
	if (i->op == OP_BROADCAST && !ir_attr(i, ATTR_DIMENSIONS))
		fputs(", dimensions={}", out);  /* XLA always prints it; a scalar operand may omit it */
	print_instr_attrs(p, i);
	fputc('\n', out);
	arena_release(&p->scratch, mk);
}

/* ---- Instruction order ---- */

/* HloComputation::MakeInstructionPostOrder: a DFS from every instruction
 * without users or control successors, in instruction order; operands are
 * visited first to last, after the control predecessors.  Collectives
 * sharing a channel id are not tied together: XLA's own round trips
 * (ok/short.AllReduceAllReduce) and dumps show no such dependency. */
static void print_post_order(struct print_ctx *p, struct hlo_comp *c, struct hlo_instr **order)
{
	uint32_t n = c->ninstrs, nout = 0, top = 0, cap = n + 16;
	uint8_t *state = xcalloc(n + 1, 1);
	uint8_t *has_succ = xcalloc(n + 1, 1);
	struct hlo_instr **stack = xmalloc(cap * sizeof *stack);
	/* The short style drops control predecessors, so its order ignores
	 * them too: otherwise reading its output back would reorder it. */
	bool control = p->style != PRINT_SHORT;
	for (uint32_t k = 0; k < n; k++) {
		struct hlo_instr *i = c->instrs[k];
		uint32_t np = 0;
		struct hlo_instr **pred = control ? ir_control(i, &np) : NULL;
		for (uint32_t j = 0; j < np; j++)
			if (pred[j] && pred[j]->comp == c)
				has_succ[pred[j]->index] = 1;
	}
	for (uint32_t r = 0; r < n; r++) {
		struct hlo_instr *root = c->instrs[r];
		if (root->nusers || has_succ[r] || state[r])
			continue;
		top = 0;
		stack[top++] = root;
		while (top) {
			struct hlo_instr *cur = stack[top - 1];
			if (state[cur->index]) {
				top--;
				if (state[cur->index] == 1) {
					state[cur->index] = 2;
					order[nout++] = cur;
				}
				continue;
			}
			state[cur->index] = 1;
			uint32_t np = 0;
			struct hlo_instr **pred = control ? ir_control(cur, &np) : NULL;
			uint32_t need = top + cur->noperands + np;
			if (need > cap) {
				cap = need * 2;
				stack = xrealloc(stack, cap * sizeof *stack);
			}
			for (uint32_t k = cur->noperands; k-- > 0;)
				if (cur->operands[k].instr && cur->operands[k].instr->comp == c)
					stack[top++] = cur->operands[k].instr;
			for (uint32_t k = 0; k < np; k++)
				if (pred[k] && pred[k]->comp == c)
					stack[top++] = pred[k];
		}
	}
	/* anything left (a cycle through control edges): program order */
	for (uint32_t k = 0; k < n; k++)
		if (state[k] != 2)
			order[nout++] = c->instrs[k];
	free(state);
	free(has_succ);
	free(stack);
}

static bool print_is_synth_gte(const struct hlo_instr *i)
{
	return ir_is_anonymous(i) && i->op == OP_GET_TUPLE_ELEMENT && !i->nattrs;
}

/* Places a synthesized GTE (and the ones it reads) before its first user. */
static void print_place_gte(struct hlo_instr *g, uint8_t *placed, struct hlo_instr **order, uint32_t *n)
{
	if (placed[g->index])
		return;
	struct hlo_instr *base = g->operands[0].instr;
	if (base && print_is_synth_gte(base))
		print_place_gte(base, placed, order, n);
	placed[g->index] = 1;
	order[(*n)++] = g;
}

/* The schedule: program order, with compact-GTE instructions just before
 * their first user (where XLA's parser creates them). */
static void print_program_order(struct hlo_comp *c, struct hlo_instr **order)
{
	uint8_t *placed = xcalloc(c->ninstrs + 1, 1);
	uint32_t n = 0;
	for (uint32_t k = 0; k < c->ninstrs; k++) {
		struct hlo_instr *i = c->instrs[k];
		if (print_is_synth_gte(i) && i->nusers)
			continue;
		for (uint32_t j = 0; j < i->noperands; j++) {
			struct hlo_instr *o = i->operands[j].instr;
			if (o && o->comp == c && print_is_synth_gte(o))
				print_place_gte(o, placed, order, &n);
		}
		placed[i->index] = 1;
		order[n++] = i;
	}
	for (uint32_t k = 0; k < c->ninstrs; k++)
		if (!placed[k])
			order[n++] = c->instrs[k];
	free(placed);
}

/* ---- Computations ---- */

/* "(a: f32[2], b: s32[]) -> f32[2]" from the parameters and root. */
static void print_signature(struct print_ctx *p, struct hlo_comp *c)
{
	FILE *out = p->out;
	fputs(" (", out);
	for (uint32_t k = 0; k < c->nparams; k++) {
		if (k)
			fputs(", ", out);
		struct hlo_instr *param = c->params[k];
		if (param)
			fprintf(out, "%.*s: ", (int)param->name_len, param->name);
		else
			fputs("unknown: ", out);
		print_shape(p, param ? param->shape : NULL, false);
	}
	fputs(") -> ", out);
	print_shape(p, c->root ? c->root->shape : NULL, false);
}

static bool print_is_fusion_comp(const struct hlo_comp *c)
{
	for (uint32_t k = 0; k < c->ncallers; k++)
		if (c->callers[k]->op == OP_FUSION)
			return true;
	return false;
}

static void print_comp(struct print_ctx *p, struct hlo_comp *c)
{
	FILE *out = p->out;
	if (c->is_entry && c == p->m->entry)
		fputs("ENTRY ", out);
	print_name(p, c->name->str, c->name->len);
	if (p->style != PRINT_SHORT)
		print_signature(p, c);
	fputs(" {\n", out);
	struct hlo_instr **order = xmalloc((c->ninstrs + 1) * sizeof *order);
	/* A parsed scheduled module schedules every non-fusion computation
	 * in its instruction order (ScheduleFromInstructionOrder). */
	if (p->m->is_scheduled && !print_is_fusion_comp(c))
		print_program_order(c, order);
	else
		print_post_order(p, c, order);
	for (uint32_t k = 0; k < c->ninstrs; k++)
		print_instr(p, order[k]);
	free(order);
	fputc('}', out);
	if (!span_is_none(c->exec_thread)) {
		struct span sp = c->exec_thread;
		const char *s = p->f->src->buf + sp.start;
		struct hlo_value tmp = { .kind = V_STRING, .span = sp };
		struct arena_mark mk = arena_mark(&p->scratch);
		size_t n = 0;
		char *t = span_len(sp) >= 2 && (s[0] == '"' || s[0] == '\'') ? value_string(p->f, &tmp, &p->scratch, &n)
									    : NULL;
		if (!t) {
			fputs(", execution_thread=", out);
			fwrite(s, 1, (size_t)span_len(sp), out);
		} else if (strcmp(t, "main")) {
			fputs(", execution_thread=", out);
			print_quoted(out, t, n, false);
		}
		arena_release(&p->scratch, mk);
	}
	fputs("\n\n", out);
}

/* ---- Module header (HM:369-465) ---- */

static void print_stack_tables(struct print_ctx *p)
{
	const struct hlo_stack_tables *t = &p->m->stack;
	FILE *out = p->out;
	if (!t->nfile_names && !t->nfunction_names && !t->nfile_locations && !t->nframes)
		return;
	fputs("FileNames\n", out);
	for (uint32_t k = 0; k < t->nfile_names; k++) {
		fprintf(out, "%u ", k + 1);
		fwrite(p->f->src->buf + t->file_names[k].start, 1, (size_t)span_len(t->file_names[k]), out);
		fputc('\n', out);
	}
	fputs("\nFunctionNames\n", out);
	for (uint32_t k = 0; k < t->nfunction_names; k++) {
		fprintf(out, "%u ", k + 1);
		fwrite(p->f->src->buf + t->function_names[k].start, 1, (size_t)span_len(t->function_names[k]), out);
		fputc('\n', out);
	}
	fputs("\nFileLocations\n", out);
	for (uint32_t k = 0; k < t->nfile_locations; k++) {
		const struct hlo_file_location *l = &t->file_locations[k];
		fprintf(out, "%u {file_name_id=%lld function_name_id=%lld line=%lld end_line=%lld column=%lld end_column=%lld}\n",
			k + 1, (long long)l->file_name_id, (long long)l->function_name_id, (long long)l->line,
			(long long)l->end_line, (long long)l->column, (long long)l->end_column);
	}
	fputs("\nStackFrames\n", out);
	for (uint32_t k = 0; k < t->nframes; k++)
		fprintf(out, "%u {file_location_id=%lld parent_frame_id=%lld}\n", k + 1,
			(long long)t->frames[k].file_location_id, (long long)t->frames[k].parent_frame_id);
	fputs("\n\n", out);
}

/* entry_computation_layout as XLA writes it when the text had none. */
static void print_entry_layout(struct print_ctx *p)
{
	struct hlo_comp *e = p->m->entry;
	FILE *out = p->out;
	fputs(", entry_computation_layout={(", out);
	for (uint32_t k = 0; e && k < e->nparams; k++) {
		if (k)
			fputs(", ", out);
		if (k && k % 5 == 0)
			fprintf(out, "/*index=%u*/", k);
		print_shape(p, e->params[k] ? e->params[k]->shape : NULL, true);
	}
	fputs(")->", out);
	print_shape(p, e && e->root ? e->root->shape : NULL, true);
	fputc('}', out);
}

static void print_layout_attr(struct print_ctx *p, const struct hlo_attr *a)
{
	struct hlo_value *v = print_decode(p, a);
	struct hlo_program_shape ps;
	if (!v || !attr_program_shape(v, &p->scratch, &ps, NULL)) {
		print_attr_as_text(p, a, false, false);
		return;
	}
	fputs(", entry_computation_layout={(", p->out);
	for (uint32_t k = 0; k < ps.nparams; k++) {
		if (k)
			fputs(", ", p->out);
		if (k && k % 5 == 0)
			fprintf(p->out, "/*index=%u*/", k);
		print_shape(p, ps.params[k], true);
	}
	fputs(")->", p->out);
	print_shape(p, ps.result, true);
	fputc('}', p->out);
}

static int print_index_cmp(const struct attr_ints *a, const struct attr_ints *b)
{
	for (uint32_t k = 0; k < a->n && k < b->n; k++)
		if (a->v[k] != b->v[k])
			return a->v[k] < b->v[k] ? -1 : 1;
	return a->n < b->n ? -1 : a->n > b->n;
}

static int print_alias_cmp(const void *x, const void *y)
{
	const struct hlo_alias *a = x, *b = y;
	int c = print_index_cmp(&a->output_index, &b->output_index);
	if (c)
		return c;
	if (a->number != b->number)
		return a->number < b->number ? -1 : 1;
	return print_index_cmp(&a->index, &b->index);
}

/* input_output_alias={ {0}: (0, {}, may-alias), ... } by output index;
 * buffer_donor={ (0, {}), ... } by parameter (IO:134-144, 312-320). */
static void print_alias_config_attr(struct print_ctx *p, const struct hlo_attr *a, bool donor)
{
	struct hlo_value *v = print_decode(p, a);
	struct hlo_aliases al;
	if (!v || !(donor ? attr_buffer_donors(v, &p->scratch, &al, NULL) : attr_aliases(v, &p->scratch, true, &al, NULL))) {
		print_attr_as_text(p, a, false, false);
		return;
	}
	if (!al.n)
		return;
	qsort(al.items, al.n, sizeof *al.items, print_alias_cmp);
	fprintf(p->out, ", %s={ ", a->name->str);
	for (uint32_t k = 0; k < al.n; k++) {
		const struct hlo_alias *it = &al.items[k];
		if (k)
			fputs(", ", p->out);
		if (!donor) {
			print_shape_index(p->out, &it->output_index);
			fputs(": ", p->out);
		}
		fprintf(p->out, "(%lld, ", (long long)it->number);
		print_shape_index(p->out, &it->index);
		if (!donor)
			fputs(it->kind == ALIAS_MUST ? ", must-alias" : ", may-alias", p->out);
		fputc(')', p->out);
	}
	fputs(" }", p->out);
}

/* Position of a header attribute in XLA's order; 99 for unknown ones. */
static int print_header_rank(const struct hlo_attr *a)
{
	static const enum attr_key order[] = {
		ATTR_IS_SCHEDULED, ATTR_INPUT_OUTPUT_ALIAS, ATTR_BUFFER_DONOR, ATTR_ALIAS_PASSTHROUGH_PARAMS,
		ATTR_ENTRY_COMPUTATION_LAYOUT, ATTR_ALLOW_SPMD_PARAMS, ATTR_ALLOW_SPMD_OUTPUT, ATTR_REPLICA_COUNT,
		ATTR_NUM_PARTITIONS, ATTR_FRONTEND_ATTRIBUTES, ATTR_ORIGIN_RECOVERY_TABLE, ATTR_DEBUG_ATTRIBUTES,
	};
	for (int k = 0; k < (int)(sizeof order / sizeof order[0]); k++)
		if (a->key == order[k])
			return k;
	return 99;
}

static void print_header_attr(struct print_ctx *p, const struct hlo_attr *a)
{
	FILE *out = p->out;
	switch (a->key) {
	case ATTR_DEBUG_ATTRIBUTES:
	case ATTR_ORIGIN_RECOVERY_TABLE: {
		/* XLA writes these multi-line (HM:409-449, 1914-1941): keep the
		 * text, including the line break before the name. */
		fputs(a->key == ATTR_DEBUG_ATTRIBUTES ? ",\n" : ", ", out);
		struct span ns = ir_attr_name_span(a);
		fwrite(p->f->src->buf + ns.start, 1, (size_t)(a->value_off + a->value_len - ns.start), out);
		if (a->key == ATTR_ORIGIN_RECOVERY_TABLE)
			fputc('\n', out);  /* XLA ends the table with a line break */
		return;
	}
	case ATTR_IS_SCHEDULED:
	case ATTR_ALIAS_PASSTHROUGH_PARAMS: {
		bool b;
		if (!print_decode_bool(p, a, &b))
			break;
		if (b)
			fprintf(out, ", %s=true", a->name->str);
		return;
	}
	case ATTR_INPUT_OUTPUT_ALIAS:
	case ATTR_BUFFER_DONOR:
		print_alias_config_attr(p, a, a->key == ATTR_BUFFER_DONOR);
		return;
	case ATTR_ENTRY_COMPUTATION_LAYOUT:
		print_layout_attr(p, a);
		return;
	case ATTR_ALLOW_SPMD_PARAMS:
	case ATTR_ALLOW_SPMD_OUTPUT: {
		struct hlo_value *v = print_decode(p, a);
		struct attr_bools bs;
		if (!v || !attr_bools(v, &p->scratch, &bs, NULL))
			break;
		if (bs.n == 1 && !bs.v[0])
			return;
		fprintf(out, ", %s={", a->name->str);
		for (uint32_t k = 0; k < bs.n; k++)
			fprintf(out, "%s%s", k ? "," : "", bs.v[k] ? "true" : "false");
		fputc('}', out);
		return;
	}
	case ATTR_REPLICA_COUNT:
	case ATTR_NUM_PARTITIONS: {
		int64_t x;
		if (!print_decode_int(p, a, &x))
			break;
		if (x != 1)
			fprintf(out, ", %s=%lld", a->name->str, (long long)x);
		return;
	}
	case ATTR_FRONTEND_ATTRIBUTES:
		print_frontend_attr(p, a);
		return;
	default:
		break;
	}
	print_attr_as_text(p, a, false, false);
}

static void print_header(struct print_ctx *p)
{
	struct hlo_module *m = p->m;
	FILE *out = p->out;
	fputs("HloModule ", out);
	if (m->name)
		fputs(m->name->str, out);
	else
		fprintf(out, "module_%s", m->entry ? m->entry->name->str : "");
	uint32_t n = m->nattrs;
	const struct hlo_attr **sorted = xmalloc((n + 1) * sizeof *sorted);
	for (uint32_t k = 0; k < n; k++) {
		uint32_t j = k;
		int r = print_header_rank(&m->attrs[k]);
		while (j && print_header_rank(sorted[j - 1]) > r) {
			sorted[j] = sorted[j - 1];
			j--;
		}
		sorted[j] = &m->attrs[k];
	}
	bool layout_done = ir_module_attr(m, ATTR_ENTRY_COMPUTATION_LAYOUT) != NULL;
	int layout_rank = 4;
	for (uint32_t k = 0; k < n; k++) {
		if (!layout_done && print_header_rank(sorted[k]) > layout_rank) {
			print_entry_layout(p);
			layout_done = true;
		}
		struct arena_mark mk = arena_mark(&p->scratch);
		print_header_attr(p, sorted[k]);
		arena_release(&p->scratch, mk);
	}
	if (!layout_done)
		print_entry_layout(p);
	free(sorted);
	fputs("\n\n", out);
}

void print_module(FILE *out, struct hlo_module *m, enum print_style style)
{
	struct print_ctx p = { out, m, m->file, style, { 0 } };
	arena_init(&p.scratch);
	print_header(&p);
	if (style != PRINT_SHORT)
		print_stack_tables(&p);
	/* Computations in source order (callees first): what XLA prints for
	 * a parsed module, and what the dumps in the corpus show. */
	for (uint32_t k = 0; k < m->ncomps; k++)
		if (!m->comps[k]->inline_body)
			print_comp(&p, m->comps[k]);
	arena_free(&p.scratch);
}
