// The kernel runtime's allocator (kernel/runtime/alloc.c), compiled as a
// kernel plugin compiles it, on its own: a write one byte past or before a
// block is caught when the block is freed and by the sweep, the report
// names the block's size and the call site that allocated it, and the
// process stops; blocks used within their bounds pass every check.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>

extern "C" {
struct niov_k_site {
	const char *file;
	int line;
	const char *func;
};
void *niov_k_alloc(size_t size, unsigned int gfp, bool kv, const niov_k_site *site);
void niov_k_free(const void *p, const niov_k_site *site);
void niov_k_heap_check(const char *found);
long niov_k_guarded(long (*fn)(void *arg), void *arg, long on_bug);
}

namespace {

const niov_k_site kAllocSite{"/t/net/core/devmem.c", 148, "binding_alloc_tables"};
const niov_k_site kFreeSite{"/t/net/core/devmem.c", 77, "binding_teardown"};

unsigned char *block(size_t size) {
	auto *p = static_cast<unsigned char *>(niov_k_alloc(size, 0, false, &kAllocSite));
	EXPECT_NE(p, nullptr);
	return p;
}

TEST(AllocRedzone, BlocksUsedInBoundsPassEveryCheck) {
	unsigned char *live[8];
	const size_t sizes[] = {0, 1, 13, 16, 17, 64, 4096, 100000};
	for (size_t i = 0; i < 8; ++i) {
		live[i] = block(sizes[i]);
		std::memset(live[i], 0, sizes[i]);
		std::memset(live[i], 0xff, sizes[i]);
	}
	niov_k_heap_check("by the test");
	for (size_t i = 0; i < 8; i += 2)
		niov_k_free(live[i], &kFreeSite);
	niov_k_heap_check("by the test");
	for (size_t i = 1; i < 8; i += 2)
		niov_k_free(live[i], &kFreeSite);
	niov_k_heap_check("by the test");
}

// Each write out of bounds happens inside the death test's child, so the
// blocks here stay whole for the checks that follow.
TEST(AllocRedzone, OneBytePastIsCaughtAtFree) {
	unsigned char *p = block(13);
	EXPECT_DEATH(
		{
			p[13] = 0;
			niov_k_free(p, &kFreeSite);
		},
		"ERROR: KernelRuntimeCheck: heap-buffer-overflow WRITE past a 13-byte block allocated in "
		"binding_alloc_tables\\(\\) at /t/net/core/devmem.c:148\n"
		".*offsets 13\\.\\.13 of the block changed \\(its trailing redzone\\), found when "
		"binding_teardown\\(\\) at /t/net/core/devmem.c:77 freed it");
	niov_k_free(p, &kFreeSite);
}

TEST(AllocRedzone, OneBytePastIsCaughtByTheSweep) {
	unsigned char *p = block(64);
	unsigned char *other = block(32);
	EXPECT_DEATH(
		{
			p[64] ^= 1;
			niov_k_heap_check("by the test's sweep");
		},
		"heap-buffer-overflow WRITE past a 64-byte block allocated in binding_alloc_tables.*\n"
		".*offsets 64\\.\\.64 .*found by the test's sweep");
	niov_k_heap_check("by the test");
	niov_k_free(other, &kFreeSite);
	niov_k_free(p, &kFreeSite);
}

TEST(AllocRedzone, OneByteBeforeIsCaughtAtFreeAndByTheSweep) {
	unsigned char *p = block(24);
	EXPECT_DEATH(
		{
			p[-1] ^= 0x10;
			niov_k_heap_check("by the test's sweep");
		},
		"heap-buffer-overflow WRITE before a 24-byte block allocated in binding_alloc_tables.*\n"
		".*offsets -1\\.\\.-1 of the block changed \\(its leading redzone\\), found by the test's sweep");
	EXPECT_DEATH(
		{
			p[-1] ^= 0x10;
			niov_k_free(p, &kFreeSite);
		},
		"WRITE before a 24-byte block.*\n.*found when binding_teardown");
	niov_k_free(p, &kFreeSite);
}

// An array of 64-byte structs one element short: the fields of the element
// past its end (net_iov_init() past area.niovs) land in the redzone.
TEST(AllocRedzone, AWholeStructPastTheEndIsCaught) {
	unsigned char *p = block(2 * 64);
	EXPECT_DEATH(
		{
			std::memset(p + 2 * 64 + 32, 0, 32);
			niov_k_heap_check("by the test's sweep");
		},
		"WRITE past a 128-byte block.*\n.*offsets 160\\.\\.191 ");
	niov_k_free(p, &kFreeSite);
}

struct Overrun {
	size_t size;
	unsigned char *p = nullptr;
};

long allocate_and_overrun(void *arg) {
	auto *o = static_cast<Overrun *>(arg);
	o->p = static_cast<unsigned char *>(niov_k_alloc(o->size, 0, true, &kAllocSite));
	o->p[o->size] = 0;
	return 0;
}

long overrun_only(void *arg) {
	auto *o = static_cast<Overrun *>(arg);
	o->p[o->size] = 0;
	return 0;
}

// A call into the code that allocated is checked as it returns; one that
// did not (a fill, a lookup) is left to the next sweep.
TEST(AllocRedzone, AGuardedCallThatAllocatedIsChecked) {
	Overrun o{40};
	EXPECT_DEATH(niov_k_guarded(allocate_and_overrun, &o, -1),
		     "WRITE past a 40-byte block.*\n.*found after a call into the code that allocated or freed");
	o.p = block(40);
	EXPECT_DEATH(
		{
			if (niov_k_guarded(overrun_only, &o, -1) == 0)
				niov_k_heap_check("by the sweep after it");
		},
		"WRITE past a 40-byte block.*\n.*found by the sweep after it");
	niov_k_free(o.p, &kFreeSite);
}

}  // namespace
