/* attr_unit.c - checks the attr.c helpers the verifier does not exercise
 * through `hlolint parse`: device lookup in iota tile assignments, tile
 * counts and device counts of shardings, replica group sizes, metadata
 * source resolution through stack frame tables, frontend attribute lookup,
 * aliasing and program shapes, and the text fast paths against the parse
 * they stand in for.  Built and run by test_attr_unit.sh against
 * the library next to $HLOLINT. */
#include <stdio.h>
#include <string.h>
#include "attr.h"
#include "parse.h"
#include "sharding.h"
#include "metadata.h"

static int failures;

#define CHECK(cond)                                                                \
	do {                                                                       \
		if (!(cond)) {                                                     \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
			failures++;                                                \
		}                                                                  \
	} while (0)

/* Parses text as a module; returns the file (errors go to stderr). */
static struct hlo_file *load(const char *text, struct source **src)
{
	struct diag_sink d;
	diag_init(&d, stderr, 20);
	*src = source_from_memory("<unit>", text, strlen(text));
	struct hlo_file *f = parse_file(*src, &d);
	CHECK(d.errors == 0);
	return f;
}

static struct hlo_instr *instr(struct hlo_file *f, const char *name)
{
	struct hlo_comp *c = f->modules->entry;
	return ir_find_instr(c, name);
}

static struct hlo_value *value_of(struct hlo_file *f, const char *iname, const char *aname, struct arena *a)
{
	struct hlo_instr *i = instr(f, iname);
	const struct hlo_attr *at = i ? ir_attr_named(f, ir_attrs(i), i->nattrs, aname) : NULL;
	struct attr_error e;
	CHECK(at != NULL);
	return at ? attr_parse(f, at, a, &e) : NULL;
}

static void test_shardings(void)
{
	static const char text[] =
		"HloModule m\n"
		"ENTRY e {\n"
		"  a = f32[8,4] parameter(0), sharding={devices=[4,2]<=[2,4]T(1,0)}\n"
		"  b = f32[8,4] parameter(1), sharding={devices=[2,1,4]<=[8] last_tile_dim_replicate}\n"
		"  c = f32[8,4] parameter(2), sharding={devices=[2,2]3,2,1,0}\n"
		"  d = f32[8,4] parameter(3), sharding={mesh['x'=2,'y'=4], [{'y':(2)2, 'x'}, {}], replicated={'y':(1)2}}\n"
		"  m = f32[8,4] parameter(4), sharding={maximal device=5}\n"
		"  t = (f32[8], f32[4]) parameter(5), sharding={{replicated}, {devices=[4]<=[4]}}\n"
		"  ROOT r = f32[8,4] parameter(6), sharding={devices=[2,2,2]<=[2,2,2]T(2,0,1) last_tile_dims={manual}}\n"
		"}\n";
	struct source *src;
	struct hlo_file *f = load(text, &src);
	struct arena a;
	struct hlo_sharding s;
	struct attr_error e;
	arena_init(&a);

	CHECK(sharding_of(f, instr(f, "a"), &a, &s, &e));
	CHECK(s.kind == SHARDING_TILED && s.tiles.count == 8 && !s.tiles.devices);
	/* arange(8).reshape(2,4).T = [[0,4],[1,5],[2,6],[3,7]] */
	static const int64_t want_a[8] = { 0, 4, 1, 5, 2, 6, 3, 7 };
	for (uint64_t k = 0; k < 8; k++)
		CHECK(sharding_tile_device(&s.tiles, k) == want_a[k]);
	CHECK(sharding_tile_device(&s.tiles, 8) == -1);
	CHECK(sharding_tile_count(&s, 0) == 4 && sharding_tile_count(&s, 1) == 2);
	CHECK(sharding_num_devices(&s) == 8 && sharding_data_rank(&s) == 2);

	CHECK(sharding_of(f, instr(f, "b"), &a, &s, &e));
	CHECK(s.nsubgroups == 1 && s.subgroups[0] == SUBGROUP_REPLICATED);
	CHECK(sharding_data_rank(&s) == 2 && sharding_tile_count(&s, 0) == 2);
	CHECK(sharding_tile_count(&s, 1) == 1 && sharding_tile_count(&s, 2) == 1);
	CHECK(sharding_tile_device(&s.tiles, 5) == 5);

	CHECK(sharding_of(f, instr(f, "c"), &a, &s, &e));
	CHECK(s.tiles.devices && sharding_tile_device(&s.tiles, 1) == 2);

	CHECK(sharding_of(f, instr(f, "d"), &a, &s, &e));
	CHECK(s.kind == SHARDING_NAMED && s.mesh.naxes == 2 && sharding_mesh_size(&s.mesh) == 8);
	CHECK(s.ndims == 2 && s.dims[0].n == 2 && s.dims[0].refs[0].sub && s.dims[0].refs[0].axis == 1);
	CHECK(sharding_tile_count(&s, 0) == 4 && sharding_tile_count(&s, 1) == 1);
	CHECK(s.replicated.n == 1 && s.replicated.refs[0].size == 2);
	CHECK(sharding_num_devices(&s) == 8);

	CHECK(sharding_of(f, instr(f, "m"), &a, &s, &e));
	CHECK(s.kind == SHARDING_MAXIMAL && s.device == 5 && sharding_num_devices(&s) == 1);

	CHECK(sharding_of(f, instr(f, "t"), &a, &s, &e));
	CHECK(s.kind == SHARDING_TUPLE && s.nelems == 2 && s.elems[0].kind == SHARDING_REPLICATED);
	CHECK(sharding_num_devices(&s) == 4 && sharding_num_devices(&s.elems[0]) == 0);

	CHECK(sharding_of(f, instr(f, "r"), &a, &s, &e));
	/* arange(8).reshape(2,2,2).transpose(2,0,1): element [i][j][k] = 4j + 2k + i */
	CHECK(sharding_tile_device(&s.tiles, 1) == 2 && sharding_tile_device(&s.tiles, 2) == 4);
	CHECK(sharding_tile_device(&s.tiles, 4) == 1 && sharding_tile_device(&s.tiles, 7) == 7);
	CHECK(s.nsubgroups == 1 && s.subgroups[0] == SUBGROUP_MANUAL && sharding_data_rank(&s) == 2);

	arena_free(&a);
	parse_free(f);
	source_free(src);
}

static void test_collectives(void)
{
	static const char text[] =
		"HloModule m\n"
		"add {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n  ROOT s = f32[] add(x, y)\n}\n"
		"ENTRY e {\n"
		"  p = f32[4] parameter(0)\n"
		"  a = f32[4] all-reduce(p), replica_groups={{0,1,2},{3,4,5}}, to_apply=add\n"
		"  b = f32[4] all-reduce(p), replica_groups=[4,2]<=[2,4]T(1,0), to_apply=add\n"
		"  c = f32[4] all-reduce(p), replica_groups=mesh['x'=2,'y'=4] {'y'}, to_apply=add\n"
		"  d = f32[4] all-reduce(p), replica_groups=maximal_mesh[device_id=3] {}, to_apply=add\n"
		"  ROOT cp = f32[4] collective-permute(p), source_target_pairs={{0,1},{1,0}}\n"
		"}\n";
	struct source *src;
	struct hlo_file *f = load(text, &src);
	struct arena a;
	struct hlo_replica_groups rg;
	struct attr_int_lists pairs;
	struct attr_error e;
	arena_init(&a);
	CHECK(sharding_replica_groups(f, value_of(f, "a", "replica_groups", &a), &a, &rg, &e));
	CHECK(rg.kind == RG_LIST && rg.ngroups == 2 && rg.group_size == 3 && rg.uniform);
	CHECK(sharding_replica_groups(f, value_of(f, "b", "replica_groups", &a), &a, &rg, &e));
	CHECK(rg.kind == RG_IOTA && rg.ngroups == 4 && rg.group_size == 2);
	CHECK(sharding_tile_device(&rg.iota, 1) == 4);
	CHECK(sharding_replica_groups(f, value_of(f, "c", "replica_groups", &a), &a, &rg, &e));
	CHECK(rg.kind == RG_MESH && rg.group_size == 4 && rg.ngroups == 2);
	CHECK(sharding_replica_groups(f, value_of(f, "d", "replica_groups", &a), &a, &rg, &e));
	CHECK(rg.mesh.maximal && rg.mesh.device == 3 && rg.ngroups == 1);
	CHECK(attr_source_target_pairs(value_of(f, "cp", "source_target_pairs", &a), &a, &pairs, &e));
	CHECK(pairs.n == 2 && pairs.lists[1].v[0] == 1 && pairs.lists[1].v[1] == 0);
	arena_free(&a);
	parse_free(f);
	source_free(src);
}

static void test_metadata(void)
{
	static const char text[] =
		"HloModule m\n\n"
		"FileNames\n1 \"a.py\"\n2 \"lib/b\\\"q.py\"\n"
		"FunctionNames\n1 \"f\"\n"
		"FileLocations\n"
		"1 {file_name_id=1 function_name_id=1 line=10 end_line=10 column=1 end_column=2}\n"
		"2 {file_name_id=2 function_name_id=1 line=20 end_line=20 column=1 end_column=2}\n"
		"3 {file_name_id=0 function_name_id=1 line=30 end_line=30 column=1 end_column=2}\n"
		/* As XLA writes them: a frame's caller's id + 1 (1 = none, ir.h). */
		"StackFrames\n"
		"1 {file_location_id=1 parent_frame_id=1}\n"
		"2 {file_location_id=2 parent_frame_id=2}\n"
		"3 {file_location_id=3 parent_frame_id=3}\n\n"
		"ENTRY e {\n"
		"  p = f32[] parameter(0), metadata={op_type=\"t\" op_name=\"jit(f)/x\" stack_frame_id=3 profile_type={1,2}}\n"
		"  q = f32[] negate(p), metadata={op_name=\"y\", source_file=\"direct.py\", source_line=7}\n"
		"  ROOT r = f32[] negate(q), metadata={op_name=\"z\" stack_frame_id=1}, frontend_attributes={_xla_compute_type=\"host\", j={a = 1 : i32}}\n"
		"}\n";
	struct source *src;
	struct hlo_file *f = load(text, &src);
	struct hlo_module *m = f->modules;
	struct arena a;
	struct hlo_metadata md;
	struct hlo_frontend_attrs fa;
	struct attr_error e;
	const char *file = NULL;
	int64_t line = 0;
	arena_init(&a);
	CHECK(m->stack.nframes == 3);
	CHECK(metadata_decode(f, ir_attr_value(ir_attr(instr(f, "p"), ATTR_METADATA)), &a, &md, &e));
	CHECK(md.op_type && !strcmp(md.op_type, "t") && !strcmp(md.op_name, "jit(f)/x"));
	CHECK(md.stack_frame_id == 3 && md.profile_type.n == 2 && md.profile_type.v[1] == 2);
	/* frame 3 has no file: its parent frame 2 is the innermost with one */
	CHECK(metadata_source(m, &md, &a, &file, &line));
	CHECK(file && !strcmp(file, "lib/b\"q.py") && line == 20);
	CHECK(metadata_decode(f, ir_attr_value(ir_attr(instr(f, "q"), ATTR_METADATA)), &a, &md, &e));
	CHECK(metadata_source(m, &md, &a, &file, &line) && !strcmp(file, "direct.py") && line == 7);
	CHECK(metadata_decode(f, ir_attr_value(ir_attr(instr(f, "r"), ATTR_METADATA)), &a, &md, &e));
	CHECK(metadata_source(m, &md, &a, &file, &line) && !strcmp(file, "a.py") && line == 10);
	/* validate-only mode leaves strings empty */
	CHECK(metadata_decode(f, ir_attr_value(ir_attr(instr(f, "r"), ATTR_METADATA)), NULL, &md, &e));
	CHECK(md.op_name == NULL && md.stack_frame_id == 1);
	CHECK(metadata_frontend(f, ir_attr_value(ir_attr(instr(f, "r"), ATTR_FRONTEND_ATTRIBUTES)), &a, &fa, &e));
	CHECK(fa.n == 2 && !strcmp(metadata_frontend_get(&fa, "_xla_compute_type")->value, "host"));
	CHECK(metadata_frontend_get(&fa, "j")->json && !strcmp(metadata_frontend_get(&fa, "j")->value, "{a = 1 : i32}"));
	CHECK(metadata_frontend_get(&fa, "missing") == NULL);
	arena_free(&a);
	parse_free(f);
	source_free(src);
}

static void test_header(void)
{
	static const char text[] =
		"HloModule m, input_output_alias={ {0}: (1, {}, must-alias), {1}: (0, {1}) }, "
		"buffer_donor={ (0, {0}) }, entry_computation_layout={((f32[2]{0}, s32[]), f32[2]{0})->(f32[2]{0}, s32[])}\n"
		"ENTRY e {\n"
		"  p = (f32[2], s32[]) parameter(0)\n"
		"  q = f32[2] parameter(1)\n"
		"  g = s32[] get-tuple-element(p), index=1\n"
		"  ROOT t = (f32[2], s32[]) tuple(q, g)\n"
		"}\n";
	struct source *src;
	struct hlo_file *f = load(text, &src);
	struct hlo_module *m = f->modules;
	struct arena a;
	struct hlo_aliases al;
	struct hlo_program_shape ps;
	struct attr_error e;
	arena_init(&a);
	CHECK(attr_aliases(attr_parse(f, ir_module_attr(m, ATTR_INPUT_OUTPUT_ALIAS), &a, &e), &a, true, &al, &e));
	CHECK(al.n == 2 && al.items[0].number == 1 && al.items[0].kind == ALIAS_MUST);
	CHECK(al.items[1].output_index.n == 1 && al.items[1].index.v[0] == 1 && al.items[1].kind == ALIAS_NONE);
	CHECK(attr_buffer_donors(attr_parse(f, ir_module_attr(m, ATTR_BUFFER_DONOR), &a, &e), &a, &al, &e));
	CHECK(al.n == 1 && al.items[0].number == 0 && al.items[0].index.n == 1);
	CHECK(attr_program_shape(attr_parse(f, ir_module_attr(m, ATTR_ENTRY_COMPUTATION_LAYOUT), &a, &e), &a, &ps, &e));
	CHECK(ps.nparams == 2 && ps.params[0]->type == PT_TUPLE && ps.params[0]->rank == 2);
	CHECK(ir_shape_equal(ps.params[0], m->entry->params[0]->shape, false));
	CHECK(ir_shape_equal(ps.result, m->entry->root->shape, false));
	CHECK(ir_leaf_count(ps.params[0]) == 2 && ir_leaf_count(ps.params[1]) == 1);
	arena_free(&a);
	parse_free(f);
	source_free(src);
}

static void test_errors(void)
{
	static const char text[] =
		"HloModule m\n"
		"ENTRY e {\n"
		"  ROOT p = f32[8] parameter(0), sharding={devices=[2]<=[2]T(1)}\n"
		"}\n";
	struct source *src;
	struct diag_sink d;
	diag_init(&d, NULL, 0);
	d.quiet = true;
	src = source_from_memory("<unit>", text, strlen(text));
	struct hlo_file *f = parse_file(src, &d);
	struct arena a;
	struct hlo_sharding s;
	struct attr_error e;
	arena_init(&a);
	CHECK(d.errors == 1);
	CHECK(!sharding_of(f, ir_find_instr(f->modules->comps[0], "p"), &a, &s, &e));
	CHECK(strstr(e.msg, "permutation") != NULL);
	CHECK(!span_is_none(e.span) && src->buf[e.span.start] == 'T');
	arena_free(&a);
	parse_free(f);
	source_free(src);
}

/* The text fast paths (attr_text_slice, attr_text_int_lists) against the
 * parse they stand in for: where a fast path answers, the parse must accept
 * the value and decode the same numbers; the simple spellings must take
 * the fast path (or it would be dead code); the others must fall back. */
static const struct fast_case {
	const char *instr, *attr;
	int fast;       /* whether the fast path must answer */
} fast_cases[] = {
	{ "sl0", "slice", 1 }, { "sl1", "slice", 1 }, { "sl2", "slice", 1 }, { "sl3", "slice", 0 },
	{ "sl4", "slice", 0 }, { "sl5", "slice", 1 }, { "sl6", "slice", 1 }, { "sl7", "slice", 0 },
	{ "ar0", "replica_groups", 1 }, { "ar1", "replica_groups", 1 }, { "ar2", "replica_groups", 1 },
	{ "ar3", "replica_groups", 1 }, { "ar4", "replica_groups", 0 }, { "ar5", "replica_groups", 0 },
	{ "cp", "source_target_pairs", 1 },
	{ "al0", "output_to_operand_aliasing", 1 }, { "al1", "output_to_operand_aliasing", 1 },
	{ "al2", "output_to_operand_aliasing", 1 }, { "al3", "output_to_operand_aliasing", 0 },
	{ "al4", "output_to_operand_aliasing", 0 }, { "al5", "output_to_operand_aliasing", 1 },
};

static bool same_ints(const struct attr_ints *x, const struct attr_ints *y)
{
	return x->n == y->n && (!x->n || !memcmp(x->v, y->v, x->n * sizeof *x->v));
}

static void check_fast_case(struct hlo_file *f, const struct fast_case *c, struct arena *a)
{
	/* The module has errors, so it has no entry: the last computation is it. */
	struct hlo_module *m = f->modules;
	struct hlo_instr *i = m && m->ncomps ? ir_find_instr(m->comps[m->ncomps - 1], c->instr) : NULL;
	const struct hlo_attr *at = i ? ir_attr_named(f, ir_attrs(i), i->nattrs, c->attr) : NULL;
	struct attr_error e;
	CHECK(at != NULL);
	if (!at)
		return;
	struct hlo_value *v = attr_parse(f, at, a, &e);
	if (!strcmp(c->attr, "slice")) {
		struct hlo_slice fast, slow;
		bool got = attr_text_slice(f, ir_attr_value(at), a, &fast);
		CHECK(got == (c->fast != 0));
		if (!got)
			return;
		CHECK(v && attr_slice(v, a, &slow, &e) && slow.rank == fast.rank);
		for (uint32_t k = 0; v && k < slow.rank && k < fast.rank; k++)
			CHECK(!memcmp(&slow.dims[k], &fast.dims[k], sizeof slow.dims[k]));
		return;
	}
	if (!strcmp(c->attr, "output_to_operand_aliasing")) {
		struct hlo_aliases fast, slow;
		bool got = attr_text_aliases(f, ir_attr_value(at), a, &fast);
		CHECK(got == (c->fast != 0));
		if (!got)
			return;
		CHECK(v && attr_aliases(v, a, false, &slow, &e) && slow.n == fast.n);
		for (uint32_t k = 0; v && k < slow.n && k < fast.n; k++) {
			const struct hlo_alias *x = &slow.items[k], *y = &fast.items[k];
			CHECK(same_ints(&x->output_index, &y->output_index) && x->number == y->number &&
			      same_ints(&x->index, &y->index) && x->kind == y->kind && x->span.start == y->span.start &&
			      x->span.end == y->span.end);
		}
		return;
	}
	struct attr_int_lists fast, slow;
	bool got = attr_text_int_lists(f, ir_attr_value(at), a, &fast);
	CHECK(got == (c->fast != 0));
	if (!got)
		return;
	CHECK(v && attr_int_lists(v, a, &slow, &e) && slow.n == fast.n);
	for (uint32_t k = 0; v && k < slow.n && k < fast.n; k++)
		CHECK(same_ints(&slow.lists[k], &fast.lists[k]));
}

static void test_text_fast_paths(void)
{
	static const char text[] =
		"HloModule m\n"
		"add {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n  ROOT s = f32[] add(x, y)\n}\n"
		"ENTRY e {\n"
		"  p = f32[4,8] parameter(0)\n"
		"  sl0 = f32[2,8] slice(p), slice={[0:2], [0:8]}\n"
		"  sl1 = f32[2,4] slice(p), slice={[0:2],[0:8:2]}\n"
		"  sl2 = f32[2,8] slice(p), slice={ [0:2] , [0:8] }\n"
		"  sl3 = f32[2,8] slice(p), slice={[0:2], /* c */ [0:8]}\n"
		"  sl4 = f32[2,8] slice(p), slice={[0:2], [0:8:]}\n"
		"  sl5 = f32[2,8] slice(p), slice={[-1:2], [0:8]}\n"
		"  sl6 = f32[] slice(p), slice={}\n"
		"  sl7 = f32[2,8] slice(p), slice={[0:2] [0:8]}\n"
		"  ar0 = f32[4,8] all-reduce(p), replica_groups={{0,1},{2,3}}, to_apply=add\n"
		"  ar1 = f32[4,8] all-reduce(p), replica_groups={ {0, 1} , {2} }, to_apply=add\n"
		"  ar2 = f32[4,8] all-reduce(p), replica_groups={}, to_apply=add\n"
		"  ar3 = f32[4,8] all-reduce(p), replica_groups={{}}, to_apply=add\n"
		"  ar4 = f32[4,8] all-reduce(p), replica_groups={{0,1}{2,3}}, to_apply=add\n"
		"  ar5 = f32[4,8] all-reduce(p), replica_groups={{0,1},/* c */{2,3}}, to_apply=add\n"
		"  cp = f32[4,8] collective-permute(p), source_target_pairs={{0,1}, {1,0}}\n"
		"  al0 = (f32[4,8], f32[4,8]) custom-call(p, p), custom_call_target=\"x\", "
		"output_to_operand_aliasing={{0}: (0, {}), {1}: (1, {})}\n"
		"  al1 = (f32[4,8], f32[4,8]) custom-call(p, p), custom_call_target=\"x\", "
		"output_to_operand_aliasing={ {0} : (1, {}) , {1}: (0, {}) }\n"
		"  al2 = (f32[4,8], (f32[4,8])) custom-call(p, (f32[4,8]) tuple(p)), custom_call_target=\"x\", "
		"output_to_operand_aliasing={{1,0}:(1,{0})}\n"
		"  al3 = (f32[4,8], f32[4,8]) custom-call(p, p), custom_call_target=\"x\", "
		"output_to_operand_aliasing={{0}: ( 0, {})}\n"
		"  al4 = (f32[4,8], f32[4,8]) custom-call(p, p), custom_call_target=\"x\", "
		"output_to_operand_aliasing={{0}: (0, {}), /* c */ {1}: (1, {})}\n"
		"  ROOT al5 = f32[4,8] custom-call(p), custom_call_target=\"x\", output_to_operand_aliasing={}\n"
		"}\n";
	struct source *src = source_from_memory("<unit>", text, strlen(text));
	struct diag_sink d;
	diag_init(&d, NULL, 0);
	d.quiet = true;   /* the verifier rejects sl4..sl7 and ar4 */
	struct hlo_file *f = parse_file(src, &d);
	struct arena a;
	arena_init(&a);
	CHECK(f != NULL);
	for (size_t k = 0; f && k < sizeof fast_cases / sizeof *fast_cases; k++)
		check_fast_case(f, &fast_cases[k], &a);
	arena_free(&a);
	parse_free(f);
	source_free(src);
}

int main(void)
{
	test_shardings();
	test_collectives();
	test_metadata();
	test_header();
	test_errors();
	test_text_fast_paths();
	if (failures) {
		fprintf(stderr, "attr_unit: %d check(s) failed\n", failures);
		return 1;
	}
	printf("attr_unit: all checks passed\n");
	return 0;
}
