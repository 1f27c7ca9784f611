// Fuzz target 'config': RX rx-buf-size and zcrx rx_buf_len validation across page sizes,
// page_pool orders and driver capabilities.
// Built for libFuzzer, AFL++ and the replay driver from this one source;
// NIOV_FUZZ_DECODE_ONLY builds the decode-only baseline of the speed ratio.
#include "harness.hpp"

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
#ifndef NIOV_FUZZ_DECODE_ONLY
	niov::fuzz::initialize(niov::fuzz::Target::config);
#endif
	return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
#ifdef NIOV_FUZZ_DECODE_ONLY
	return niov::fuzz::decode_only(niov::fuzz::Target::config, data, size);
#else
	return niov::fuzz::run_target(niov::fuzz::Target::config, data, size);
#endif
}
