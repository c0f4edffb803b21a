/* compile.c - a compile's signature (compile.h) taken from a loaded
 * module: its entry parameters and outputs as the runtime sees them,
 * donation, devices, and hashes that tell a program apart from its
 * constants.  It reads the IR only; it compares nothing but op_name sets. */
#include "compile.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "arena.h"
#include "metadata.h"

static uint64_t compile_hash(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;
	for (size_t k = 0; k < n; k++)
		h = (h ^ b[k]) * UINT64_C(0x100000001b3);
	return h;
}

#define COMPILE_HASH0 UINT64_C(0xcbf29ce484222325)

static char *compile_strndup(const char *s, size_t n)
{
	char *r = xmalloc(n + 1);
	memcpy(r, s, n);
	r[n] = 0;
	return r;
}

static char *compile_span(const struct hlo_file *f, struct span sp, size_t max)
{
	size_t n = span_len(sp) < max ? span_len(sp) : max;
	return compile_strndup(ir_text(f, sp), n);
}

static char *compile_shape(const struct hlo_shape *s)
{
	char buf[512];
	ir_shape_format(s, false, buf, sizeof buf);
	return compile_strndup(buf, strlen(buf));
}

/* The op_name of i's metadata (malloc'd), or NULL; with source, also its
 * Python line ("file.py:12", malloc'd, "" when none). */
static char *compile_op_name(const struct hlo_module *m, const struct hlo_instr *i, char **source)
{
	const struct hlo_attr *at = ir_attr(i, ATTR_METADATA);
	if (source)
		*source = NULL;
	char *r = NULL;
	if (at) {
		struct arena *a = &m->file->arena;
		struct arena_mark mark = arena_mark(a);
		struct hlo_metadata md;
		if (metadata_decode(m->file, ir_attr_value(at), a, &md, NULL)) {
			if (md.op_name)
				r = compile_strndup(md.op_name, strlen(md.op_name));
			const char *file;
			int64_t line = 0;
			if (source && metadata_source(m, &md, a, &file, &line)) {
				size_t n = strlen(file) + 24;
				*source = xmalloc(n);
				snprintf(*source, n, "%s:%lld", file, (long long)line);
			}
		}
		arena_release(a, mark);
	}
	if (source && !*source)
		*source = compile_strndup("", 0);
	return r;
}

/* module_0042.jit_f... -> 42; -1 when the file is not named by XLA. */
static int64_t compile_dump_id(const char *path)
{
	const char *b = strrchr(path, '/');
	b = b ? b + 1 : path;
	if (strncmp(b, "module_", 7) != 0)
		return -1;
	char *end;
	long long v = strtoll(b + 7, &end, 10);
	return end != b + 7 && *end == '.' ? (int64_t)v : -1;
}

static void compile_params(const struct hlo_module *m, struct compile_sig *s)
{
	const struct hlo_comp *e = m->entry;
	s->nparams = e->nparams;
	s->params = xcalloc(e->nparams + 1, sizeof *s->params);
	for (uint32_t k = 0; k < e->nparams; k++) {
		const struct hlo_instr *p = e->params[k];
		struct compile_param *cp = &s->params[k];
		char *op = p ? compile_op_name(m, p, &cp->source) : NULL;
		cp->path = op ? op : compile_strndup("", 0);
		if (!cp->source)
			cp->source = compile_strndup("", 0);
		if (!p || !p->shape) {
			cp->shape = compile_strndup("?", 1);
			cp->sharding = compile_strndup("", 0);
			continue;
		}
		cp->shape = compile_shape(p->shape);
		cp->type = p->shape->type;
		cp->rank = ir_shape_is_array(p->shape) ? p->shape->rank : 0;
		cp->dims = xcalloc(cp->rank + 1, sizeof *cp->dims);
		if (cp->rank)
			memcpy(cp->dims, p->shape->dims, cp->rank * sizeof *cp->dims);
		cp->space = p->shape->layout && p->shape->type != PT_TUPLE ? p->shape->layout->memory_space : 0;
		const struct hlo_attr *sh = ir_attr(p, ATTR_SHARDING);
		cp->sharding = sh ? compile_span(m->file, ir_attr_value(sh), 4096) : compile_strndup("", 0);
	}
}

/* The program without its constants' values, and the constants. */
static void compile_program(const struct hlo_module *m, struct compile_sig *s)
{
	uint64_t h = COMPILE_HASH0;
	uint32_t cap = 0;
	char buf[512];
	for (uint32_t c = 0; c < m->ncomps; c++) {
		const struct hlo_comp *comp = m->comps[c];
		for (uint32_t k = 0; k < comp->ninstrs; k++) {
			const struct hlo_instr *i = comp->instrs[k];
			size_t n = i->shape ? ir_shape_format(i->shape, false, buf, sizeof buf) : 0;
			h = compile_hash(h, &i->op, sizeof i->op);
			h = compile_hash(h, &i->noperands, sizeof i->noperands);
			h = compile_hash(h, buf, n < sizeof buf ? n : sizeof buf - 1);
			if (i->op != OP_CONSTANT)
				continue;
			if (s->nconsts == cap) {
				cap = cap ? cap * 2 : 16;
				s->consts = xreallocarray(s->consts, cap, sizeof *s->consts);
			}
			struct compile_const *cc = &s->consts[s->nconsts++];
			cc->name = compile_strndup(ir_name(i), ir_name_len(i));
			struct span lit = ir_instr_literal(i);
			if (span_len(lit) >= 2 && ir_text(m->file, lit)[0] == '(')   /* "(0.01)": the value */
				lit = span_make(lit.start + 1, lit.end - 1);
			cc->value = compile_span(m->file, lit, COMPILE_VALUE_MAX);
			char *op = compile_op_name(m, i, &cc->source);
			cc->op_name = op ? op : compile_strndup("", 0);
		}
	}
	s->program = h;
}

static int compile_u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* op_name less "jit(name)/": the traced operation, the same in every
 * compile of one function. */
static const char *compile_op_stem(const char *op)
{
	if (strncmp(op, "jit(", 4) != 0)
		return op;
	const char *slash = strchr(op, '/');
	return slash ? slash + 1 : op;
}

static void compile_ops(const struct hlo_module *m, struct compile_sig *s)
{
	uint32_t cap = 0;
	for (uint32_t c = 0; c < m->ncomps; c++)
		for (uint32_t k = 0; k < m->comps[c]->ninstrs; k++) {
			const struct hlo_instr *i = m->comps[c]->instrs[k];
			if (i->op == OP_PARAMETER && m->comps[c] == m->entry)
				continue;   /* the pytree paths: the signature says those */
			char *op = compile_op_name(m, i, NULL);
			if (!op)
				continue;
			const char *st = compile_op_stem(op);
			if (s->nops == cap) {
				cap = cap ? cap * 2 : 64;
				s->ops = xreallocarray(s->ops, cap, sizeof *s->ops);
			}
			s->ops[s->nops++] = compile_hash(COMPILE_HASH0, st, strlen(st));
			free(op);
		}
	if (!s->nops)
		return;
	qsort(s->ops, s->nops, sizeof *s->ops, compile_u64_cmp);
	uint32_t w = 1;
	for (uint32_t k = 1; k < s->nops; k++)
		if (s->ops[k] != s->ops[w - 1])
			s->ops[w++] = s->ops[k];
	s->nops = w;
}

struct compile_sig *compile_sig_take(const struct hlo_module *m, const char *path)
{
	if (!m->entry)
		return NULL;
	struct compile_sig *s = xcalloc(1, sizeof *s);
	s->path = compile_strndup(path, strlen(path));
	s->name = m->name ? compile_strndup(m->name->str, strlen(m->name->str)) : compile_strndup("", 0);
	s->id = compile_dump_id(path);
	s->entry = compile_strndup(ir_comp_name(m->entry), ir_comp_name_len(m->entry));
	struct span at = ir_comp_span(m->entry);
	if (m->file->src)
		source_position(m->file->src, at.start, &s->line, &s->col);
	compile_params(m, s);
	s->outputs = m->entry->root && m->entry->root->shape ? compile_shape(m->entry->root->shape)
							      : compile_strndup("", 0);
	const struct hlo_attr *io = ir_module_attr(m, ATTR_INPUT_OUTPUT_ALIAS);
	const struct hlo_attr *bd = ir_module_attr(m, ATTR_BUFFER_DONOR);
	char *a = io ? compile_span(m->file, ir_attr_value(io), 4096) : NULL;
	char *b = bd ? compile_span(m->file, ir_attr_value(bd), 4096) : NULL;
	size_t na = a ? strlen(a) : 0, nb = b ? strlen(b) : 0;
	s->donation = xmalloc(na + nb + 2);
	snprintf(s->donation, na + nb + 2, "%s%s%s", a ? a : "", a && b ? " " : "", b ? b : "");
	free(a);
	free(b);
	s->partitions = m->num_partitions;
	s->replicas = m->replica_count;
	compile_program(m, s);
	compile_ops(m, s);
	return s;
}

void compile_sig_free(struct compile_sig *s)
{
	if (!s)
		return;
	for (uint32_t k = 0; k < s->nparams; k++) {
		free(s->params[k].path);
		free(s->params[k].source);
		free(s->params[k].shape);
		free(s->params[k].dims);
		free(s->params[k].sharding);
	}
	for (uint32_t k = 0; k < s->nconsts; k++) {
		free(s->consts[k].name);
		free(s->consts[k].value);
		free(s->consts[k].op_name);
		free(s->consts[k].source);
	}
	free(s->params);
	free(s->consts);
	free(s->ops);
	free(s->path);
	free(s->name);
	free(s->entry);
	free(s->outputs);
	free(s->donation);
	free(s);
}

double compile_ops_overlap(const struct compile_sig *a, const struct compile_sig *b)
{
	uint32_t i = 0, j = 0, common = 0;
	while (i < a->nops && j < b->nops) {
		if (a->ops[i] == b->ops[j])
			common++, i++, j++;
		else if (a->ops[i] < b->ops[j])
			i++;
		else
			j++;
	}
	uint32_t all = a->nops + b->nops - common;
	return all ? (double)common / all : 0;
}
