/* html.h - `hlolint report`'s page: the memory picture of each module as
 * self-contained HTML (html.c).  Drawing only: figures come from the
 * model (mem.h), findings from the rules. */
#ifndef HLO_HTML_H
#define HLO_HTML_H
#include <stdint.h>
#include <stdio.h>
#include "finding.h"
#include "ir.h"
#include "mem.h"
#include "source.h"

void html_begin(FILE *out, const char *title);
/* One module: the plot of live bytes, the largest buffers, the findings
 * fs[0..n) (sorted by line) and the annotated listing of src. */
void html_module(FILE *out, const char *path, struct source *src, const struct hlo_module *m,
		 const struct mem_model *mm, const struct finding *const *fs, uint32_t n);
void html_end(FILE *out);
#endif
