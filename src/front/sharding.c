/* sharding.c - decodes shardings (legacy devices=/iota, named meshes with
 * axis references) and replica groups (lists, iota, meshes) from attribute
 * value trees, validating as XLA's parser does; computes tile counts and
 * device positions without expanding iota lists.  No caching, no printing. */
#include "sharding.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* ---- Tile assignments (devices=, iota replica groups, device_ids) ---- */

static bool sharding_dims_bracket(const struct hlo_value *v, struct arena *a, uint32_t *rank, int64_t **dims,
			      uint64_t *product, const char *what, struct attr_error *err)
{
	if (!attr_is(v, V_BRACKET))
		return attr_fail(err, v ? v->span : span_none(), "expected [dims] for %s", what);
	*rank = value_count(v);
	*dims = arena_array(a, *rank, sizeof **dims);
	*product = 1;
	uint32_t k = 0;
	for (const struct hlo_value *c = v->child; c; c = c->next) {
		if (c->kind != V_INT)
			return attr_fail(err, c->span, "expected an integer in %s", what);
		if (!attr_need_comma(c, v->child, err))
			return false;
		if (c->u.i <= 0)
			return attr_fail(err, c->span, "%s must be positive, got %lld", what, (long long)c->u.i);
		if (!attr_mul(product, c->u.i))
			return attr_fail(err, v->span, "%s describe too many devices", what);
		(*dims)[k++] = c->u.i;
	}
	return true;
}

/* T(perm): must be a permutation of 0..rank-1. */
static bool sharding_perm(const struct hlo_value *t, struct arena *a, uint32_t rank, int64_t **perm,
		      struct attr_error *err)
{
	uint32_t n = value_count(t), k = 0;
	if (n != rank)
		return attr_fail(err, t->span, "transpose T(...) has %u entries for %u reshape dimensions", n, rank);
	*perm = arena_array(a, n, sizeof **perm);
	bool *seen = arena_array(a, n + 1, sizeof *seen);
	bool identity = true;
	for (const struct hlo_value *c = t->child; c; c = c->next, k++) {
		if (c->kind != V_INT || c->u.i < 0 || c->u.i >= (int64_t)n || seen[c->u.i])
			return attr_fail(err, t->span, "transpose T(...) must be a permutation of 0..%u", n - 1);
		seen[c->u.i] = true;
		(*perm)[k] = c->u.i;
		identity &= c->u.i == (int64_t)k;
	}
	if (identity)
		*perm = NULL;
	return true;
}

/* Reads "[reshape]" and an optional T(perm) starting at *cur; advances it. */
static bool sharding_iota(const struct hlo_value **cur, struct arena *a, struct hlo_tile_assignment *t,
		      struct attr_error *err)
{
	uint64_t product;
	const struct hlo_value *v = *cur;
	if (!sharding_dims_bracket(v, a, &t->iota_rank, &t->iota_dims, &product, "iota reshape dims", err))
		return false;
	*cur = v->next;
	t->iota_perm = NULL;
	if (*cur && (*cur)->kind == V_TILE && !(*cur)->comma_before) {
		if (!sharding_perm(*cur, a, t->iota_rank, &t->iota_perm, err))
			return false;
		*cur = (*cur)->next;
	}
	if (product != t->count)
		return attr_fail(err, v->span, "iota reshape dims hold %llu devices but the tile dims need %llu",
				 (unsigned long long)product, (unsigned long long)t->count);
	return true;
}

int64_t sharding_tile_device(const struct hlo_tile_assignment *t, uint64_t index)
{
	if (index >= t->count)
		return -1;
	if (t->devices)
		return t->devices[index];
	if (!t->iota_perm)
		return (int64_t)index;
	/* index is row-major over the transposed dims iota_dims[perm[k]];
	 * coordinate k lands on original dimension perm[k]. */
	uint64_t rest = index;
	int64_t value = 0;
	for (uint32_t k = t->iota_rank; k-- > 0;) {
		uint32_t d = (uint32_t)t->iota_perm[k];
		uint64_t extent = (uint64_t)t->iota_dims[d];
		uint64_t coord = rest % extent;
		rest /= extent;
		uint64_t stride = 1;
		for (uint32_t j = d + 1; j < t->iota_rank; j++)
			stride *= (uint64_t)t->iota_dims[j];
		value += (int64_t)(coord * stride);
	}
	return value;
}

/* ---- Meshes and axis references (named shardings, mesh replica groups) ---- */

int64_t sharding_mesh_size(const struct hlo_mesh *m)
{
	if (m->maximal)
		return 1;
	int64_t n = 1;
	for (uint32_t k = 0; k < m->naxes; k++)
		n *= m->axes[k].size;
	return n;
}

static int sharding_axis_cmp(const void *x, const void *y)
{
	const struct hlo_mesh_axis *a = *(struct hlo_mesh_axis *const *)x, *b = *(struct hlo_mesh_axis *const *)y;
	size_t n = a->len < b->len ? a->len : b->len;
	int c = memcmp(a->name, b->name, n);
	return c ? c : a->len < b->len ? -1 : a->len > b->len;
}

/* mesh['a'=2,'b'=4] or maximal_mesh[device_id=N], at *cur (an IDENT). */
static bool sharding_mesh(const struct hlo_file *f, const struct hlo_value **cur, struct arena *a,
		      struct hlo_mesh *m, struct attr_error *err)
{
	const struct hlo_value *id = *cur, *br = id->next;
	memset(m, 0, sizeof *m);
	if (!attr_is(br, V_BRACKET) || br->comma_before)
		return attr_fail(err, id->span, "expected '[' after '%s'", id->key->str);
	*cur = br->next;
	if (!strcmp(id->key->str, "maximal_mesh")) {
		const struct hlo_value *p = br->child;
		m->maximal = true;
		if (!attr_is_pair(p, "device_id") || p->next || !attr_is(p->child, V_INT))
			return attr_fail(err, br->span, "maximal_mesh expects [device_id=N]");
		m->device = p->child->u.i;
		return true;
	}
	uint32_t n = 0;
	for (const struct hlo_value *c = br->child; c; c = c->next)
		n += c->kind == V_STRING;
	m->axes = arena_array(a, n, sizeof *m->axes);
	uint64_t total = 1;
	for (const struct hlo_value *c = br->child; c;) {
		if (c->kind != V_STRING)
			return attr_fail(err, c->span, "expected a quoted axis name in mesh[...], got '%.*s'",
					 attr_excerpt_len(c->span), attr_text(f, c->span));
		if (m->naxes && !c->comma_before)
			return attr_fail(err, c->span, "expected ',' between mesh axes");
		const struct hlo_value *eq = c->next, *size = eq ? eq->next : NULL;
		if (!attr_is_punct(eq, P_EQUAL) || !attr_is(size, V_INT))
			return attr_fail(err, c->span, "expected 'name'=size in mesh[...]");
		if (size->u.i <= 0)
			return attr_fail(err, size->span, "mesh axis size must be positive, got %lld",
					 (long long)size->u.i);
		struct hlo_mesh_axis *ax = &m->axes[m->naxes];
		ax->name = value_string(f, c, a, &ax->len);
		if (!ax->name)
			return attr_fail(err, c->span, "invalid escape in axis name");
		ax->span = c->span;
		ax->size = size->u.i;
		if (!attr_mul(&total, ax->size))
			return attr_fail(err, br->span, "mesh has too many devices");
		m->naxes++;
		c = size->next;
	}
	/* Sorted by name for lookups (meshes can be long: no pairwise scans). */
	m->by_name = arena_array(a, m->naxes, sizeof *m->by_name);
	for (uint32_t k = 0; k < m->naxes; k++)
		m->by_name[k] = &m->axes[k];
	if (m->naxes)
		qsort(m->by_name, m->naxes, sizeof *m->by_name, sharding_axis_cmp);
	for (uint32_t k = 1; k < m->naxes; k++)
		if (!sharding_axis_cmp(&m->by_name[k - 1], &m->by_name[k])) {
			const struct hlo_mesh_axis *dup = m->by_name[k - 1] > m->by_name[k] ? m->by_name[k - 1]
											       : m->by_name[k];
			return attr_fail(err, dup->span, "duplicate mesh axis '%s'", dup->name);
		}
	return true;
}

/* The axis called name (len bytes), or NULL. */
static const struct hlo_mesh_axis *sharding_mesh_find(const struct hlo_mesh *m, const char *name, size_t len)
{
	struct hlo_mesh_axis key = { .name = (char *)name, .len = len };
	const struct hlo_mesh_axis *kp = &key;
	struct hlo_mesh_axis **hit = m->naxes ? bsearch(&kp, m->by_name, m->naxes, sizeof *m->by_name, sharding_axis_cmp)
					     : NULL;
	return hit ? *hit : NULL;
}

/* The value v of device_ids=(0,2,1,3) or device_ids=([4,2]T(1,0)); where
 * locates an error about v's absence. */
static bool sharding_device_ids(const struct hlo_value *v, struct span where, struct arena *a, struct hlo_mesh *m,
			    struct attr_error *err)
{
	struct hlo_tile_assignment *t = &m->device_ids;
	uint64_t want = (uint64_t)sharding_mesh_size(m);
	if (!attr_is(v, V_PAREN))
		return attr_fail(err, where, "expected device_ids=(...)");
	m->has_device_ids = true;
	t->rank = 1;
	t->dims = arena_alloc(a, sizeof *t->dims);
	if (attr_is(v->child, V_BRACKET)) {
		const struct hlo_value *cur = v->child;
		uint64_t product = 1;
		for (const struct hlo_value *c = cur->child; c; c = c->next)
			if (c->kind == V_INT && c->u.i > 0)
				attr_mul(&product, c->u.i);
		t->count = product;
		if (!sharding_iota(&cur, a, t, err))
			return false;
		if (cur)
			return attr_fail(err, cur->span, "unexpected item in device_ids");
	} else {
		uint32_t n = value_count(v), k = 0;
		t->count = n;
		t->devices = arena_array(a, n, sizeof *t->devices);
		for (const struct hlo_value *c = v->child; c; c = c->next) {
			if (c->kind != V_INT)
				return attr_fail(err, c->span, "expected a device id");
			if (!attr_need_comma(c, v->child, err))
				return false;
			t->devices[k++] = c->u.i;
		}
	}
	t->dims[0] = (int64_t)t->count;
	if (t->count != want)
		return attr_fail(err, v->span, "device_ids has %llu entries but the mesh has %llu devices",
				 (unsigned long long)t->count, (unsigned long long)want);
	return true;
}

/* One axis reference 'x' or 'x':(pre)size at *cur; advances it. */
static bool sharding_axis_ref(const struct hlo_file *f, const struct hlo_value **cur, struct arena *a,
			  const struct hlo_mesh *m, struct hlo_axis_ref *ref, struct attr_error *err)
{
	const struct hlo_value *s = *cur;
	size_t len;
	struct arena_mark mk = arena_mark(a);
	char *name = value_string(f, s, a, &len);
	if (!name)
		return attr_fail(err, s->span, "invalid escape in axis name");
	const struct hlo_mesh_axis *hit = sharding_mesh_find(m, name, len);
	if (hit) {
		ref->axis = (uint32_t)(hit - m->axes);
	} else {
		bool digits = len > 0 && len < 10;
		for (size_t k = 0; k < len; k++)
			digits &= isdigit((unsigned char)name[k]) != 0;
		if (!digits) {
			attr_fail(err, s->span, "'%s' is not a valid axis name or index", name);
			arena_release(a, mk);
			return false;
		}
		long idx = strtol(name, NULL, 10);
		if (idx >= (long)m->naxes) {
			attr_fail(err, s->span, "axis index %ld is out of bounds for mesh of %u axes", idx, m->naxes);
			arena_release(a, mk);
			return false;
		}
		ref->axis = (uint32_t)idx;
	}
	arena_release(a, mk);
	int64_t axis_size = m->axes[ref->axis].size;
	ref->pre_size = 1;
	ref->size = axis_size;
	ref->sub = false;
	*cur = s->next;
	const struct hlo_value *colon = *cur;
	if (attr_is_punct(colon, P_COLON) && !colon->comma_before) {
		const struct hlo_value *pre = colon->next, *size = pre ? pre->next : NULL;
		if (!attr_is(pre, V_PAREN) || value_count(pre) != 1 || !attr_is(pre->child, V_INT) ||
		    !attr_is(size, V_INT) || size->comma_before)
			return attr_fail(err, colon->span, "expected a sub-axis ':(pre_size)size'");
		ref->sub = true;
		ref->pre_size = pre->child->u.i;
		ref->size = size->u.i;
		if (ref->pre_size < 1 || ref->size < 1 || axis_size % ref->pre_size ||
		    (axis_size / ref->pre_size) % ref->size)
			return attr_fail(err, s->span, "sub-axis :(%lld)%lld does not divide axis of size %lld",
					 (long long)ref->pre_size, (long long)ref->size, (long long)axis_size);
		*cur = size->next;
	}
	return true;
}

/* {'a', 'b':(2)2} with an optional trailing '?' when allow_open. */
static bool sharding_axis_list(const struct hlo_file *f, const struct hlo_value *v, struct arena *a,
			   const struct hlo_mesh *m, bool allow_open, struct hlo_axis_list *out,
			   struct attr_error *err)
{
	memset(out, 0, sizeof *out);
	if (!attr_is(v, V_BRACE))
		return attr_fail(err, v ? v->span : span_none(), "expected a list of axes like {'x'}");
	uint32_t n = 0;
	for (const struct hlo_value *c = v->child; c; c = c->next)
		n += c->kind == V_STRING;
	out->refs = arena_array(a, n, sizeof *out->refs);
	for (const struct hlo_value *c = v->child; c;) {
		if (c != v->child && !c->comma_before)
			return attr_fail(err, c->span, "expected ',' between axes");
		if (attr_is_punct(c, P_QUESTION) && allow_open && !c->next) {
			out->open = true;
			break;
		}
		if (c->kind != V_STRING)
			return attr_fail(err, c->span, "expected a quoted axis name");
		if (!sharding_axis_ref(f, &c, a, m, &out->refs[out->n++], err))
			return false;
	}
	return true;
}

/* ---- Shardings ---- */

static bool sharding_single(const struct hlo_file *f, const struct hlo_value *brace, struct arena *a,
				 struct hlo_sharding *s, struct attr_error *err);

static bool sharding_named(const struct hlo_file *f, const struct hlo_value *brace, struct arena *a,
				struct hlo_sharding *s, struct attr_error *err)
{
	const struct hlo_value *cur = brace->child;
	s->kind = SHARDING_NAMED;
	if (!sharding_mesh(f, &cur, a, &s->mesh, err))
		return false;
	bool seen_dims = false;
	while (cur) {
		const struct hlo_value *c = cur;
		cur = c->next;
		if (attr_is_pair(c, "metadata")) {
			s->has_metadata = true;
			continue;
		}
		if (s->mesh.maximal)
			return attr_fail(err, c->span, "only metadata may follow maximal_mesh[...]");
		if (attr_is_pair(c, "device_ids")) {
			if (s->mesh.has_device_ids || seen_dims || s->whole != NAMED_DIMS)
				return attr_fail(err, c->span, "device_ids must directly follow the mesh");
			if (!sharding_device_ids(c->child, c->span, a, &s->mesh, err))
				return false;
		} else if (c->kind == V_BRACKET) {
			if (seen_dims || s->whole != NAMED_DIMS)
				return attr_fail(err, c->span, "dimension shardings given twice");
			seen_dims = true;
			s->ndims = value_count(c);
			s->dims = arena_array(a, s->ndims, sizeof *s->dims);
			uint32_t k = 0;
			for (const struct hlo_value *d = c->child; d; d = d->next) {
				if (!attr_need_comma(d, c->child, err) ||
				    !sharding_axis_list(f, d, a, &s->mesh, true, &s->dims[k++], err))
					return false;
			}
		} else if (attr_is_ident(c, "replicated") || attr_is_ident(c, "manual") ||
			   attr_is_ident(c, "unreduced")) {
			if (seen_dims || s->whole != NAMED_DIMS)
				return attr_fail(err, c->span, "'%s' cannot follow dimension shardings", c->key->str);
			s->whole = c->key->str[0] == 'r' ? NAMED_REPLICATED
				   : c->key->str[0] == 'm' ? NAMED_MANUAL : NAMED_UNREDUCED;
			if (s->whole == NAMED_UNREDUCED && attr_is(cur, V_BRACE) && !cur->comma_before) {
				if (!sharding_axis_list(f, cur, a, &s->mesh, false, &s->unreduced, err))
					return false;
				cur = cur->next;
			}
		} else if (attr_is_pair(c, "unreduced")) {
			const struct hlo_value *list = c->child;
			if (attr_is(list, V_IDENT)) {
				static const char *const ops[] = { "sum", "max", "min", NULL };
				int op = attr_enum(list, ops, false, "unreduced reduction", err);
				if (op < 0)
					return false;
				s->unreduced_op = op + 1;
				list = attr_is(cur, V_BRACE) && !cur->comma_before ? cur : NULL;
				if (list)
					cur = cur->next;
			}
			if (list && !sharding_axis_list(f, list, a, &s->mesh, false, &s->unreduced, err))
				return false;
		} else if (attr_is_pair(c, "replicated")) {
			if (!sharding_axis_list(f, c->child, a, &s->mesh, false, &s->replicated, err))
				return false;
		} else if (attr_is_pair(c, "manual")) {
			if (!sharding_axis_list(f, c->child, a, &s->mesh, false, &s->manual, err))
				return false;
		} else {
			return attr_fail(err, c->span, "unexpected '%.*s' in a named sharding",
					 attr_excerpt_len(c->span), attr_text(f, c->span));
		}
	}
	return true;
}

static bool sharding_legacy(const struct hlo_file *f, const struct hlo_value *brace, struct arena *a,
				 struct hlo_sharding *s, struct attr_error *err)
{
	int kinds = 0;
	bool maximal = false, has_device = false, has_tiles = false, replicate_last = false;
	const struct hlo_value *tiles_v = NULL, *last_dims = NULL;
	s->kind = SHARDING_TILED;
	for (const struct hlo_value *c = brace->child; c;) {
		const struct hlo_value *next = c->next;
		if (c->kind == V_IDENT && c->key) {
			const char *k = c->key->str;
			if (!strcmp(k, "replicated") || !strcmp(k, "manual") || !strcmp(k, "maximal") ||
			    !strcmp(k, "unknown") || !strcmp(k, "unreduced")) {
				if (kinds++)
					return attr_fail(err, c->span, "a sharding can be only one of replicated, manual, maximal, unknown or unreduced");
				s->kind = k[0] == 'r' ? SHARDING_REPLICATED : k[0] == 'm' && k[1] == 'a' && k[2] == 'n'
					  ? SHARDING_MANUAL : k[0] == 'm' ? SHARDING_MAXIMAL
					  : !strcmp(k, "unknown") ? SHARDING_UNKNOWN : SHARDING_UNREDUCED;
				maximal = s->kind == SHARDING_MAXIMAL;
			} else if (!strcmp(k, "last_tile_dim_replicate")) {
				replicate_last = true;
			} else if (!strcmp(k, "shard_as") || !strcmp(k, "shard_like")) {
				if (!attr_is(next, V_INT) || next->comma_before)
					return attr_fail(err, c->span, "expected a shard group id after '%s'", k);
				if (s->group != SHARD_GROUP_NONE)
					return attr_fail(err, c->span, "more than one shard group");
				s->group = k[6] == 'a' ? SHARD_GROUP_AS : SHARD_GROUP_LIKE;
				s->group_id = next->u.i;
				next = next->next;
			} else {
				return attr_fail(err, c->span, "unexpected '%s' in a sharding", k);
			}
		} else if (attr_is_pair(c, "device")) {
			if (has_device)
				return attr_fail(err, c->span, "device= given twice");
			if (!attr_int(c->child, &s->device, err))
				return false;
			has_device = true;
		} else if (attr_is_pair(c, "devices")) {
			if (has_tiles)
				return attr_fail(err, c->span, "devices= given twice");
			has_tiles = true;
			tiles_v = c;
			struct hlo_tile_assignment *t = &s->tiles;
			if (!sharding_dims_bracket(c->child, a, &t->rank, &t->dims, &t->count, "tile assignment dims", err))
				return false;
			if (t->rank == 0)
				return attr_fail(err, c->span, "tile assignment needs at least one dimension");
			if (attr_is_punct(next, P_LE)) {
				next = next->next;
				if (!sharding_iota(&next, a, t, err))
					return false;
			} else {
				uint32_t n = 0;
				for (const struct hlo_value *d = next; d && d->kind == V_INT && (d == next || d->comma_before);
				     d = d->next)
					n++;
				t->devices = arena_array(a, n, sizeof *t->devices);
				for (uint32_t k = 0; k < n; k++, next = next->next)
					t->devices[k] = next->u.i;
				if (n <= 1)
					return attr_fail(err, c->span, "non-maximal shardings must have more than one device assigned");
				if ((uint64_t)n != t->count)
					return attr_fail(err, c->span, "tile assignment dims hold %llu devices but %u are listed",
							 (unsigned long long)t->count, n);
			}
		} else if (attr_is_pair(c, "last_tile_dims")) {
			if (!attr_is(c->child, V_BRACE))
				return attr_fail(err, c->span, "expected last_tile_dims={...}");
			last_dims = c;
			s->nsubgroups = value_count(c->child);
			s->subgroups = arena_array(a, s->nsubgroups, sizeof *s->subgroups);
			uint32_t k = 0;
			for (const struct hlo_value *d = c->child->child; d; d = d->next) {
				static const char *const types[] = { "replicated", "manual", "unreduced", "maximal", NULL };
				int t = attr_enum(d, types, false, "subgroup type", err);
				if (t < 0 || !attr_need_comma(d, c->child->child, err))
					return false;
				s->subgroups[k++] = (enum sharding_subgroup)t;
			}
		} else if (attr_is_pair(c, "metadata")) {
			s->has_metadata = true;
		} else {
			return attr_fail(err, c->span, "unexpected '%.*s' in a sharding", attr_excerpt_len(c->span),
					 attr_text(f, c->span));
		}
		c = next;
	}
	if (replicate_last) {
		if (last_dims)
			return attr_fail(err, last_dims->span, "last_tile_dims cannot be combined with last_tile_dim_replicate");
		s->nsubgroups = 1;
		s->subgroups = arena_alloc(a, sizeof *s->subgroups);
		s->subgroups[0] = SUBGROUP_REPLICATED;
	}
	if (kinds) {
		if (maximal) {
			if (!has_device || has_tiles)
				return attr_fail(err, brace->span, "maximal shardings should have exactly one device assigned");
		} else if (has_device || has_tiles) {
			static const char *const names[] = { "replicated", "manual", "maximal", "unknown", "unreduced" };
			return attr_fail(err, brace->span, "%s shardings should not have any devices assigned",
					 names[s->kind]);
		}
		if (s->nsubgroups)
			return attr_fail(err, brace->span, "subgroup dimensions need a tile assignment (devices=...)");
		return true;
	}
	if (!has_tiles)
		return attr_fail(err, brace->span, "non-maximal shardings must have a tile assignment list including dimensions");
	if (has_device)
		return attr_fail(err, brace->span, "device= is only valid for maximal shardings");
	if (s->nsubgroups > s->tiles.rank)
		return attr_fail(err, tiles_v->span, "tile assignment has %u dimensions for %u subgroup dimensions",
				 s->tiles.rank, s->nsubgroups);
	return true;
}

static bool sharding_single(const struct hlo_file *f, const struct hlo_value *brace, struct arena *a,
				 struct hlo_sharding *s, struct attr_error *err)
{
	memset(s, 0, sizeof *s);
	s->span = brace->span;
	const struct hlo_value *first = brace->child;
	if (first && (attr_is_ident(first, "mesh") || attr_is_ident(first, "maximal_mesh")))
		return sharding_named(f, brace, a, s, err);
	return sharding_legacy(f, brace, a, s, err);
}

bool sharding_decode(const struct hlo_file *f, const struct hlo_value *v, struct arena *a,
		     struct hlo_sharding *out, struct attr_error *err)
{
	memset(out, 0, sizeof *out);
	if (!attr_is(v, V_BRACE))
		return attr_fail(err, v ? v->span : span_none(), "expected '{' to start a sharding");
	out->span = v->span;
	if (!v->child) {  /* {}: a tuple sharding with no elements */
		out->kind = SHARDING_TUPLE;
		return true;
	}
	if (v->child->kind != V_BRACE)
		return sharding_single(f, v, a, out, err);
	out->kind = SHARDING_TUPLE;
	out->nelems = value_count(v);
	out->elems = arena_array(a, out->nelems, sizeof *out->elems);
	uint32_t k = 0;
	for (const struct hlo_value *c = v->child; c; c = c->next) {
		if (c->kind != V_BRACE)
			return attr_fail(err, c->span, "expected '{' to start a tuple element sharding");
		if (!attr_need_comma(c, v->child, err))
			return false;
		if (c->child && c->child->kind == V_BRACE)
			return attr_fail(err, c->span, "tuple shardings cannot be nested");
		if (!sharding_single(f, c, a, &out->elems[k++], err))
			return false;
	}
	return true;
}

bool sharding_of(struct hlo_file *f, const struct hlo_instr *i, struct arena *a,
		 struct hlo_sharding *out, struct attr_error *err)
{
	const struct hlo_attr *at = ir_attr(i, ATTR_SHARDING);
	if (err)
		err->msg[0] = 0;
	if (!at)
		return false;
	struct hlo_value *v = attr_parse(f, at, a, err);
	return v && sharding_decode(f, v, a, out, err);
}

bool sharding_tiled_or_named(const struct hlo_sharding *s)
{
	if (s->kind == SHARDING_TUPLE) {
		for (uint32_t k = 0; k < s->nelems; k++)
			if (sharding_tiled_or_named(&s->elems[k]))
				return true;
		return false;
	}
	return s->kind == SHARDING_TILED || s->kind == SHARDING_NAMED;
}

uint32_t sharding_data_rank(const struct hlo_sharding *s)
{
	if (s->kind == SHARDING_TILED)
		return s->tiles.rank - s->nsubgroups;
	if (s->kind == SHARDING_NAMED)
		return s->ndims;
	return 0;
}

int64_t sharding_tile_count(const struct hlo_sharding *s, uint32_t dim)
{
	if (s->kind == SHARDING_TILED)
		return dim < sharding_data_rank(s) ? s->tiles.dims[dim] : 1;
	if (s->kind == SHARDING_NAMED && dim < s->ndims && !s->mesh.maximal) {
		int64_t n = 1;
		for (uint32_t k = 0; k < s->dims[dim].n; k++)
			n *= s->dims[dim].refs[k].size;
		return n;
	}
	return 1;
}

int64_t sharding_num_devices(const struct hlo_sharding *s)
{
	switch (s->kind) {
	case SHARDING_TILED:
		return (int64_t)s->tiles.count;
	case SHARDING_MAXIMAL:
		return 1;
	case SHARDING_NAMED:
		return sharding_mesh_size(&s->mesh);
	case SHARDING_TUPLE: {
		int64_t n = 0;
		for (uint32_t k = 0; k < s->nelems; k++) {
			int64_t e = sharding_num_devices(&s->elems[k]);
			if (e > n)
				n = e;
		}
		return n;
	}
	default:
		return 0;
	}
}

/* ---- Replica groups ---- */

bool sharding_replica_groups(const struct hlo_file *f, const struct hlo_value *v, struct arena *a,
			     struct hlo_replica_groups *out, struct attr_error *err)
{
	memset(out, 0, sizeof *out);
	out->uniform = true;
	/* A mesh with a non-iota device order prints as "mesh[...],
	 * device_ids=(...) {axes}": two comma-separated values, the pair holding
	 * the device order and the axis list. */
	const struct hlo_value *ids = NULL;
	if (attr_is(v, V_SEQ) && attr_is(v->child, V_SEQ) && attr_is_pair(v->child->next, "device_ids")) {
		ids = v->child->next;
		if (ids->next)
			return attr_fail(err, ids->next->span, "unexpected value after replica groups");
		v = v->child;
	}
	if (attr_is(v, V_BRACE)) {
		out->kind = RG_LIST;
		if (!attr_int_lists(v, a, &out->list, err))
			return false;
		out->ngroups = out->list.n;
		out->group_size = out->list.n ? out->list.lists[0].n : 0;
		for (uint32_t k = 0; k < out->list.n; k++)
			out->uniform &= out->list.lists[k].n == out->group_size;
		return true;
	}
	if (!attr_is(v, V_SEQ) || !v->child)
		return attr_fail(err, v ? v->span : span_none(),
				 "expected replica groups as {{...}}, [G,S]<=[N] or mesh[...] {...}");
	const struct hlo_value *cur = v->child;
	if (cur->kind == V_BRACKET) {
		struct hlo_tile_assignment *t = &out->iota;
		out->kind = RG_IOTA;
		if (!sharding_dims_bracket(cur, a, &t->rank, &t->dims, &t->count, "replica group dims", err))
			return false;
		if (t->rank != 2)
			return attr_fail(err, cur->span, "iota replica groups need exactly 2 dims [groups,size], got %u",
					 t->rank);
		out->ngroups = (uint64_t)t->dims[0];
		out->group_size = (uint64_t)t->dims[1];
		cur = cur->next;
		if (!attr_is_punct(cur, P_LE))
			return attr_fail(err, v->span, "expected '<=' after the replica group dims");
		cur = cur->next;
		if (!sharding_iota(&cur, a, t, err))
			return false;
	} else if (attr_is_ident(cur, "mesh") || attr_is_ident(cur, "maximal_mesh")) {
		out->kind = RG_MESH;
		if (!sharding_mesh(f, &cur, a, &out->mesh, err))
			return false;
		if (ids) {
			const struct hlo_value *val = ids->child;
			const struct hlo_value *paren = attr_is(val, V_SEQ) ? val->child : val;
			if (cur || out->mesh.maximal)
				return attr_fail(err, ids->span, "device_ids must directly follow the mesh");
			if (!sharding_device_ids(paren, ids->span, a, &out->mesh, err))
				return false;
			cur = paren ? paren->next : NULL;
		}
		if (!attr_is(cur, V_BRACE))
			return attr_fail(err, v->span, "expected an axis list {...} after the mesh");
		if (out->mesh.maximal) {
			if (cur->child)
				return attr_fail(err, cur->span, "a maximal mesh has no axes");
			out->ngroups = out->group_size = 1;
		} else {
			if (!sharding_axis_list(f, cur, a, &out->mesh, false, &out->axes, err))
				return false;
			uint64_t size = 1;
			for (uint32_t k = 0; k < out->axes.n; k++)
				attr_mul(&size, out->axes.refs[k].size);
			out->group_size = size;
			out->ngroups = (uint64_t)sharding_mesh_size(&out->mesh) / size;
		}
		cur = cur->next;
	} else {
		return attr_fail(err, cur->span, "expected replica groups as {{...}}, [G,S]<=[N] or mesh[...] {...}");
	}
	if (cur)
		return attr_fail(err, cur->span, "unexpected '%.*s' after replica groups", attr_excerpt_len(cur->span),
				 attr_text(f, cur->span));
	return true;
}

bool sharding_domain(const struct hlo_file *f, const struct hlo_value *v, struct arena *a,
		     struct attr_error *err)
{
	const struct hlo_value *kind = NULL, *entry = NULL, *exit = NULL;
	if (!attr_is(v, V_BRACE))
		return attr_fail(err, v ? v->span : span_none(), "expected domain={kind=\"sharding\", entry={...}, exit={...}}");
	for (const struct hlo_value *c = v->child; c; c = c->next) {
		const struct hlo_value **slot = attr_is_pair(c, "kind") ? &kind : attr_is_pair(c, "entry") ? &entry
						: attr_is_pair(c, "exit") ? &exit : NULL;
		if (!slot)
			return attr_fail(err, c->span, "unexpected '%.*s' in domain (expected kind, entry, exit)",
					 attr_excerpt_len(c->span), attr_text(f, c->span));
		if (*slot)
			return attr_fail(err, c->span, "domain field given twice");
		*slot = c;
	}
	if (!kind || !entry || !exit)
		return attr_fail(err, v->span, "domain needs kind=, entry= and exit=");
	char *k;
	if (!attr_string(f, kind->child, a, &k, NULL, err))
		return false;
	if (strcmp(k, "sharding"))
		return attr_fail(err, kind->child->span, "unsupported domain kind \"%s\" (only \"sharding\")", k);
	struct hlo_sharding s;
	return sharding_decode(f, entry->child, a, &s, err) && sharding_decode(f, exit->child, a, &s, err);
}
