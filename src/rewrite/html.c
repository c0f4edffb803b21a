/* html.c - the memory picture of a module as one self-contained HTML page
 * (no script, no fetch): live device bytes over the flattened program
 * order stacked by kind with the capacity and the peak, the largest
 * buffers' live ranges on the same axis (as XProf's memory viewer draws
 * them), the findings linking into an annotated listing.  It draws what
 * the model (mem.h) and the rules found; it computes no figure itself. */
#include "html.h"
#include <stdlib.h>
#include <string.h>
#include "metadata.h"
#include "size.h"

#define HTML_W 960          /* plot width in px (the x axis is program order) */
#define HTML_H 280          /* plot height */
#define HTML_LEFT 70        /* room for the y labels */
#define HTML_PAD 16         /* room above the plot for the top label and the peak */
#define HTML_HOST_H 90      /* the pinned host panel's height */
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

/* Live bytes per class in each of ncol columns of the timeline.  A step
 * holds its value over every column it covers (at least one), so a short
 * program is a step plot, not needles; where several steps share a column
 * the fullest (device classes together) is kept, so the peak survives. */
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
	uint64_t *colsum = xcalloc(ncol, sizeof *colsum);
	uint8_t *set = xcalloc(ncol, 1);
	uint64_t live[HC_COUNT] = { 0 };
	for (uint32_t t = 0; t < n; t++) {
		uint64_t sum = 0;
		for (int c = 0; c < HC_COUNT; c++) {
			size_t i = (size_t)t * HC_COUNT + c;
			live[c] = size_sub(size_add(live[c], plus[i]), minus[i]);
			if (c != HC_HOST)
				sum = size_add(sum, live[c]);
		}
		uint32_t x0 = (uint32_t)((uint64_t)t * ncol / n), x1 = (uint32_t)((uint64_t)(t + 1) * ncol / n);
		if (x1 <= x0)
			x1 = x0 + 1;
		for (uint32_t x = x0; x < x1 && x < ncol; x++)
			if (!set[x] || sum >= colsum[x]) {
				set[x] = 1;
				colsum[x] = sum;
				for (int c = 0; c < HC_COUNT; c++)
					col[(size_t)x * HC_COUNT + c] = live[c];
			}
	}
	free(set);
	free(colsum);
	free(plus);
	free(minus);
	return col;
}

static double html_y(uint64_t v, uint64_t top, int height)
{
	return HTML_PAD + height - (double)v * height / (double)top;
}

/* A round tick step for an axis up to top, at most six ticks: a power of
 * two of bytes, so that every tick reads round in the unit it is printed
 * in (512M, 1.00G, 1.50G: sizes are binary, size_human). */
static uint64_t html_tick(uint64_t top)
{
	uint64_t step = 1;
	while (top / step > 6 && step < (1ull << 62))
		step <<= 1;
	return step;
}

/* The y axis in round steps, and the plot's top (a whole number of them). */
static uint64_t html_axes(FILE *out, uint64_t top, int height)
{
	char h[24];
	uint64_t step = html_tick(top), end = (top + step - 1) / step * step;
	for (uint64_t v = 0; v <= end; v += step) {
		double y = html_y(v, end, height);
		fprintf(out, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>"
			     "<text x=\"%d\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\">%s</text>\n",
			HTML_LEFT, y, HTML_LEFT + HTML_W, y, HTML_LEFT - 4, y + 4, size_human(v, h));
		if (v > end - step)
			break;
	}
	return end;
}

/* Classes [c0, c1) stacked as steps: each column a flat top. */
static void html_areas(FILE *out, const uint64_t *col, uint32_t ncol, uint64_t top, int c0, int c1, int height)
{
	uint64_t *base = xcalloc(ncol, sizeof *base);
	for (int c = c0; c < c1; c++) {
		fprintf(out, "<path class=\"area %s\" fill=\"%s\" fill-opacity=\"0.85\" d=\"M%d,%d",
			c == HC_HOST ? "host" : "device", html_class_color[c], HTML_LEFT, HTML_PAD + height);
		for (uint32_t x = 0; x < ncol; x++) {
			double y = html_y(size_add(base[x], col[(size_t)x * HC_COUNT + c]), top, height);
			fprintf(out, " L%u,%.1f L%u,%.1f", HTML_LEFT + x, y, HTML_LEFT + x + 1, y);
		}
		for (uint32_t x = ncol; x-- > 0;) {
			double y = html_y(base[x], top, height);
			fprintf(out, " L%u,%.1f L%u,%.1f", HTML_LEFT + x + 1, y, HTML_LEFT + x, y);
		}
		fputs(" Z\"/>\n", out);
		for (uint32_t x = 0; x < ncol; x++)
			base[x] = size_add(base[x], col[(size_t)x * HC_COUNT + c]);
	}
	free(base);
}

/* Hover bands over the plot: what is live in each (no script: a title). */
static void html_bands(FILE *out, const uint64_t *col, uint32_t ncol, uint32_t nsteps, int height)
{
	const uint32_t w = 8;
	char a[24], b[24], c[24], h[24], t[24];
	for (uint32_t x0 = 0; x0 < ncol; x0 += w) {
		uint32_t best = x0;
		uint64_t most = 0;
		for (uint32_t x = x0; x < x0 + w && x < ncol; x++) {
			uint64_t s = 0;
			for (int k = 0; k < HC_HOST; k++)
				s = size_add(s, col[(size_t)x * HC_COUNT + k]);
			if (s >= most) {
				most = s;
				best = x;
			}
		}
		const uint64_t *v = &col[(size_t)best * HC_COUNT];
		uint32_t s0 = (uint32_t)((uint64_t)x0 * nsteps / ncol), s1 = (uint32_t)((uint64_t)(x0 + w) * nsteps / ncol);
		fprintf(out, "<rect class=\"band\" x=\"%u\" y=\"%d\" width=\"%u\" height=\"%d\" fill=\"transparent\">"
			     "<title>steps %u-%u: %s on the device (arguments %s, outputs %s, temporaries %s); host %s"
			     "</title></rect>\n", HTML_LEFT + x0, HTML_PAD, w, height, s0, s1 > s0 ? s1 - 1 : s0,
			size_human(most, t), size_human(v[HC_ARGS], a), size_human(v[HC_OUTS], b),
			size_human(v[HC_TEMP], c), size_human(v[HC_HOST], h));
	}
}

/* Which pass i's op_name puts it in: 2 backward (JAX's transpose(jvp(..))),
 * 1 forward (jvp( without transpose), 0 neither.  The metadata text is
 * searched, not decoded. */
static int html_pass_of(const struct hlo_module *m, const struct hlo_instr *i)
{
	const struct hlo_attr *md = ir_attr(i, ATTR_METADATA);
	if (!md)
		return 0;
	struct span v = ir_attr_value(md);
	const char *t = m->file->src->buf + v.start;
	size_t n = span_len(v);
	int pass = 0;
	for (size_t k = 0; k + 4 <= n && pass < 2; k++)
		if (t[k] == 'j' && !memcmp(t + k, "jvp(", 4))
			pass = k >= 10 && !memcmp(t + k - 10, "transpose(", 10) ? 2 : 1;
	return pass;
}

/* Where the backward pass starts: the step that best splits the forward
 * instructions (before) from the backward ones (after), or UINT32_MAX when
 * the op_names tell no passes apart. */
static uint32_t html_backward_at(const uint8_t *pass, uint32_t n)
{
	int64_t score = 0, best = 0;
	uint32_t at = UINT32_MAX, nb = 0, nf = 0;
	for (uint32_t t = 0; t < n; t++) {
		nb += pass[t] == 2;
		nf += pass[t] == 1;
	}
	if (!nb || !nf)
		return UINT32_MAX;
	/* score(t) = forward steps before t + backward steps from t on, less
	 * all backward steps: a running sum. */
	for (uint32_t t = 0; t < n; t++) {
		if (pass[t] == 2 && score >= best) {
			best = score;
			at = t;
		}
		score += pass[t] == 1 ? 1 : pass[t] == 2 ? -1 : 0;
	}
	return at;
}

/* Landmarks under the x axis: while loops (their bodies' steps), the
 * collectives (ticks), and where the backward pass starts. */
static void html_landmarks(FILE *out, const struct mem_model *mm, int height)
{
	const struct hlo_module *m = mm->module;
	uint32_t n = mm->nsteps ? mm->nsteps : 1;
	uint8_t *pass = xcalloc(n, 1);
	int y = HTML_PAD + height + 3;
	for (uint32_t c = 0; c < m->ncomps; c++) {
		const struct hlo_comp *comp = m->comps[c];
		if (!mem_analysed(mm, comp))
			continue;
		for (uint32_t k = 0; k < comp->ninstrs; k++) {
			const struct hlo_instr *i = comp->instrs[k];
			uint32_t at = mem_step_at(mm, i);
			if (at == UINT32_MAX)
				continue;
			double x = HTML_LEFT + (double)at * HTML_W / n;
			if (i->op == OP_WHILE) {
				uint32_t lo = at;
				for (uint32_t j = 0; j < i->ncallees; j++) {
					const struct hlo_comp *body = ir_callees(i)[j];
					for (uint32_t q = 0; body && q < body->ninstrs; q++) {
						uint32_t s = mem_step_at(mm, body->instrs[q]);
						if (s < lo)
							lo = s;
					}
				}
				double x0 = HTML_LEFT + (double)lo * HTML_W / n;
				fprintf(out, "<rect class=\"loop\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"6\" fill=\"#76b7b2\" "
					     "fill-opacity=\"0.6\"><title>while %%", x0, y, x - x0 + 1 < 1 ? 1 : x - x0 + 1);
				html_text(out, ir_name(i), ir_name_len(i));
				fprintf(out, ": steps %u-%u</title></rect>\n", lo, at);
			} else if (ir_op_is_collective((enum opcode)i->op)) {
				fprintf(out, "<line class=\"collective\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
					     "stroke=\"#b07aa1\"><title>%s %%", x, y + 7, x, y + 12, ir_opcode_name((enum opcode)i->op));
				html_text(out, ir_name(i), ir_name_len(i));
				fprintf(out, " at step %u</title></line>\n", at);
			}
			if (at < n)
				pass[at] = (uint8_t)html_pass_of(m, i);
		}
	}
	uint32_t backward = html_backward_at(pass, n);
	free(pass);
	if (backward != UINT32_MAX) {
		double x = HTML_LEFT + (double)backward * HTML_W / n;
		fprintf(out, "<line id=\"backward\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#555\" "
			     "stroke-dasharray=\"3,3\"/><text x=\"%.1f\" y=\"%d\" font-size=\"11\" fill=\"#555\" "
			     "text-anchor=\"%s\">backward pass</text>\n", x, HTML_PAD, x, HTML_PAD + height, x + 3,
			HTML_PAD + 10, x > HTML_LEFT + HTML_W * 0.85 ? "end" : "start");
	}
}

static void html_plot(FILE *out, const struct mem_model *mm)
{
	uint32_t ncol = HTML_W;
	uint64_t *col = html_columns(mm, ncol);
	uint64_t top = mm->peak_bytes > mm->hbm_bytes ? mm->peak_bytes : mm->hbm_bytes, host = 0;
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
		if (col[(size_t)x * HC_COUNT + HC_HOST] > host)
			host = col[(size_t)x * HC_COUNT + HC_HOST];
	}
	if (pv > top)
		top = pv;
	top = size_add(size_add(top, top / 20), 1);
	fprintf(out, "<svg id=\"plot\" width=\"%d\" height=\"%d\" role=\"img\" aria-label=\"live device bytes over "
		     "program order\">\n", HTML_LEFT + HTML_W + 10, HTML_PAD + HTML_H + 36);
	top = html_axes(out, top, HTML_H);
	html_areas(out, col, ncol, top, 0, HC_HOST, HTML_H);
	html_landmarks(out, mm, HTML_H);
	fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">program order (the schedule, "
		     "callees inlined); under it: loops, collectives</text>\n", HTML_LEFT + HTML_W / 2,
		HTML_PAD + HTML_H + 30);
	char h[24];
	if (mm->hbm_bytes) {
		double y = html_y(mm->hbm_bytes, top, HTML_H);
		fprintf(out, "<line id=\"capacity\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#d62728\" "
			     "stroke-dasharray=\"6,4\"/><text x=\"%d\" y=\"%.1f\" font-size=\"12\" fill=\"#d62728\" "
			     "text-anchor=\"end\">capacity %s</text>\n", HTML_LEFT, y, HTML_LEFT + HTML_W, y,
			HTML_LEFT + HTML_W, y - 4, size_human(mm->hbm_bytes, h));
	}
	/* The peak, where the device curve reaches its top; the label stays
	 * inside the plot. */
	double py = html_y(pv, top, HTML_H);
	bool left = px > HTML_W * 3 / 4;
	fprintf(out, "<circle cx=\"%u\" cy=\"%.1f\" r=\"4\" fill=\"#000\"/><text id=\"peak\" x=\"%u\" y=\"%.1f\" "
		     "font-size=\"12\" font-weight=\"bold\" text-anchor=\"%s\">peak %s</text>\n", HTML_LEFT + px, py,
		left ? HTML_LEFT + px - 6 : HTML_LEFT + px + 6, py < HTML_PAD + 14 ? py + 16 : py - 6,
		left ? "end" : "start", size_human(mm->peak_bytes, h));
	html_bands(out, col, ncol, mm->nsteps ? mm->nsteps : 1, HTML_H);
	fputs("</svg>\n", out);
	/* Pinned host memory: its own panel and scale, never on the device axis. */
	if (host) {
		uint64_t htop = size_add(size_add(host, host / 20), 1);
		fprintf(out, "<svg id=\"host\" width=\"%d\" height=\"%d\" role=\"img\" aria-label=\"live pinned host "
			     "bytes over program order\">\n", HTML_LEFT + HTML_W + 10, HTML_PAD + HTML_HOST_H + 8);
		htop = html_axes(out, htop, HTML_HOST_H);
		html_areas(out, col, ncol, htop, HC_HOST, HC_COUNT, HTML_HOST_H);
		fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"11\">pinned host memory (S(5)), its own scale</text>\n",
			HTML_LEFT + 6, HTML_PAD + 2);
		fputs("</svg>\n", out);
	}
	fputs("<p class=\"legend\">", out);
	for (int c = 0; c < HC_COUNT; c++)
		fprintf(out, "<span style=\"background:%s\"></span>%s ", html_class_color[c], html_class_name[c]);
	fputs("<span style=\"background:#76b7b2\"></span>while loop <span style=\"background:#b07aa1\"></span>"
	      "collective</p>\n", out);
	free(col);
}

/* ---- The largest buffers on the same axis ---- */

/* The buffer's tooltip: size, shape, kind, live range, op_name, Python line. */
static void html_buffer_title(FILE *out, const struct mem_model *mm, const struct mem_buffer *b, uint32_t from,
			      uint32_t to, struct arena *a)
{
	char h[24], shape[256];
	ir_shape_format(b->shape, true, shape, sizeof shape);
	fprintf(out, "<title>%s ", size_human(b->bytes, h));
	html_str(out, shape);
	fprintf(out, " (%s), live over steps %u-%u, %%", mem_kind_name((enum mem_kind)b->kind), from, to);
	html_text(out, ir_name(b->def), ir_name_len(b->def));
	const struct hlo_attr *md = ir_attr(b->def, ATTR_METADATA);
	struct hlo_metadata meta;
	if (md && metadata_decode(mm->module->file, ir_attr_value(md), a, &meta, NULL)) {
		const char *file;
		int64_t line;
		if (meta.op_name && meta.op_name[0]) {
			fputs("\nop_name ", out);
			html_str(out, meta.op_name);
		}
		if (metadata_source(mm->module, &meta, a, &file, &line)) {
			fputs("\nPython ", out);
			html_str(out, file);
			fprintf(out, ":%lld", (long long)line);
		}
	}
	fputs("</title>", out);
}

/* The largest buffers' rows, each a link to its instruction's line (lines[k]). */
static void html_buffers(FILE *out, const struct mem_model *mm, const struct mem_buffer *const *v,
			 const uint64_t *lines, uint32_t n)
{
	uint32_t steps = mm->nsteps ? mm->nsteps : 1;
	int row = 18;
	struct arena a;
	arena_init(&a);
	fprintf(out, "<h2>Largest buffers</h2>\n<svg id=\"buffers\" width=\"%d\" height=\"%d\">\n",
		HTML_LEFT + HTML_W + 10, (int)n * row + 4);
	for (uint32_t k = 0; k < n; k++) {
		const struct mem_buffer *b = v[k];
		uint32_t from = b->flags & MEM_BUF_GLOBAL ? 0 : b->gdef, to = b->flags & MEM_BUF_GLOBAL ? steps - 1 : b->glast;
		double x0 = HTML_LEFT + (double)from * HTML_W / steps, x1 = HTML_LEFT + (double)(to + 1) * HTML_W / steps;
		char h[24], shape[256];
		uint64_t line = lines[k];
		ir_shape_format(b->shape, false, shape, sizeof shape);
		int y = (int)k * row + 2;
		fprintf(out, "<a href=\"#L%llu\"><rect class=\"buffer\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" "
			     "fill=\"%s\">", (unsigned long long)line, x0, y, x1 - x0 < 1 ? 1 : x1 - x0, row - 4,
			html_class_color[html_class_of(b)]);
		html_buffer_title(out, mm, b, from, to, &a);
		fprintf(out, "</rect><text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"end\">%s</text>"
			     "<text class=\"bufname\" x=\"%.1f\" y=\"%d\" font-size=\"11\" text-anchor=\"%s\">%%",
			HTML_LEFT - 4, y + row - 7, size_human(b->bytes, h), x0 > HTML_LEFT + HTML_W / 2 ? x1 - 3 : x0 + 3,
			y + row - 7, x0 > HTML_LEFT + HTML_W / 2 ? "end" : "start");
		html_text(out, ir_name(b->def), ir_name_len(b->def));
		fputc(' ', out);
		html_str(out, shape);
		fprintf(out, " (%s)</text></a>\n", mem_kind_name((enum mem_kind)b->kind));
	}
	fputs("</svg>\n", out);
	arena_free(&a);
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
 * a large source is listed around the findings (within 20 lines) and the
 * largest buffers (within 3: their rows link there) only.
 * The findings are walked in line order beside the lines: one pass. */
static void html_listing(FILE *out, struct source *src, const struct hlo_module *m, const struct finding *const *fs,
			 uint32_t n, const uint64_t *marks, uint32_t nmarks)
{
	bool whole = span_len(m->span) <= HTML_LISTING_MAX;
	uint64_t first, last, col;
	source_position(src, m->span.start, &first, &col);
	source_position(src, m->span.end ? m->span.end - 1 : 0, &last, &col);
	struct html_at *at = xcalloc(n ? n : 1, sizeof *at);
	for (uint32_t k = 0; k < n; k++)
		at[k] = (struct html_at){ fs[k], k };
	qsort(at, n, sizeof *at, html_line_cmp);
	fprintf(out, "<h2>The module%s</h2>\n<pre id=\"listing\">", whole ? "" : " (around the findings and the largest buffers: it is large)");
	bool gap = false;
	uint32_t next = 0;   /* the first finding at this line or after it */
	for (uint64_t line = first; line <= last; line++) {
		while (next < n && at[next].f->line < line)
			next++;
		/* Near: a finding within 20 lines before (next - 1) or after (next). */
		bool near = (next > 0 && at[next - 1].f->line + 20 >= line) || (next < n && at[next].f->line <= line + 20);
		for (uint32_t k = 0; k < nmarks && !near; k++)   /* the buffers' links land here */
			near = marks[k] <= line + 3 && line <= marks[k] + 3;
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
	if (!mm->hbm_bytes)
		fputs("<p id=\"nocap\" class=\"nocap\">No capacity: no --target or --hbm given and none could be "
		      "inferred, so this page cannot say whether the program fits (no capacity line).</p>\n", out);
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
	      ".nocap{color:#c00;font-weight:bold}\n"
	      "svg a rect.buffer:hover{stroke:#000}\n"
	      "</style></head><body>\n", out);
}

void html_module(FILE *out, const char *path, struct source *src, const struct hlo_module *m,
		 const struct mem_model *mm, const struct finding *const *fs, uint32_t n)
{
	const struct mem_buffer **v = xcalloc(HTML_TOP_BUFS, sizeof *v);
	uint32_t nb = mem_largest(mm, v, HTML_TOP_BUFS);
	uint64_t lines[HTML_TOP_BUFS], col;
	for (uint32_t k = 0; k < nb; k++)
		source_position(src, ir_instr_name_span(v[k]->def).start, &lines[k], &col);
	html_head(out, path, m, mm);
	html_plot(out, mm);
	html_buffers(out, mm, v, lines, nb);
	html_findings(out, fs, n);
	html_listing(out, src, m, fs, n, lines, nb);
	free(v);
	fputs("</section>\n", out);
}

void html_end(FILE *out)
{
	fputs("<p class=\"legend\">Written by hlolint report; figures as docs/memory-model.md explains.</p>\n"
	      "</body></html>\n", out);
}
