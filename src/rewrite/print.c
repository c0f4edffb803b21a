/* print.c - prints modules from the IR as XLA's HloModule::ToString would
 * after parsing them (print.h): computations and instructions in XLA's
 * order, each instruction's attributes in XLA's order (their values are
 * print_value.c's).  It does not turn async computations into -start sugar
 * or print inline bodies as named computations. */
#include "print_int.h"
#include <stdlib.h>
#include <string.h>
#include "literal.h"

/* ---- Attribute classes ---- */


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
		const struct hlo_attr *a = &ir_attrs(i)[k];
		if (print_skip_attr(p, a))
			continue;
		struct print_item *it = &items[n++];
		it->a = a;
		it->info = print_info(a);
		it->group = it->info->group;
		it->pos = k;
		it->rank = 0;
		if (it->group == PG_CALLEE)
			it->rank = print_callee_rank(print_attr_name(a));
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
			int r = print_op_rank(order, print_attr_name(items[k].a));
			if (r < 0 && !(i->async_wrapped != OP_COUNT && items[k].a->key == ATTR_ASYNC_EXECUTION_THREAD))
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
	print_name(p, ir_name(i), ir_name_len(i));
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
			struct hlo_instr *o = ir_operands(i)[k].instr;
			if (k)
				fputs(", ", out);
			if (p->style != PRINT_SHORT && k && k % 5 == 0)
				fprintf(out, "/*index=%u*/", k);
			if (p->style == PRINT_LONG) {
				print_shape(p, o->shape, true);
				fputc(' ', out);
			}
			print_name(p, ir_name(o), ir_name_len(o));
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

static bool print_is_synth_gte(const struct hlo_instr *i)
{
	return ir_is_anonymous(i) && i->op == OP_GET_TUPLE_ELEMENT && !i->nattrs;
}

/* Places a synthesized GTE (and the ones it reads) before its first user. */
static void print_place_gte(struct hlo_instr *g, uint8_t *placed, struct hlo_instr **order, uint32_t *n)
{
	if (placed[g->index])
		return;
	struct hlo_instr *base = ir_operands(g)[0].instr;
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
			struct hlo_instr *o = ir_operands(i)[j].instr;
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
			fprintf(out, "%.*s: ", IR_NM(param));
		else
			fputs("unknown: ", out);
		print_shape(p, param ? param->shape : NULL, false);
	}
	fputs(") -> ", out);
	print_shape(p, c->root ? c->root->shape : NULL, false);
}

static bool print_is_fusion_comp(const struct hlo_comp *c)
{
	for (uint32_t k = 0; k < ir_comp_ncallers(c); k++)
		if (ir_comp_caller(c, k)->op == OP_FUSION)
			return true;
	return false;
}

static void print_comp(struct print_ctx *p, struct hlo_comp *c)
{
	FILE *out = p->out;
	if (c->is_entry && c == p->m->entry)
		fputs("ENTRY ", out);
	print_name(p, ir_comp_name(c), ir_comp_name_len(c));
	if (p->style != PRINT_SHORT)
		print_signature(p, c);
	fputs(" {\n", out);
	struct hlo_instr **order = xmalloc((c->ninstrs + 1) * sizeof *order);
	/* A parsed scheduled module schedules every non-fusion computation
	 * in its instruction order (ScheduleFromInstructionOrder). */
	if (p->m->is_scheduled && !print_is_fusion_comp(c))
		print_program_order(c, order);
	else
		ir_post_order(c, p->style != PRINT_SHORT, order);
	for (uint32_t k = 0; k < c->ninstrs; k++)
		print_instr(p, order[k]);
	free(order);
	fputc('}', out);
	if (!span_is_none(ir_comp_exec_thread(c))) {
		struct span sp = ir_comp_exec_thread(c);
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
	fprintf(p->out, ", %s={ ", print_attr_name(a));
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
			fprintf(out, ", %s=true", print_attr_name(a));
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
		fprintf(out, ", %s={", print_attr_name(a));
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
			fprintf(out, ", %s=%lld", print_attr_name(a), (long long)x);
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
		fprintf(out, "module_%.*s", m->entry ? (int)ir_comp_name_len(m->entry) : 0,
			m->entry ? ir_comp_name(m->entry) : "");
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
