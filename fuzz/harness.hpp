// What every fuzz target does with its input: decode it, run the model and
// (with $NIOV_IMPL) the plugin, and abort with one line naming the invariant
// and the replay command on anything that is not a known finding.
#pragma once

#include <cstddef>
#include <cstdint>

#include "decode.hpp"
#include "pin.hpp"

namespace niov::fuzz {

// The body of LLVMFuzzerTestOneInput: 0, or -1 for an input the fuzzer
// should not keep (over the work budget).  Aborts on a failure, unless
// $NIOV_FUZZ_KEEP_GOING is set (speed measurements while a finding is open):
// then it prints the failure line and goes on.
// Before the first input (LLVMFuzzerInitialize): the plugin of $NIOV_IMPL is
// loaded here, so one that cannot load ends the run with its own exit code
// and message, not libFuzzer's "fuzz target exited" from inside an input.
void initialize(Target t);
int run_target(Target t, const uint8_t *data, size_t size);

// The decode-only baseline of the speed ratio: decode (or parse) and stop.
int decode_only(Target t, const uint8_t *data, size_t size);

// Stdout back from the plugin's trap, for a driver's own output after its
// last input.
void release_stdout();
// The replay driver names the file it runs, so failures can say which.
void set_input_path(const char *path);

}  // namespace niov::fuzz
