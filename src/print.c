/* print.c - prints modules from the IR in XLA's text styles (print.h).
 * Structure, names, shapes, operands and literals come from the IR; each
 * attribute value is printed from its source span with whitespace
 * normalised (the value grammar is kept verbatim, as XLA writes it), so a
 * canonical dump comes back byte for byte.  Inline bodies in attributes are
 * printed where they were written; only named computations get a block. */
#include "print.h"
#include <stdlib.h>
#include <string.h>
#include "literal.h"

struct print_ctx {
	FILE *out;
	struct hlo_module *m;
	const struct hlo_file *f;
	enum print_style style;
};

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

static bool print_is_name_attr(enum attr_key k)
{
	switch (k) {
	case ATTR_CALLS: case ATTR_TO_APPLY: case ATTR_BODY: case ATTR_CONDITION:
	case ATTR_BRANCH_COMPUTATIONS: case ATTR_TRUE_COMPUTATION: case ATTR_FALSE_COMPUTATION:
	case ATTR_SELECT: case ATTR_SCATTER: case ATTR_CALLED_COMPUTATIONS:
	case ATTR_CONTROL_PREDECESSORS:
		return true;
	default:
		return false;
	}
}

static bool print_is_ident_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool print_is_ident_char(char c)
{
	return print_is_ident_start(c) || (c >= '0' && c <= '9') || c == '.' || c == '-';
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

/* Copies an attribute value: whitespace runs become one space, strings,
 * comments and raw JSON dicts are copied as they are.  For attributes that
 * name computations or instructions, names get (default, long) or lose
 * (short) their '%'.  Inline bodies are copied without name rewriting. */
static void print_value_text(struct print_ctx *p, struct span sp, bool names)
{
	const char *s = p->f->src->buf + sp.start;
	size_t n = (size_t)span_len(sp), i = 0;
	FILE *out = p->out;
	if (names && n && s[0] == '{') {
		/* an inline body "{ ... }" or a list "{%a, %b}": only lists get names rewritten */
		size_t k = 1;
		while (k < n && (s[k] == ' ' || s[k] == '\n' || s[k] == '\r' || s[k] == '\t'))
			k++;
		const char *t = s + k;
		if (k < n && (!strncmp(t, "ROOT", 4) || memchr(s, '=', n)))
			names = false;
	}
	int brace = 0;
	while (i < n) {
		char c = s[i];
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
			while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r'))
				i++;
			if (i < n)
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
		if (c == '/' && i + 1 < n && s[i + 1] == '/') {
			/* a line comment cannot survive joining the value onto one line */
			while (i < n && s[i] != '\n' && s[i] != '\r')
				i++;
			continue;
		}
		if (c == '/' && i + 1 < n && s[i + 1] == '*') {
			/* Comments are not part of a value; only XLA's own
			 * index=N markers (tuple shardings, layouts) are kept. */
			const char *e = i + 2 < n ? strstr(s + i + 2, "*/") : NULL;
			size_t j = e && (size_t)(e - s) + 2 <= n ? (size_t)(e - s) + 2 : n;
			if (print_is_index_comment(s + i, j - i))
				fwrite(s + i, 1, j - i, out);
			i = j;
			while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r'))
				i++;
			continue;
		}
		if (c == '{')
			brace++;
		if (c == '}')
			brace--;
		if (names && (c == '%' || print_is_ident_start(c))) {
			size_t j = i + (c == '%');
			size_t k = j;
			while (k < n && print_is_ident_char(s[k]))
				k++;
			if (p->style != PRINT_SHORT)
				fputc('%', out);
			fwrite(s + j, 1, k - j, out);
			i = k;
			continue;
		}
		fputc(c, out);
		i++;
	}
	(void)brace;
}

static void print_attr(struct print_ctx *p, const struct hlo_attr *a)
{
	if (a->key == ATTR_DEBUG_ATTRIBUTES || a->key == ATTR_ORIGIN_RECOVERY_TABLE) {
		/* XLA writes these multi-line (HM:409-449, 1914-1941): keep the
		 * text, including the line break before the name. */
		fputs(a->key == ATTR_DEBUG_ATTRIBUTES ? ",\n" : ", ", p->out);
		struct span ns = ir_attr_name_span(a);
		fwrite(p->f->src->buf + ns.start, 1, (size_t)(a->value_off + a->value_len - ns.start), p->out);
		if (a->key == ATTR_ORIGIN_RECOVERY_TABLE)
			fputc('\n', p->out);  /* XLA ends the table with a line break */
		return;
	}
	fputs(", ", p->out);
	fputs(a->name->str, p->out);
	fputc('=', p->out);
	print_value_text(p, ir_attr_value(a), print_is_name_attr(a->key));
}

static bool print_skip_attr(struct print_ctx *p, const struct hlo_attr *a)
{
	if (p->style != PRINT_SHORT)
		return false;
	return a->key == ATTR_METADATA || a->key == ATTR_CONTROL_PREDECESSORS;
}

static void print_instr(struct print_ctx *p, struct hlo_instr *i)
{
	FILE *out = p->out;
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
	for (uint32_t k = 0; k < i->nattrs; k++)
		if (!print_skip_attr(p, &i->attrs[k]))
			print_attr(p, &i->attrs[k]);
	fputc('\n', out);
}

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

static void print_comp(struct print_ctx *p, struct hlo_comp *c)
{
	FILE *out = p->out;
	if (c->is_entry && c == p->m->entry)
		fputs("ENTRY ", out);
	print_name(p, c->name->str, c->name->len);
	if (p->style != PRINT_SHORT)
		print_signature(p, c);
	fputs(" {\n", out);
	for (uint32_t k = 0; k < c->ninstrs; k++)
		print_instr(p, c->instrs[k]);
	fputc('}', out);
	if (!span_is_none(c->exec_thread)) {
		fputs(", execution_thread=", out);
		fwrite(p->f->src->buf + c->exec_thread.start, 1, (size_t)span_len(c->exec_thread), out);
	}
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

/* Header attributes XLA prints before entry_computation_layout. */
static bool print_before_entry_layout(enum attr_key k)
{
	return k == ATTR_IS_SCHEDULED || k == ATTR_INPUT_OUTPUT_ALIAS || k == ATTR_BUFFER_DONOR ||
	       k == ATTR_ALIAS_PASSTHROUGH_PARAMS;
}

void print_module(FILE *out, struct hlo_module *m, enum print_style style)
{
	struct print_ctx p = { out, m, m->file, style };
	fputs("HloModule ", out);
	if (m->name)
		fputs(m->name->str, out);
	else
		fprintf(out, "module_%s", m->entry ? m->entry->name->str : "");
	bool has_layout = ir_module_attr(m, ATTR_ENTRY_COMPUTATION_LAYOUT) != NULL;
	bool layout_done = has_layout;
	for (uint32_t k = 0; k < m->nattrs; k++) {
		if (!layout_done && !print_before_entry_layout(m->attrs[k].key)) {
			print_entry_layout(&p);
			layout_done = true;
		}
		print_attr(&p, &m->attrs[k]);
	}
	if (!layout_done)
		print_entry_layout(&p);
	fputs("\n\n", out);
	if (style != PRINT_SHORT)
		print_stack_tables(&p);
	for (uint32_t k = 0; k < m->ncomps; k++)
		if (!m->comps[k]->inline_body)
			print_comp(&p, m->comps[k]);
}
