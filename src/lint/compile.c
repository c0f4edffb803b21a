/* compile.c - a compile's signature (compile.h) taken from a loaded
 * module: its entry parameters and outputs as the runtime sees them,
 * donation, devices, and hashes that tell a program apart from its
 * constants.  It reads the IR only; it compares nothing but op_name sets. */
#include "compile.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "arena.h"
#include "hash.h"
#include "metadata.h"

/* A copy of text[0, n) the signature owns (compile_sig_free frees it):
 * one malloc each, as a signature holds a few dozen strings and a folder
 * thousands of signatures (an arena's first block per signature is 64 KiB). */
static const char *compile_str(struct compile_sig *s, const char *text, size_t n)
{
	if (s->nstrs == s->capstrs) {
		s->capstrs = s->capstrs ? s->capstrs * 2 : 16;
		s->strs = xreallocarray(s->strs, s->capstrs, sizeof *s->strs);
	}
	char *r = xmalloc(n + 1);
	memcpy(r, text, n);
	r[n] = 0;
	return s->strs[s->nstrs++] = r;
}

static const char *compile_span(struct compile_sig *s, const struct hlo_file *f, struct span sp, size_t max)
{
	return compile_str(s, ir_text(f, sp), span_len(sp) < max ? span_len(sp) : max);
}

static const char *compile_shape(struct compile_sig *s, const struct hlo_shape *sh)
{
	char buf[512];
	ir_shape_format(sh, false, buf, sizeof buf);
	return compile_str(s, buf, strlen(buf));
}

/* What i's metadata says, decoded in the module's arena and given back:
 * *op_name, and with source its Python line ("file.py:12"), copied into
 * keep (NULL: not kept, *op_hash only: the op_name less its jit(name)/
 * prefix, 0 without one).  "" for what it does not say. */
struct compile_md {
	const char *op_name, *source;
	uint64_t op_hash;
};

static void compile_metadata(const struct hlo_module *m, const struct hlo_instr *i, struct compile_sig *keep,
			     struct compile_md *out)
{
	*out = (struct compile_md){ "", "", 0 };
	const struct hlo_attr *at = ir_attr(i, ATTR_METADATA);
	if (!at)
		return;
	struct arena *a = &m->file->arena;
	struct arena_mark mark = arena_mark(a);
	struct hlo_metadata md;
	bool decoded = metadata_decode(m->file, ir_attr_value(at), a, &md, NULL);
	if (decoded && md.op_name) {
		/* The traced operation, the same in every compile of one function. */
		const char *slash = strncmp(md.op_name, "jit(", 4) ? NULL : strchr(md.op_name, '/');
		const char *stem = slash ? slash + 1 : md.op_name;
		out->op_hash = hash64(HASH64_INIT, stem, strlen(stem));
		if (keep)
			out->op_name = compile_str(keep, md.op_name, strlen(md.op_name));
	}
	const char *file;
	int64_t line = 0;
	if (keep && decoded && metadata_source(m, &md, a, &file, &line)) {
		char buf[512];
		snprintf(buf, sizeof buf, "%s:%lld", file, (long long)line);
		out->source = compile_str(keep, buf, strlen(buf));
	}
	arena_release(a, mark);
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
		struct compile_md md = { "", "", 0 };
		if (p)
			compile_metadata(m, p, s, &md);
		cp->path = md.op_name;
		cp->source = md.source;
		cp->sharding = "";
		cp->shape = "?";
		if (!p || !p->shape)
			continue;
		cp->shape = compile_shape(s, p->shape);
		cp->type = p->shape->type;
		cp->rank = ir_shape_is_array(p->shape) ? p->shape->rank : 0;
		cp->dims = xcalloc(cp->rank + 1, sizeof *cp->dims);
		if (cp->rank)
			memcpy(cp->dims, p->shape->dims, cp->rank * sizeof *cp->dims);
		cp->space = p->shape->layout && p->shape->type != PT_TUPLE ? p->shape->layout->memory_space : 0;
		const struct hlo_attr *sh = ir_attr(p, ATTR_SHARDING);
		if (sh)
			cp->sharding = compile_span(s, m->file, ir_attr_value(sh), 4096);
	}
}

static void compile_const_add(const struct hlo_module *m, const struct hlo_instr *i, struct compile_sig *s,
			      uint32_t *cap)
{
	if (s->nconsts == *cap) {
		*cap = *cap ? *cap * 2 : 16;
		s->consts = xreallocarray(s->consts, *cap, sizeof *s->consts);
	}
	struct compile_const *cc = &s->consts[s->nconsts++];
	cc->name = compile_str(s, ir_name(i), ir_name_len(i));
	struct span lit = ir_instr_literal(i);
	if (span_len(lit) >= 2 && ir_text(m->file, lit)[0] == '(')   /* "(0.01)": the value */
		lit = span_make(lit.start + 1, lit.end - 1);
	cc->value = compile_span(s, m->file, lit, COMPILE_VALUE_MAX);
	struct compile_md md;
	compile_metadata(m, i, s, &md);
	cc->op_name = md.op_name;
	cc->source = md.source;
}

static int compile_u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* The program without its constants' values (each instruction's opcode,
 * operand count and shape), the constants, and the distinct op_names. */
static void compile_program(const struct hlo_module *m, struct compile_sig *s)
{
	uint64_t h = HASH64_INIT;
	uint32_t ccap = 0, ocap = 0;
	char buf[512];
	for (uint32_t c = 0; c < m->ncomps; c++)
		for (uint32_t k = 0; k < m->comps[c]->ninstrs; k++) {
			const struct hlo_instr *i = m->comps[c]->instrs[k];
			size_t n = i->shape ? ir_shape_format(i->shape, false, buf, sizeof buf) : 0;
			h = hash64(hash64(hash64(h, &i->op, sizeof i->op), &i->noperands, sizeof i->noperands), buf,
				   n < sizeof buf ? n : sizeof buf - 1);
			if (i->op == OP_CONSTANT)
				compile_const_add(m, i, s, &ccap);
			struct compile_md md;
			if (i->op == OP_PARAMETER && m->comps[c] == m->entry)
				continue;   /* pytree paths: the signature says those */
			compile_metadata(m, i, NULL, &md);
			if (!md.op_hash)
				continue;
			if (s->nops == ocap) {
				ocap = ocap ? ocap * 2 : 64;
				s->ops = xreallocarray(s->ops, ocap, sizeof *s->ops);
			}
			s->ops[s->nops++] = md.op_hash;
		}
	s->program = h;
	if (!s->nops)
		return;
	qsort(s->ops, s->nops, sizeof *s->ops, compile_u64_cmp);
	uint32_t w = 1;
	for (uint32_t k = 1; k < s->nops; k++)
		if (s->ops[k] != s->ops[w - 1])
			s->ops[w++] = s->ops[k];
	s->nops = w;
}

/* input_output_alias and buffer_donor as written, "" when neither. */
static const char *compile_donation(const struct hlo_module *m, struct compile_sig *s)
{
	const struct hlo_attr *io = ir_module_attr(m, ATTR_INPUT_OUTPUT_ALIAS);
	const struct hlo_attr *bd = ir_module_attr(m, ATTR_BUFFER_DONOR);
	char buf[8200];
	size_t w = 0;
	buf[0] = 0;
	for (int k = 0; k < 2; k++) {
		const struct hlo_attr *at = k ? bd : io;
		if (!at)
			continue;
		struct span v = ir_attr_value(at);
		size_t n = span_len(v) < 4096 ? span_len(v) : 4096;
		w += (size_t)snprintf(buf + w, sizeof buf - w, "%s%.*s", w ? " " : "", (int)n, ir_text(m->file, v));
	}
	return compile_str(s, buf, strlen(buf));
}

struct compile_sig *compile_sig_take(const struct hlo_module *m, const char *path)
{
	if (!m->entry)
		return NULL;
	struct compile_sig *s = xcalloc(1, sizeof *s);
	s->path = compile_str(s, path, strlen(path));
	s->name = m->name ? compile_str(s, m->name->str, strlen(m->name->str)) : "";
	s->id = compile_dump_id(path);
	s->entry = compile_str(s, ir_comp_name(m->entry), ir_comp_name_len(m->entry));
	if (m->file->src)
		source_position(m->file->src, ir_comp_span(m->entry).start, &s->line, &s->col);
	compile_params(m, s);
	s->outputs = m->entry->root && m->entry->root->shape ? compile_shape(s, m->entry->root->shape) : "";
	s->donation = compile_donation(m, s);
	s->partitions = m->num_partitions;
	s->replicas = m->replica_count;
	compile_program(m, s);
	return s;
}

void compile_sig_free(struct compile_sig *s)
{
	if (!s)
		return;
	for (uint32_t k = 0; k < s->nstrs; k++)
		free(s->strs[k]);
	for (uint32_t k = 0; k < s->nparams; k++)
		free(s->params[k].dims);
	free(s->strs);
	free(s->params);
	free(s->consts);
	free(s->ops);
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
