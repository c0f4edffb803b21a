/* diag.c - prints diagnostics as "path:line:col: severity: message", then
 * the source line and a caret line ("^~~~") under the span, clipped to that
 * line.  A line wider than the output (diag_width) is shown as a window
 * around the caret with "..." marks (a 1 MB constant must not flood the
 * terminal, and text output fits 100 columns).
 * A deferred sink (a -j worker's) renders into memory; diag_replay prints
 * it later in input order with the same cap.
 * It does not decide exit codes or wording; it only formats and counts. */
#include "diag.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include "arena.h"

#define DIAG_WIDTH 100       /* text output's width when it is not a terminal */

static unsigned diag_cols;

static void diag_width_init(void)
{
	struct winsize ws;
	diag_cols = isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 40
			? ws.ws_col : DIAG_WIDTH;
}

unsigned diag_width(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;   /* -j workers ask too */
	pthread_once(&once, diag_width_init);
	return diag_cols;
}

static const char *diag_severity_name(enum diag_severity sev)
{
	switch (sev) {
	case DIAG_NOTE: return "note";
	case DIAG_WARNING: return "warning";
	case DIAG_ERROR: break;
	}
	return "error";
}

void diag_init(struct diag_sink *d, FILE *out, unsigned max_errors)
{
	memset(d, 0, sizeof *d);
	d->out = out;
	d->max_errors = max_errors;
	d->quiet = out == NULL;
}

void diag_free(struct diag_sink *d)
{
	for (uint32_t k = 0; k < d->nrecs; k++) {
		free(d->recs[k].path);
		free(d->recs[k].msg);
	}
	free(d->recs);
	d->recs = NULL;
	d->nrecs = d->caprecs = 0;
	if (d->deferred) {
		fclose(d->out);
		free(d->buf);
		free(d->events);
		d->out = NULL;
		d->buf = NULL;
		d->events = NULL;
		d->nevents = d->capevents = 0;
		d->deferred = false;
	}
}

static char *diag_strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(xmalloc(n), s, n);
}

static void diag_record(struct diag_sink *d, struct source *src, struct span sp, const char *fmt, va_list ap)
{
	char msg[1024];
	vsnprintf(msg, sizeof msg, fmt, ap);
	if (d->nrecs == d->caprecs)
		d->recs = xreallocarray(d->recs, d->caprecs = d->caprecs ? 2 * d->caprecs : 8, sizeof *d->recs);
	struct diag_record *r = &d->recs[d->nrecs++];
	const char *path = src ? src->path : d->input;
	r->path = path ? diag_strdup(path) : NULL;
	r->line = r->col = 0;
	if (src && !span_is_none(sp))
		source_position(src, sp.start, &r->line, &r->col);
	r->msg = diag_strdup(msg);
}

bool diag_full(const struct diag_sink *d)
{
	return d->max_errors && d->errors >= d->max_errors;
}

/* How many bytes at s (n left) diag_put takes as one unit, and the width
 * it writes them in (0: copied as they are). */
static size_t diag_unit(const unsigned char *s, size_t n, unsigned *width)
{
	unsigned c = s[0];
	*width = 0;
	if ((c < 0x20 && c != '\t') || c == 0x7f) {
		*width = 4;
		return 1;
	}
	if (c < 0x80)
		return 1;
	size_t len = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
	if (!len || len > n) {
		*width = 4;
		return 1;
	}
	for (size_t k = 1; k < len; k++)
		if ((s[k] & 0xc0) != 0x80) {
			*width = 4;
			return 1;
		}
	if ((c == 0xc2 && s[1] < 0xa0) ||                                        /* U+0080..U+009F */
	    (c == 0xe2 && s[1] == 0x80 && s[2] >= 0xaa && s[2] <= 0xae) ||       /* U+202A..U+202E */
	    (c == 0xe2 && s[1] == 0x81 && s[2] >= 0xa6 && s[2] <= 0xa9))         /* U+2066..U+2069 */
		*width = 6;
	return len;
}

void diag_escape(const char *s, size_t n, void (*put)(void *ctx, const char *p, size_t n), void *ctx)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, plain = 0;
	while (i < n) {
		unsigned w;
		size_t len = diag_unit(u + i, n - i, &w);
		if (!w) {
			i += len;
			continue;
		}
		put(ctx, s + plain, i - plain);
		char esc[8];
		if (w == 4) {
			snprintf(esc, sizeof esc, "\\x%02x", u[i]);
		} else {
			unsigned cp = len == 2 ? (u[i] & 0x1fu) << 6 | (u[i + 1] & 0x3fu)
					       : (u[i] & 0x0fu) << 12 | (u[i + 1] & 0x3fu) << 6 | (u[i + 2] & 0x3fu);
			snprintf(esc, sizeof esc, "\\u%04x", cp);
		}
		put(ctx, esc, w);
		i += len;
		plain = i;
	}
	put(ctx, s + plain, n - plain);
}

static void diag_put_file(void *out, const char *p, size_t n)
{
	fwrite(p, 1, n, out);
}

void diag_put(FILE *out, const char *s, size_t n)
{
	diag_escape(s, n, diag_put_file, out);
}

void diag_vline(FILE *out, const char *fmt, va_list ap)
{
	char small[512], *buf = small;
	va_list cp;
	va_copy(cp, ap);
	int n = vsnprintf(small, sizeof small, fmt, cp);
	va_end(cp);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof small) {
		buf = xmalloc((size_t)n + 1);
		vsnprintf(buf, (size_t)n + 1, fmt, ap);
	}
	size_t len = (size_t)n;
	bool nl = len && buf[len - 1] == '\n';
	diag_put(out, buf, len - nl);
	if (nl)
		fputc('\n', out);
	if (buf != small)
		free(buf);
}

void diag_line(FILE *out, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_vline(out, fmt, ap);
	va_end(ap);
}

/* The source line of sp and a caret line under it, escaped as diag_put
 * writes it (the caret under the same character). */
static void diag_show_line(FILE *out, struct source *src, struct span sp)
{
	uint64_t start, len;
	source_line(src, sp.start, &start, &len);
	uint64_t off = sp.start > src->len ? src->len : sp.start;
	uint64_t col = off - start;                 /* 0-based byte column */
	if (col > len)
		col = len;                          /* in the line end: caret after the text */
	uint64_t end = sp.end < sp.start ? sp.start : sp.end;
	uint64_t ulen = end > start + len ? start + len - off : end - off;
	if (off > start + len)
		ulen = 0;
	uint64_t first = 0, last = len;             /* shown part of the line */
	uint64_t room = diag_width() - 6;           /* "..." on both sides */
	if (len > diag_width()) {
		first = col > room / 3 ? col - room / 3 : 0;
		last = first + room < len ? first + room : len;
		if (last == len && len > room)      /* the end shown: as much before as fits */
			first = len - room;
		if (col > last)                     /* caret at the very end */
			last = col;
	}
	const char *text = src->buf + start;
	const char *lead = first > 0 ? "..." : "";
	fputs(lead, out);
	diag_put(out, text + first, (size_t)(last - first));
	fputs(last < len ? "...\n" : "\n", out);

	fputs(first > 0 ? "   " : "", out);
	for (uint64_t i = first; i < col;) {
		unsigned w;
		size_t step = diag_unit((const unsigned char *)text + i, (size_t)(last - i), &w);
		if (text[i] == '\t')
			fputc('\t', out);
		else
			fprintf(out, "%*s", (int)(w ? w : 1), "");
		i += step;
	}
	fputc('^', out);
	if (col + ulen > last)
		ulen = last > col ? last - col : 0;
	for (uint64_t i = 1; i < ulen; i++)
		fputc('~', out);
	fputc('\n', out);
}

void diag_print_line(FILE *out, struct source *src, struct span sp)
{
	if (out && src && !span_is_none(sp) && !src->binary)
		diag_show_line(out, src, sp);
}

/* Counts a diagnostic of sev; false when it is not to be shown. */
static bool diag_count(struct diag_sink *d, enum diag_severity sev)
{
	if (sev == DIAG_ERROR)
		d->errors++;
	/* Once capped, everything is dropped: notes and warnings after the cap
	 * would belong to errors nobody sees. */
	if (d->capped || d->quiet || !d->out) {
		if (sev == DIAG_ERROR && diag_full(d))
			d->capped = true;
		return false;
	}
	return true;
}

/* A deferred sink's diagnostic ends here in its buffer. */
struct diag_event {
	enum diag_severity sev;
	size_t end;
	uint32_t rec;        /* its record, UINT32_MAX none */
};

/* After a diagnostic was shown: a deferred sink notes where it ends; the
 * cap's last line is printed only where the text is final (diag_replay
 * decides it for a deferred sink). */
static void diag_shown(struct diag_sink *d, enum diag_severity sev, uint32_t rec)
{
	bool full = sev == DIAG_ERROR && diag_full(d);
	if (d->deferred) {
		if (d->nevents == d->capevents)
			d->events = xreallocarray(d->events, d->capevents = d->capevents ? 2 * d->capevents : 8,
						  sizeof *d->events);
		long end = ftell(d->out);
		d->events[d->nevents++] = (struct diag_event){ sev, end > 0 ? (size_t)end : 0, rec };
	} else if (full) {
		fputs("hlolint: error: too many errors, stopping\n", d->out);
	}
	if (full)
		d->capped = true;
	fflush(d->out);
}

void diag_vreport(struct diag_sink *d, struct source *src, struct span sp,
		  enum diag_severity sev, const char *fmt, va_list ap)
{
	if (!d)  /* a silent decode (value_parse with no sink) */
		return;
	uint32_t rec = UINT32_MAX;
	if (sev == DIAG_ERROR && d->keep && !d->capped) {
		va_list cp;
		va_copy(cp, ap);
		diag_record(d, src, sp, fmt, cp);
		va_end(cp);
		rec = d->nrecs - 1;
	}
	if (!diag_count(d, sev))
		return;
	FILE *out = d->out;
	const char *sname = diag_severity_name(sev);
	if (!src) {
		fprintf(out, "hlolint: %s: ", sname);
	} else if (span_is_none(sp)) {
		diag_line(out, "%s: %s: ", src->path, sname);
	} else {
		uint64_t line, col;
		source_position(src, sp.start, &line, &col);
		diag_line(out, "%s:%llu:%llu: %s: ", src->path, (unsigned long long)line,
			  (unsigned long long)col, sname);
	}
	diag_vline(out, fmt, ap);
	fputc('\n', out);
	if (src && !span_is_none(sp) && !src->binary)   /* no raw binary on a terminal */
		diag_show_line(out, src, sp);
	diag_shown(d, sev, rec);
}

void diag_init_deferred(struct diag_sink *d, unsigned max_errors, bool keep)
{
	diag_init(d, NULL, max_errors);
	d->out = open_memstream(&d->buf, &d->buflen);
	if (!d->out)
		fatal_out_of_memory();
	d->quiet = false;
	d->keep = keep;
	d->deferred = true;
}

/* Moves record r (its strings) to d's records. */
static uint32_t diag_take_record(struct diag_sink *d, struct diag_record *r)
{
	if (d->nrecs == d->caprecs)
		d->recs = xreallocarray(d->recs, d->caprecs = d->caprecs ? 2 * d->caprecs : 8, sizeof *d->recs);
	d->recs[d->nrecs] = *r;
	r->path = r->msg = NULL;
	return d->nrecs++;
}

void diag_replay(struct diag_sink *d, struct diag_sink *from)
{
	fflush(from->out);
	size_t start = 0;
	unsigned errors = 0;
	for (uint32_t k = 0; k < from->nevents; k++) {
		const struct diag_event *e = &from->events[k];
		uint32_t rec = UINT32_MAX;
		errors += e->sev == DIAG_ERROR;
		if (e->sev == DIAG_ERROR && d->keep && !d->capped && e->rec != UINT32_MAX)
			rec = diag_take_record(d, &from->recs[e->rec]);
		if (diag_count(d, e->sev)) {
			fwrite(from->buf + start, 1, e->end - start, d->out);
			diag_shown(d, e->sev, rec);
		}
		start = e->end;
	}
	/* Errors past from's own cap: counted, never shown (d is capped by now). */
	for (; errors < from->errors; errors++)
		diag_count(d, DIAG_ERROR);
}

void diag_report(struct diag_sink *d, struct source *src, struct span sp,
		 enum diag_severity sev, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_vreport(d, src, sp, sev, fmt, ap);
	va_end(ap);
}
