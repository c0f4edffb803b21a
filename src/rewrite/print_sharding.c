/* print_sharding.c - prints shardings (HloSharding::ToString) and tile
 * assignments in XLA's canonical form: iota dims merged, explicit device
 * lists re-sorted by group.  Named (mesh) shardings are not canonicalised
 * beyond whitespace. */
#include "print_int.h"
#include <stdlib.h>
#include <string.h>

/* ---- Tile assignments (TA) ---- */


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
bool print_tiles_from(struct print_tiles *t, const struct hlo_tile_assignment *a, const int64_t *dims,
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
void print_tiles(FILE *out, const struct print_tiles *t)
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
	/* {op_name=...} for one, {{...}, {...}} for several. */
	bool list = mv->kind == V_BRACE && mv->child && mv->child->kind == V_BRACE;
	struct hlo_metadata mds[16];
	uint32_t nmd = 0;
	if (!list) {
		if (!print_decode_metadata(p, mv->span, &mds[0]))
			return false;
		nmd = 1;
	} else {
		for (const struct hlo_value *g = mv->child; g; g = g->next) {
			if (g->kind != V_BRACE || nmd == 16 || !print_decode_metadata(p, g->span, &mds[nmd]))
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

void print_sharding_attr(struct print_ctx *p, const struct hlo_attr *a)
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
		fprintf(p->out, ", %s=", print_attr_name(a));
		fwrite(text, 1, len, p->out);
	} else {
		print_attr_as_text(p, a, false, false);
	}
	free(text);
}
