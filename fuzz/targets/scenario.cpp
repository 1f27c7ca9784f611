// Fuzz target 'scenario': the scenario parser on arbitrary text: a clean one-line error or a
// scenario that survives its canonical text (and then runs like the others).
// Built for libFuzzer, AFL++ and the replay driver from this one source;
// NIOV_FUZZ_DECODE_ONLY builds the decode-only baseline of the speed ratio.
#include "harness.hpp"

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
#ifndef NIOV_FUZZ_DECODE_ONLY
	niov::fuzz::initialize(niov::fuzz::Target::scenario);
#endif
	return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
#ifdef NIOV_FUZZ_DECODE_ONLY
	return niov::fuzz::decode_only(niov::fuzz::Target::scenario, data, size);
#else
	return niov::fuzz::run_target(niov::fuzz::Target::scenario, data, size);
#endif
}
