/* fuzz.h - the libFuzzer entry point shared by the fuzz targets and the
 * plain replay driver (replay.c), which feeds saved inputs to the same
 * function without libFuzzer. */
#ifndef HLO_FUZZ_H
#define HLO_FUZZ_H
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
#endif
