/* hlo.y - the HLO text grammar: shapes of sentences only.  Every action calls
 * one build_* function (src/front/build.c); no lookups, checks or printing here.
 * Attribute values are parsed generically (groups of items) and kept as
 * spans; value_parse re-enters this grammar at START_VALUE to decode one. */
%define api.pure full
%define api.prefix {hlo_yy}
%define api.location.type {struct span}
%define parse.error custom
%define parse.lac none
%locations
%expect 0
%param {yyscan_t scanner}
%parse-param {struct build_ctx *ctx}

%code requires {
#include <stdint.h>
#include "build.h"
typedef void *yyscan_t;
}

%code provides {
int hlo_yylex(HLO_YYSTYPE *lval, HLO_YYLTYPE *lloc, yyscan_t scanner);
int hlo_yyparse(yyscan_t scanner, struct build_ctx *ctx);
}

%code {
#include "scan.h"
/* Spans: a rule covers its first to its last symbol; an empty rule sits at
 * the end of the previous symbol. */
#define YYLLOC_DEFAULT(Cur, Rhs, N)                                        \
	do {                                                              \
		if (N) {                                                  \
			(Cur).start = YYRHSLOC(Rhs, 1).start;             \
			(Cur).end = YYRHSLOC(Rhs, N).end;                 \
		} else {                                                  \
			(Cur).start = (Cur).end = YYRHSLOC(Rhs, 0).end;   \
		}                                                         \
	} while (0)
#define YYMAXDEPTH 200000
static void hlo_yyerror(HLO_YYLTYPE *loc, yyscan_t scanner, struct build_ctx *ctx, const char *msg);
}

%union {
	struct interned *id;
	int64_t i;
	double d;
	uint32_t mark;
	struct hlo_shape *shape;
	struct hlo_layout *layout;
	struct hlo_instr *instr;
	struct hlo_comp *comp;
	struct hlo_value *value;
}

%token START_MODULE START_VALUE START_SHAPE START_SIGNATURE
%token T_HLOMODULE "HloModule" T_ENTRY "ENTRY" T_ROOT "ROOT"
%token T_FILENAMES "FileNames" T_FUNCTIONNAMES "FunctionNames"
%token T_FILELOCATIONS "FileLocations" T_STACKFRAMES "StackFrames"
%token <i> KEYWORD "keyword"
/* IDENT carries its interned entry when the word is known vocabulary (opcode,
 * attribute name...), else NULL; names are read from their spans. */
%token <id> IDENT "identifier" ATTRNAME "attribute name" TYPE "element type"
%token PNAME "%name" DEFNAME "instruction name" NAMECOLON "parameter name"
%token <i> INT "integer"
%token <d> DECIMAL "decimal"
%token STRING "string" JSON "JSON dict" LITERAL "literal" METADATA "metadata block"
%token DXD "window size" PAD "padding" DIMLABELS "dimension labels" NEGINF "-inf"
%token LE "<=" ARROW "->" ELLIPSIS "..." LAYOUT_OPEN "layout '{'"
%token <shape> SHAPE "shape"
%token TILE_OPEN "T(" BUF_OPEN "b(" SPLIT "// -----" LEXERROR "invalid token"

%type <mark> attrs sig_mark op_mark gtes int_mark shape_mark
%type <shape> shape array_shape tuple_shape buffer_shape vshape
%type <layout> layout
%type <instr> rhs op
%type <comp> comp_head body body_begin
%type <value> values attrval atom num_atom group item items items_opt tile
%type <i> dlts

%%

top
	: START_MODULE file
	| START_VALUE values                    { build_value_result(ctx, $2); }
	| START_SHAPE shape                     { build_shape_result(ctx, $2); }
	| START_SHAPE '=' shape                 { build_shape_result(ctx, $3); }
	| START_SIGNATURE '(' sig_mark sig_params_opt ')' ARROW shape
	                                        { build_shape_result(ctx, $7); }
	;

/* ---- files and modules ---- */

file
	: %empty                                { build_empty_input(ctx, @$); }
	| splits                                { build_empty_input(ctx, @$); }
	| modules
	| modules splits
	| splits modules
	| splits modules splits
	;

splits
	: SPLIT
	| splits SPLIT
	;

modules
	: module
	| modules header_module
	| modules splits module
	;

module
	: header_module
	| comps                                 { build_module_end(ctx, @$); }
	;

header_module
	: header stack_tables comps             { build_module_end(ctx, @$); }
	;

header
	: T_HLOMODULE modname attrs             { build_module_header(ctx, @2, $3, @$); }
	;

modname
	: IDENT
	| PNAME
	| NAMECOLON
	;

/* FileNames 1 "a.py" ... FunctionNames ... FileLocations 1 {file_name_id=1 ...}
 * StackFrames 1 {file_location_id=1 parent_frame_id=0} */
stack_tables
	: %empty
	| T_FILENAMES stack_names T_FUNCTIONNAMES function_names
	  T_FILELOCATIONS stack_locations T_STACKFRAMES stack_frames
	;

stack_names
	: %empty
	| stack_names INT STRING                { build_stack_name(ctx, 0, $2, @3); }
	;

function_names
	: %empty
	| function_names INT STRING             { build_stack_name(ctx, 1, $2, @3); }
	;

stack_locations
	: %empty
	| stack_locations INT group             { build_stack_entry(ctx, 2, $2, @3); }
	;

stack_frames
	: %empty
	| stack_frames INT group                { build_stack_entry(ctx, 3, $2, @3); }
	;

/* ---- computations ---- */

comps
	: comp
	| comps comp
	;

comp
	: comp_head body                        { build_comp_end(ctx, $1, $2, span_none(), @$); }
	| comp_head body ',' ATTRNAME STRING    { build_comp_end(ctx, $1, $2, @5, @$); }
	;

comp_head
	: T_ENTRY cname                        { $$ = build_comp_head(ctx, true, @2, 0, NULL, span_none()); }
	| cname                                 { $$ = build_comp_head(ctx, false, @1, 0, NULL, span_none()); }
	| T_ENTRY cname '(' sig_mark sig_params_opt ')' ARROW shape
	                                        { $$ = build_comp_head(ctx, true, @2, $4, $8, span_make(@3.start, @8.end)); }
	| cname '(' sig_mark sig_params_opt ')' ARROW shape
	                                        { $$ = build_comp_head(ctx, false, @1, $3, $7, span_make(@2.start, @7.end)); }
	;

cname
	: IDENT
	| PNAME
	;

sig_mark
	: %empty                                { $$ = build_sig_mark(ctx); }
	;

sig_params_opt
	: %empty
	| sig_params
	;

sig_params
	: sig_param
	| sig_params ',' sig_param
	;

sig_param
	: NAMECOLON shape                       { build_sig_param(ctx, @$, $2); }
	;

/* An instruction list; shared by top-level computations and inline bodies
 * (to_apply={...}).  body_begin reduces only before ROOT or a definition,
 * which no value item can start with, so '{' stays unambiguous. */
body
	: '{' body_begin instrs '}'             { $$ = build_body_end(ctx, $2, @$); }
	;

body_begin
	: %empty                                { $$ = build_body_begin(ctx); }
	;

instrs
	: instr
	| instrs instr
	;

instr
	: DEFNAME rhs attrs                     { build_instr(ctx, false, @1, $2, $3, @$); }
	| T_ROOT DEFNAME rhs attrs              { build_instr(ctx, true, @2, $3, $4, @$); }
	| error                                 { if (build_should_stop(ctx)) YYABORT; }
	;

rhs
	: op
	| shape op                              { $$ = build_rhs_shape(ctx, $2, $1, @$); }
	;

op
	: IDENT '(' op_mark operands_opt ')'    { $$ = build_op(ctx, $1, @1, $3, @$); }
	| IDENT LITERAL                         { $$ = build_op_literal(ctx, $1, @1, @2, @$); }
	;

op_mark
	: %empty                                { $$ = build_operand_mark(ctx); }
	;

operands_opt
	: %empty
	| operands
	;

operands
	: operand
	| operands ',' operand
	;

/* %x, f32[] %x, %p#1#0, parameter(0)'s 0, or a nested instruction */
operand
	: IDENT                                 { build_operand(ctx, NULL, span_none(), @1, build_int_mark(ctx)); }
	| PNAME                                 { build_operand(ctx, NULL, span_none(), @1, build_int_mark(ctx)); }
	| IDENT gtes                            { build_operand(ctx, NULL, span_none(), @1, $2); }
	| PNAME gtes                            { build_operand(ctx, NULL, span_none(), @1, $2); }
	| shape IDENT                           { build_operand(ctx, $1, @1, @2, build_int_mark(ctx)); }
	| shape PNAME                           { build_operand(ctx, $1, @1, @2, build_int_mark(ctx)); }
	| shape IDENT gtes                      { build_operand(ctx, $1, @1, @2, $3); }
	| shape PNAME gtes                      { build_operand(ctx, $1, @1, @2, $3); }
	| rhs                                   { build_operand_nested(ctx, $1, @$); }
	| INT                                   { build_operand_int(ctx, $1, @$); }
	;

/* #1#0 after a name: its mark is taken at the first '#', and a plain name
 * (the common case) takes its own, so no empty rule is reduced per operand. */
gtes
	: '#' INT                               { $$ = build_int_mark(ctx); build_int(ctx, $2, 0); }
	| gtes '#' INT                          { build_int(ctx, $3, 0); $$ = $1; }
	;

/* ---- attributes ---- */

attrs
	: %empty                                { $$ = build_attr_mark(ctx); }
	| attrs ',' ATTRNAME attrval            { build_attr(ctx, $3, @3, @4); $$ = $1; }
	| attrs ',' PNAME                       { build_attr_continue(ctx, @3); $$ = $1; }
	;

/* A top-level attribute value ends at the next ',' or at anything that
 * cannot continue it; the forms without brackets are listed explicitly. */
attrval
	: atom
	| group
	| group group                           { $$ = build_value_group(ctx, V_SEQ, build_value_append(ctx, build_value_append(ctx, NULL, $1, false), $2, false), @$); }
	| group LE group                        { $$ = build_value_group(ctx, V_SEQ, build_value_append(ctx, build_value_append(ctx, build_value_append(ctx, NULL, $1, false), build_value_atom(ctx, V_PUNCT, P_LE, NULL, @2), false), $3, false), @$); }
	| group LE group tile                   { $$ = build_value_group(ctx, V_SEQ, build_value_append(ctx, build_value_append(ctx, build_value_append(ctx, build_value_append(ctx, NULL, $1, false), build_value_atom(ctx, V_PUNCT, P_LE, NULL, @2), false), $3, false), $4, false), @$); }
	| IDENT group                           { $$ = build_value_group(ctx, V_SEQ, build_value_append(ctx, build_value_append(ctx, NULL, build_value_atom(ctx, V_IDENT, 0, $1, @1), false), $2, false), @$); }
	| IDENT group group                     { $$ = build_value_group(ctx, V_SEQ, build_value_append(ctx, build_value_append(ctx, build_value_append(ctx, NULL, build_value_atom(ctx, V_IDENT, 0, $1, @1), false), $2, false), $3, false), @$); }
	| vshape                                { $$ = build_value_shape(ctx, $1, @$); }
	| vshape group                          { $$ = build_value_group(ctx, V_SEQ, build_value_append(ctx, build_value_append(ctx, NULL, build_value_shape(ctx, $1, @1), false), $2, false), @$); }
	| vshape num_atom                       { $$ = build_value_group(ctx, V_SEQ, build_value_append(ctx, build_value_append(ctx, NULL, build_value_shape(ctx, $1, @1), false), $2, false), @$); }
	;

/* A value of its own (value_parse): attribute values, and name=value pairs
 * where a value spans what looks like two attributes ("replica_groups=
 * mesh[...], device_ids=(...) {...}", joined by build_attr). */
values
	: attrval                               { $$ = build_value_append(ctx, NULL, $1, false); }
	| values ',' attrval                    { $$ = build_value_append(ctx, $1, $3, true); }
	| values ',' ATTRNAME attrval           { $$ = build_value_append(ctx, $1, build_value_pair(ctx, $3, $4, @$), true); }
	;

num_atom
	: INT                                   { $$ = build_value_atom(ctx, V_INT, $1, NULL, @$); }
	| DECIMAL                               { $$ = build_value_atom(ctx, V_DECIMAL, 0, NULL, @$); }
	| NEGINF                                { $$ = build_value_atom(ctx, V_NEGINF, 0, NULL, @$); }
	| KEYWORD                               { $$ = build_value_atom(ctx, V_IDENT, $1, NULL, @$); }
	;

atom
	: num_atom
	| STRING                                { $$ = build_value_atom(ctx, V_STRING, 0, NULL, @$); }
	| JSON                                  { $$ = build_value_atom(ctx, V_JSON, 0, NULL, @$); }
	| METADATA                              { $$ = build_value_atom(ctx, V_BRACE, 0, NULL, @$); }
	| IDENT                                 { $$ = build_value_atom(ctx, V_IDENT, 0, $1, @$); }
	| PNAME                                 { $$ = build_value_atom(ctx, V_NAME, 0, NULL, @$); }
	| DXD                                   { $$ = build_value_atom(ctx, V_DXD, 0, NULL, @$); }
	| PAD                                   { $$ = build_value_atom(ctx, V_PAD, 0, NULL, @$); }
	| DIMLABELS                             { $$ = build_value_atom(ctx, V_DIMLABELS, 0, NULL, @$); }
	;

group
	: '{' items_opt '}'                     { $$ = build_value_group(ctx, V_BRACE, $2, @$); }
	| '[' items_opt ']'                     { $$ = build_value_group(ctx, V_BRACKET, $2, @$); }
	| '(' items_opt ')'                     { $$ = build_value_group(ctx, V_PAREN, $2, @$); }
	| body                                  { $$ = build_value_body(ctx, $1, @$); }
	;

tile
	: TILE_OPEN items_opt ')'               { $$ = build_value_group(ctx, V_TILE, $2, @$); }
	;

items_opt
	: %empty                                { $$ = NULL; }
	| items
	;

/* Items inside brackets: separators are optional (windows, shardings and
 * metadata use spaces; lists use commas); the printer keeps which was used. */
items
	: item                                  { $$ = build_value_append(ctx, NULL, $1, false); }
	| items item                            { $$ = build_value_append(ctx, $1, $2, false); }
	| items ',' item                        { $$ = build_value_append(ctx, $1, $3, true); }
	;

item
	: atom
	| group
	| tile
	| vshape                                { $$ = build_value_shape(ctx, $1, @$); }
	| ATTRNAME item                         { $$ = build_value_pair(ctx, $1, $2, @$); }
	| LE                                    { $$ = build_value_atom(ctx, V_PUNCT, P_LE, NULL, @$); }
	| ':'                                   { $$ = build_value_atom(ctx, V_PUNCT, P_COLON, NULL, @$); }
	| '?'                                   { $$ = build_value_atom(ctx, V_PUNCT, P_QUESTION, NULL, @$); }
	| ARROW                                 { $$ = build_value_atom(ctx, V_PUNCT, P_ARROW, NULL, @$); }
	| '*'                                   { $$ = build_value_atom(ctx, V_PUNCT, P_STAR, NULL, @$); }
	| '='                                   { $$ = build_value_atom(ctx, V_PUNCT, P_EQUAL, NULL, @$); }
	| '#'                                   { $$ = build_value_atom(ctx, V_PUNCT, P_HASH, NULL, @$); }
	| ELLIPSIS                              { $$ = build_value_atom(ctx, V_PUNCT, P_ELLIPSIS, NULL, @$); }
	;

/* ---- shapes ---- */

shape
	: array_shape
	| tuple_shape
	| buffer_shape
	;

vshape
	: array_shape
	| buffer_shape
	;

array_shape
	: SHAPE
	| TYPE '[' int_mark dims_opt ']'        { $$ = build_array_shape(ctx, $1, @1, $3, NULL, @$); }
	| TYPE '[' int_mark dims_opt ']' layout { $$ = build_array_shape(ctx, $1, @1, $3, $6, @$); }
	;

tuple_shape
	: '(' shape_mark shapes_opt ')'         { $$ = build_tuple_shape(ctx, $2, @$); }
	;

buffer_shape
	: BUF_OPEN shape ')'                    { $$ = build_buffer_shape(ctx, $2, @$); }
	;

shape_mark
	: %empty                                { $$ = build_shape_mark(ctx); }
	;

shapes_opt
	: %empty
	| shapes
	;

shapes
	: shape                                 { build_shape_push(ctx, $1); }
	| shapes ',' shape                      { build_shape_push(ctx, $3); }
	;

int_mark
	: %empty                                { $$ = build_int_mark(ctx); }
	;

dims_opt
	: %empty
	| dims
	;

dims
	: dim
	| dims ',' dim
	;

dim
	: INT                                   { build_int(ctx, $1, DIM_STATIC); }
	| LE INT                                { build_int(ctx, $2, DIM_BOUNDED); }
	| '?'                                   { build_int(ctx, -1, DIM_UNBOUNDED); }
	;

/* {1,0:T(8,128)(2,1)L(1024)#(u32)*(u32)E(16)S(1)SC(0:4)P(s32[4])M(64)} */
layout
	: layout_open m2m_opt layout_tail '}'   { $$ = build_layout_end(ctx, @$); }
	;

layout_open
	: LAYOUT_OPEN                           { build_layout_begin(ctx, @$); }
	;

m2m_opt
	: %empty
	| m2m
	;

m2m
	: INT                                   { build_layout_m2m(ctx, $1); }
	| m2m ',' INT                           { build_layout_m2m(ctx, $3); }
	;

layout_tail
	: %empty
	| layout_colon layout_attrs
	;

layout_colon
	: ':'                                   { build_layout_colon(ctx, @1); }
	;

layout_attrs
	: %empty
	| layout_attrs layout_attr
	;

layout_attr
	: tiles
	| IDENT '(' INT ')'                     { build_layout_int(ctx, @1, $3, @$); }
	| IDENT sc_groups                       { build_layout_splits_end(ctx, @1, @$); }
	| IDENT '(' dlts ')'                    { build_layout_dlt(ctx, @1, (uint32_t)$3, @$); }
	| IDENT '(' ')'                         { build_layout_dlt(ctx, @1, 0, @$); }
	| IDENT '(' shape ')'                   { build_layout_physical(ctx, @1, $3, @$); }
	| '#' '(' TYPE ')'                      { build_layout_type(ctx, 0, $3, @$); }
	| '*' '(' TYPE ')'                      { build_layout_type(ctx, 1, $3, @$); }
	;

tiles
	: TILE_OPEN tile_dims_opt ')'           { build_layout_tile_end(ctx, @1); }
	| tiles '(' tile_dims_opt ')'           { build_layout_tile_end(ctx, @2); }
	;

tile_dims_opt
	: %empty
	| tile_dims
	;

tile_dims
	: tile_dim
	| tile_dims ',' tile_dim
	;

tile_dim
	: INT                                   { build_layout_tile_dim(ctx, $1, @1); }
	| '*'                                   { build_layout_tile_dim(ctx, -1, span_none()); }
	;

sc_groups
	: sc_group
	| sc_groups sc_group
	;

sc_group
	: '(' INT ':' int_mark sc_ints ')'      { build_layout_split(ctx, $2, $4, @$); }
	;

sc_ints
	: INT                                   { build_int(ctx, $1, 0); }
	| sc_ints ',' INT                       { build_int(ctx, $3, 0); }
	;

/* D(D,C+,S~): dim level types, parsed and dropped as XLA does. */
dlts
	: dlt                                   { $$ = 1; }
	| dlts ',' dlt                          { $$ = $1 + 1; }
	;

dlt
	: IDENT dlt_marks                       { build_layout_dlt_item(ctx, @1); }
	;

dlt_marks
	: %empty
	| dlt_marks '+'
	| dlt_marks '~'
	;

%%

static void hlo_yyerror(HLO_YYLTYPE *loc, yyscan_t scanner, struct build_ctx *ctx, const char *msg)
{
	(void)scanner;
	build_error(ctx, *loc, "%s", msg);
}

/* "syntax error at or near 'TOKEN'" (PostgreSQL's shape), plus what was
 * expected when that is short enough to help. */
static int yyreport_syntax_error(const yypcontext_t *pc, yyscan_t scanner, struct build_ctx *ctx)
{
	yysymbol_kind_t expected[4];
	int n = yypcontext_expected_tokens(pc, expected, 4);
	yysymbol_kind_t got = yypcontext_token(pc);
	const char *names[4];
	int k = n > 0 ? n : 0;
	for (int j = 0; j < k && j < 4; j++)
		names[j] = yysymbol_name(expected[j]);
	scan_syntax_error(ctx, scanner, *yypcontext_location(pc), got == YYSYMBOL_YYEOF,
			  got == YYSYMBOL_LEXERROR, names, k);
	return 0;
}
