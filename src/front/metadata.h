/* metadata.h - metadata={...} and frontend_attributes={...} decoded from
 * their text (metadata.c), and the Python source line of a metadata. */
#ifndef HLO_METADATA_H
#define HLO_METADATA_H
#include "attr.h"

struct hlo_metadata {
	char *op_type, *op_name, *source_file, *deduplicated_name, *scheduling_name;
	int64_t source_line, source_end_line, source_column, source_end_column;
	int64_t stack_frame_id;     /* 1-based into module->stack.frames; 0 none */
	bool preserve_layout;
	struct attr_ints profile_type;
	struct span unknown_key;    /* first key XLA does not know, or none */
};
/* Decodes metadata={op_type="..." op_name="..." source_line=3 ...} from the
 * attribute value span (items separated by spaces and/or commas).  Unknown
 * keys are skipped and the first one recorded in out->unknown_key.  With a
 * NULL arena it only validates: string fields and profile_type stay empty. */
bool metadata_decode(const struct hlo_file *f, struct span value, struct arena *a,
		   struct hlo_metadata *out, struct attr_error *err);
/* Where an instruction came from, as the user's own line: source_file/
 * source_line when present, else a frame of stack_frame_id (innermost
 * first): the first under the source root that is not internal, else the
 * first not internal, else the innermost with a file.  *file is relative to
 * the source root when under it, and unescaped into a.  False when nothing
 * is known. */
bool metadata_source(const struct hlo_module *m, const struct hlo_metadata *md, struct arena *a,
			  const char **file, int64_t *line);
/* The project directory whose files are the user's (--source-root; the git
 * work tree by default, cmd.c).  NULL or "" clears it.  Set before any
 * thread starts. */
void metadata_set_source_root(const char *dir);
/* True for a file metadata_source gave as the user's own line: relative to
 * the source root (or relative as written), or, without a root, any file
 * that is not internal (installed packages, JAX, Flax, Optax, Orbax). */
bool metadata_user_file(const char *file);

struct hlo_frontend_attr {
	char *key;
	size_t key_len;
	char *value;                /* unescaped string, or the raw {...} JSON text */
	size_t len;
	bool json;
	struct span span;           /* key=value */
};
struct hlo_frontend_attrs {
	uint32_t n;
	struct hlo_frontend_attr *items;
};
/* frontend_attributes={key="value", key={json...}} from the value span. */
bool metadata_frontend(const struct hlo_file *f, struct span value, struct arena *a,
			      struct hlo_frontend_attrs *out, struct attr_error *err);
/* The entry for key, or NULL. */
const struct hlo_frontend_attr *metadata_frontend_get(const struct hlo_frontend_attrs *fa, const char *key);
#endif
