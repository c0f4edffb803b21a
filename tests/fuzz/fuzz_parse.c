/* fuzz_parse.c - fuzz target: any byte string through the whole parse
 * (scanner, grammar, builder, resolver, verifier) with a quiet sink, every
 * other input cut in pieces parsed on threads and joined (parse.c).
 * Finds crashes, leaks and UB only; it does not judge the diagnostics. */
#include "fuzz.h"
#include <stdlib.h>
#include "diag.h"
#include "parse.h"
#include "source.h"
#include "threads.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static unsigned calls;
	setenv("HLO_PARSE_PIECES_MIN", "1", 0);
	threads_set(++calls % 2 ? 3 : 1);
	struct source *src = source_from_memory("fuzz.hlo", (const char *)data, size);
	struct diag_sink d;
	diag_init(&d, NULL, 20);
	d.quiet = true;
	struct hlo_file *f = parse_file(src, &d);
	parse_free(f);
	source_free(src);
	return 0;
}
