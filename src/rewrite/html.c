/* html.c - the memory picture of a module as one self-contained HTML page
 * (no script, no fetch): live device bytes over the flattened program
 * order stacked by kind with the capacity and the peak, the largest
 * buffers' live ranges on the same axis (as XProf's memory viewer draws
 * them), the findings linking into an annotated listing.  It draws what
 * the model (mem.h) and the rules found; it computes no figure itself. */
#include "html.h"
#include <stdlib.h>
#include <string.h>
#include "size.h"

#define HTML_W 960          /* plot width in px (the x axis is program order) */
#define HTML_H 280          /* plot height */
#define HTML_LEFT 70        /* room for the y labels */
#define HTML_PAD 16         /* room above the plot for the top label and the peak */
#define HTML_TOP_BUFS 12    /* buffers drawn under the plot */
#define HTML_LISTING_MAX (4u << 20)   /* larger sources are listed around the findings only */

enum html_class { HC_ARGS, HC_OUTS, HC_TEMP, HC_HOST, HC_COUNT };
static const char *const html_class_name[HC_COUNT] = { "arguments", "outputs", "temporaries", "host (S(5))" };
static const char *const html_class_color[HC_COUNT] = { "#4e79a7", "#59a14f", "#f28e2b", "#9c9c9c" };

static void html_text(FILE *out, const char *s, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		char c = s[k];
		if (c == '<')
			fputs("&lt;", out);
		else if (c == '>')
			fputs("&gt;", out);
		else if (c == '&')
			fputs("&amp;", out);
		else if (c == '"')
			fputs("&quot;", out);
		else
			fputc(c, out);
	}
}

static void html_str(FILE *out, const char *s)
{
	html_text(out, s, strlen(s));
}

static enum html_class html_class_of(const struct mem_buffer *b)
{
	if (b->memory_space == IR_SPACE_PINNED_HOST)
		return HC_HOST;
	if (b->kind == MEM_ARGUMENT)
		return HC_ARGS;
	if (b->kind == MEM_OUTPUT)
		return HC_OUTS;
	return HC_TEMP;
}

/* ---- The plot ---- */

/* Live bytes per class in each of ncol columns of the timeline (the most
 * any step of the column holds, so the peak survives the squeeze). */
static uint64_t *html_columns(const struct mem_model *mm, uint32_t ncol)
{
	/* Sizes saturate (size.h): a dump of 4 EiB arrays draws, never wraps. */
	uint32_t n = mm->nsteps ? mm->nsteps : 1;
	uint64_t *plus = xcalloc((size_t)(n + 1) * HC_COUNT, sizeof *plus);
	uint64_t *minus = xcalloc((size_t)(n + 1) * HC_COUNT, sizeof *minus);
	for (uint32_t k = 0; k < mm->nbuffers; k++) {
		const struct mem_buffer *b = &mm->buffers[k];
		if (b->flags & MEM_BUF_MERGED || !b->bytes)
			continue;
		uint32_t from = b->gdef < n ? b->gdef : n - 1, to = b->glast < n ? b->glast : n - 1;
		if (b->flags & MEM_BUF_GLOBAL) {
			from = 0;
			to = n - 1;
		}
		enum html_class c = html_class_of(b);
		size_t i = (size_t)from * HC_COUNT + c, j = (size_t)(to + 1) * HC_COUNT + c;
		plus[i] = size_add(plus[i], b->bytes);
		minus[j] = size_add(minus[j], b->bytes);
	}
	uint64_t *col = xcalloc((size_t)ncol * HC_COUNT, sizeof *col);
	uint64_t live[HC_COUNT] = { 0 };
	for (uint32_t t = 0; t < n; t++) {
		uint32_t x = (uint32_t)((uint64_t)t * ncol / n);
		uint64_t sum = 0, best = 0;
		for (int c = 0; c < HC_COUNT; c++) {
			size_t i = (size_t)t * HC_COUNT + c;
			live[c] = size_sub(size_add(live[c], plus[i]), minus[i]);
			if (c != HC_HOST)
				sum = size_add(sum, live[c]);
		}
		for (int c = 0; c < HC_HOST; c++)
			best = size_add(best, col[(size_t)x * HC_COUNT + c]);
		if (sum >= best)   /* keep the fullest step of the column, all classes together */
			for (int c = 0; c < HC_COUNT; c++)
				col[(size_t)x * HC_COUNT + c] = live[c];
	}
	free(plus);
	free(minus);
	return col;
}

static double html_y(uint64_t v, uint64_t top)
{
	return HTML_PAD + HTML_H - (double)v * HTML_H / (double)top;
}

static void html_axes(FILE *out, uint64_t top)
{
	char h[24];
	for (int k = 0; k <= 4; k++) {
		uint64_t v = top / 4 * (uint64_t)k;
		double y = html_y(v, top);
		fprintf(out, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>"
			     "<text x=\"%d\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\">%s</text>\n",
			HTML_LEFT, y, HTML_LEFT + HTML_W, y, HTML_LEFT - 4, y + 4, size_human(v, h));
	}
	fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">program order "
		     "(the schedule, callees inlined)</text>\n", HTML_LEFT + HTML_W / 2, HTML_PAD + HTML_H + 16);
}

static void html_areas(FILE *out, const uint64_t *col, uint32_t ncol, uint64_t top)
{
	uint64_t *base = xcalloc(ncol, sizeof *base);
	for (int c = 0; c < HC_COUNT; c++) {
		fprintf(out, "<path fill=\"%s\" fill-opacity=\"0.85\" d=\"M%d,%d", html_class_color[c], HTML_LEFT,
			HTML_PAD + HTML_H);
		for (uint32_t x = 0; x < ncol; x++)
			fprintf(out, " L%.1f,%.1f", HTML_LEFT + x + 0.0,
				html_y(size_add(base[x], col[(size_t)x * HC_COUNT + c]), top));
		for (uint32_t x = ncol; x-- > 0;)
			fprintf(out, " L%.1f,%.1f", HTML_LEFT + x + 1.0, html_y(base[x], top));
		fputs(" Z\"/>\n", out);
		for (uint32_t x = 0; x < ncol; x++)
			base[x] = size_add(base[x], col[(size_t)x * HC_COUNT + c]);
	}
	free(base);
}

static void html_plot(FILE *out, const struct mem_model *mm)
{
	uint32_t ncol = HTML_W;
	uint64_t *col = html_columns(mm, ncol);
	uint64_t top = mm->peak_bytes > mm->hbm_bytes ? mm->peak_bytes : mm->hbm_bytes;
	for (uint32_t x = 0; x < ncol; x++) {
		uint64_t s = 0;
		for (int c = 0; c < HC_COUNT; c++)
			s = size_add(s, col[(size_t)x * HC_COUNT + c]);
		if (s > top)
			top = s;
	}
	top = size_add(size_add(top, top / 20), 1);
	fprintf(out, "<svg id=\"plot\" width=\"%d\" height=\"%d\" role=\"img\" aria-label=\"live bytes over program "
		     "order\">\n", HTML_LEFT + HTML_W + 10, HTML_PAD + HTML_H + 24);
	html_axes(out, top);
	html_areas(out, col, ncol, top);
	char h[24];
	if (mm->hbm_bytes) {
		double y = html_y(mm->hbm_bytes, top);
		fprintf(out, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#d62728\" stroke-dasharray=\"6,4\"/>"
			     "<text x=\"%d\" y=\"%.1f\" font-size=\"12\" fill=\"#d62728\" text-anchor=\"end\">capacity %s"
			     "</text>\n", HTML_LEFT, y, HTML_LEFT + HTML_W, y, HTML_LEFT + HTML_W, y - 4,
			size_human(mm->hbm_bytes, h));
	}
	/* The peak: the fullest device column. */
	uint32_t px = 0;
	uint64_t pv = 0;
	for (uint32_t x = 0; x < ncol; x++) {
		uint64_t s = 0;
		for (int c = 0; c < HC_HOST; c++)
			s = size_add(s, col[(size_t)x * HC_COUNT + c]);
		if (s > pv) {
			pv = s;
			px = x;
		}
	}
	fprintf(out, "<circle cx=\"%u\" cy=\"%.1f\" r=\"4\" fill=\"#000\"/><text id=\"peak\" x=\"%u\" y=\"%.1f\" "
		     "font-size=\"12\" font-weight=\"bold\">peak %s</text>\n",
		HTML_LEFT + px, html_y(pv, top), HTML_LEFT + px + 6, html_y(pv, top) - 6, size_human(mm->peak_bytes, h));
	fputs("</svg>\n<p class=\"legend\">", out);
	for (int c = 0; c < HC_COUNT; c++)
		fprintf(out, "<span style=\"background:%s\"></span>%s ", html_class_color[c], html_class_name[c]);
	fputs("</p>\n", out);
	free(col);
}

/* ---- The largest buffers on the same axis ---- */

static void html_buffers(FILE *out, const struct mem_model *mm, uint32_t top)
{
	const struct mem_buffer **v = xcalloc(top, sizeof *v);
	uint32_t n = mem_largest(mm, v, top);
	uint32_t steps = mm->nsteps ? mm->nsteps : 1;
	int row = 18;
	fprintf(out, "<h2>Largest buffers</h2>\n<svg id=\"buffers\" width=\"%d\" height=\"%d\">\n",
		HTML_LEFT + HTML_W + 10, (int)n * row + 4);
	for (uint32_t k = 0; k < n; k++) {
		const struct mem_buffer *b = v[k];
		uint32_t from = b->flags & MEM_BUF_GLOBAL ? 0 : b->gdef, to = b->flags & MEM_BUF_GLOBAL ? steps - 1 : b->glast;
		double x0 = HTML_LEFT + (double)from * HTML_W / steps, x1 = HTML_LEFT + (double)(to + 1) * HTML_W / steps;
		char h[24], shape[256];
		ir_shape_format(b->shape, false, shape, sizeof shape);
		int y = (int)k * row + 2;
		fprintf(out, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"><title>", x0, y,
			x1 - x0 < 1 ? 1 : x1 - x0, row - 4, html_class_color[html_class_of(b)]);
		html_text(out, ir_name(b->def), ir_name_len(b->def));
		fprintf(out, "</title></rect><text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"end\">%s</text>"
			     "<text class=\"bufname\" x=\"%.1f\" y=\"%d\" font-size=\"11\">%%", HTML_LEFT - 4, y + row - 7,
			size_human(b->bytes, h), x0 + 3, y + row - 7);
		html_text(out, ir_name(b->def), ir_name_len(b->def));
		fputc(' ', out);
		html_str(out, shape);
		fprintf(out, " (%s)</text>\n", mem_kind_name((enum mem_kind)b->kind));
	}
	fputs("</svg>\n", out);
	free(v);
}

/* ---- Findings and the listing ---- */

static const char *html_sev(enum finding_severity s)
{
	return s == FINDING_ERROR ? "error" : s == FINDING_WARNING ? "warning" : "note";
}

static void html_findings(FILE *out, const struct finding *const *fs, uint32_t n)
{
	fprintf(out, "<h2>Findings (%u)</h2>\n<ul id=\"findings\">\n", n);
	for (uint32_t k = 0; k < n; k++) {
		const struct finding *f = fs[k];
		fprintf(out, "<li class=\"%s\"><a href=\"#L%llu\">line %llu</a> <b>[%s]</b> ", html_sev(f->severity),
			(unsigned long long)f->line, (unsigned long long)f->line, f->rule);
		html_str(out, f->message);
		fputs("</li>\n", out);
	}
	if (!n)
		fputs("<li>none</li>\n", out);
	fputs("</ul>\n", out);
}

/* A finding and its place in the module's list (the order on one line). */
struct html_at {
	const struct finding *f;
	uint32_t k;
};

static int html_line_cmp(const void *pa, const void *pb)
{
	const struct html_at *a = pa, *b = pb;
	if (a->f->line != b->f->line)
		return a->f->line < b->f->line ? -1 : 1;
	return a->k < b->k ? -1 : a->k > b->k;
}

/* The module text with each finding as a comment line above its line;
 * a large source is listed around the findings only (within 20 lines).
 * The findings are walked in line order beside the lines: one pass. */
static void html_listing(FILE *out, struct source *src, const struct hlo_module *m, const struct finding *const *fs,
			 uint32_t n)
{
	bool whole = span_len(m->span) <= HTML_LISTING_MAX;
	uint64_t first, last, col;
	source_position(src, m->span.start, &first, &col);
	source_position(src, m->span.end ? m->span.end - 1 : 0, &last, &col);
	struct html_at *at = xcalloc(n ? n : 1, sizeof *at);
	for (uint32_t k = 0; k < n; k++)
		at[k] = (struct html_at){ fs[k], k };
	qsort(at, n, sizeof *at, html_line_cmp);
	fprintf(out, "<h2>The module%s</h2>\n<pre id=\"listing\">", whole ? "" : " (around the findings: it is large)");
	bool gap = false;
	uint32_t next = 0;   /* the first finding at this line or after it */
	for (uint64_t line = first; line <= last; line++) {
		while (next < n && at[next].f->line < line)
			next++;
		/* Near: a finding within 20 lines before (next - 1) or after (next). */
		bool near = (next > 0 && at[next - 1].f->line + 20 >= line) || (next < n && at[next].f->line <= line + 20);
		if (!whole && !near) {
			if (!gap)
				fputs("<span class=\"gap\">...</span>\n", out);
			gap = true;
			continue;
		}
		gap = false;
		for (uint32_t k = next; k < n && at[k].f->line == line; k++) {
			fprintf(out, "<span class=\"c %s\">// hlolint: %s: ", html_sev(at[k].f->severity), at[k].f->rule);
			html_str(out, at[k].f->message);
			fputs("</span>\n", out);
		}
		uint64_t start, len;
		source_line(src, source_line_offset(src, line), &start, &len);
		fprintf(out, "<span id=\"L%llu\">", (unsigned long long)line);
		html_text(out, src->buf + start, (size_t)len);
		fputs("</span>\n", out);
	}
	fputs("</pre>\n", out);
	free(at);
}

/* ---- The page ---- */

static void html_head(FILE *out, const char *path, const struct hlo_module *m, const struct mem_model *mm)
{
	char a[24], b[24], c[24];
	fputs("<section class=\"module\">\n<h1>", out);
	html_str(out, m->name ? m->name->str : "module");
	fputs("</h1>\n<p>", out);
	html_str(out, path);
	fprintf(out, " &middot; target %s &middot; total allocation <b id=\"total\">%s</b>", mm->target->name,
		size_human(mm->total_bytes, a));
	if (mm->hbm_bytes)
		fprintf(out, " of %s (%.1f%%)", size_human(mm->hbm_bytes, b),
			100.0 * (double)mm->total_bytes / (double)mm->hbm_bytes);
	fprintf(out, " &middot; liveness peak %s", size_human(mm->peak_bytes, c));
	if (mm->peak_at) {
		fputs(" at %", out);
		html_text(out, ir_name(mm->peak_at), ir_name_len(mm->peak_at));
	}
	fputs("</p>\n", out);
}

void html_begin(FILE *out, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>hlolint: ", out);
	html_str(out, title);
	fputs("</title>\n<style>\n"
	      "body{font-family:sans-serif;margin:24px;color:#222}\n"
	      "pre{font-size:12px;background:#fafafa;border:1px solid #ddd;padding:8px;overflow-x:auto}\n"
	      ".c{color:#a33;font-style:italic}.c.note{color:#666}.gap{color:#999}\n"
	      ".legend span{display:inline-block;width:12px;height:12px;margin:0 4px 0 12px;vertical-align:middle}\n"
	      "li.error b{color:#c00}li.warning b{color:#b60}\n"
	      "pre span:target{background:#ffef9e}\n"
	      "</style></head><body>\n", out);
}

void html_module(FILE *out, const char *path, struct source *src, const struct hlo_module *m,
		 const struct mem_model *mm, const struct finding *const *fs, uint32_t n)
{
	html_head(out, path, m, mm);
	html_plot(out, mm);
	html_buffers(out, mm, HTML_TOP_BUFS);
	html_findings(out, fs, n);
	html_listing(out, src, m, fs, n);
	fputs("</section>\n", out);
}

void html_end(FILE *out)
{
	fputs("<p class=\"legend\">Written by hlolint report; figures as docs/memory-model.md explains.</p>\n"
	      "</body></html>\n", out);
}
