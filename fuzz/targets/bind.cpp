// Fuzz target 'bind': configuration + sg table + one-element probe sends: TX sizing, bind and
// RX queue errnos, the niov table, get_niov_at and the DMA byte map.
// Built for libFuzzer, AFL++ and the replay driver from this one source;
// NIOV_FUZZ_DECODE_ONLY builds the decode-only baseline of the speed ratio.
#include "harness.hpp"

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
#ifndef NIOV_FUZZ_DECODE_ONLY
	niov::fuzz::initialize(niov::fuzz::Target::bind);
#endif
	return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
#ifdef NIOV_FUZZ_DECODE_ONLY
	return niov::fuzz::decode_only(niov::fuzz::Target::bind, data, size);
#else
	return niov::fuzz::run_target(niov::fuzz::Target::bind, data, size);
#endif
}
