/* fuzz_roundtrip.c - fuzz target: an input that parses without errors must
 * print (default style) to text that parses without errors again and that
 * prints identically a second time.  Any difference aborts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fuzz.h"
#include "diag.h"
#include "parse.h"
#include "print.h"
#include "source.h"

/* Parses text; on success returns the printed modules (malloc'd) in *out.
 * Returns the number of errors. */
static unsigned roundtrip_print(const char *text, size_t n, char **out, size_t *outlen)
{
	struct source *src = source_from_memory("fuzz.hlo", text, n);
	struct diag_sink d;
	diag_init(&d, NULL, 20);
	d.quiet = true;
	struct hlo_file *f = parse_file(src, &d);
	unsigned errors = f->errors + d.errors;
	*out = NULL;
	*outlen = 0;
	if (!errors) {
		FILE *mem = open_memstream(out, outlen);
		if (!mem)
			abort();
		for (struct hlo_module *m = f->modules; m; m = m->next)
			print_module(mem, m, PRINT_DEFAULT);
		fclose(mem);
	}
	parse_free(f);
	source_free(src);
	return errors;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *first, *second, *third;
	size_t n1, n2, n3;
	if (roundtrip_print((const char *)data, size, &first, &n1))
		return 0;   /* invalid input: fuzz_parse covers it */
	if (roundtrip_print(first, n1, &second, &n2)) {
		fprintf(stderr, "roundtrip: printed module does not parse:\n%.*s\n", (int)n1, first);
		abort();
	}
	/* The first print may normalise (defaults, spacing); after that the
	 * text must be a fixed point. */
	if (roundtrip_print(second, n2, &third, &n3) || n2 != n3 || memcmp(second, third, n2) != 0) {
		fprintf(stderr, "roundtrip: printing is not stable:\n--- first\n%.*s\n--- second\n%.*s\n",
			(int)n2, second, (int)n3, third ? third : "");
		abort();
	}
	free(first);
	free(second);
	free(third);
	return 0;
}
