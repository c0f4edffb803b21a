/* fuzz_cmd.h - runs hlolint commands on a fuzz input exactly as the CLI
 * does (cmd_* with an argv), for the command fuzz targets (fuzz_mem,
 * fuzz_check, fuzz_annotate).  The parse-level targets do not need it. */
#ifndef HLO_FUZZ_CMD_H
#define HLO_FUZZ_CMD_H
#include <stddef.h>
#include <stdint.h>
#include "args.h"

/* Runs cmd with argv = args (NULL-terminated, args[0] the command name)
 * followed by the path of a file holding data, parsed as main does
 * (args_parse: a usage error is status 2).  Standard output goes to
 * /dev/null; diagnostics stay on stderr.  Returns the command's status;
 * aborts when it is not 0, 1 or 2 (the exit-code contract). */
int fuzz_cmd_run(int (*cmd)(const struct args *), const char *const *args, const uint8_t *data, size_t size);

/* The same with the path of a dump folder holding data as two modules of
 * one jit name (module_0000 and module_0001): the folder rules compare
 * the input's signature with itself. */
int fuzz_cmd_run_folder(int (*cmd)(const struct args *), const char *const *args, const uint8_t *data,
			size_t size);

/* Rule options that make every rule fire on small inputs (a 1 KiB device,
 * byte-sized thresholds), for the check and annotate targets. */
#define FUZZ_LOW_THRESHOLDS                                                              \
	"--hbm", "1K", "--host-transfer-min-bytes", "0", "--replicated-min-bytes", "1",  \
	"--replicated-min-fraction", "0", "--padding-min-ratio", "1.01",                 \
	"--padding-min-bytes", "1", "--padding-min-fraction", "0",                       \
	"--loop-carry-min-bytes", "1", "--loop-carry-min-fraction", "0",                 \
	"--donation-min-bytes", "1"
#endif
