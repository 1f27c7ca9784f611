#include "frag_arena.hpp"

#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <array>
#include <cstring>
#include <new>

#include <fmt/format.h>

#include "breadcrumb.hpp"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NIOV_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define NIOV_ASAN 1
#endif
#ifdef NIOV_ASAN
#include <sanitizer/asan_interface.h>
#endif

namespace niov {

namespace {

constexpr size_t kPage = 4096;
constexpr size_t kCanary = 64;
constexpr unsigned char kCanaryByte = 0xa5;
#ifdef NIOV_ASAN
// Frags past the array in the same block: poisoned, so an ASan-built plugin
// writing there is reported at once, and canary bytes, so an uninstrumented
// one is caught after the call.
constexpr size_t kTail = 64;
#endif

#ifndef NIOV_ASAN
constexpr size_t kGuard = 64 * 1024;  // a frag index up to ~2700 past the end lands in it

// The arrays the signal handler knows (their guard regions); a process has
// one arena per loaded plugin.
struct GuardSlot {
	const unsigned char *guard;
	const niov_frag *frags;
	uint32_t max;
};
constexpr int kSlots = 16;
GuardSlot g_slots[kSlots];
struct sigaction g_old_segv, g_old_bus;

// Decimal digits of @v at @p, for the handler (no stdio there).
char *put_number(char *p, uint64_t v) {
	char tmp[24];
	int n = 0;
	do
		tmp[n++] = static_cast<char>('0' + v % 10);
	while ((v /= 10) && n < 24);
	while (n)
		*p++ = tmp[--n];
	return p;
}

char *put(char *p, const char *s) {
	while (*s)
		*p++ = *s++;
	return p;
}

void on_fault(int sig, siginfo_t *si, void *) {
	const auto *addr = static_cast<const unsigned char *>(si->si_addr);
	for (const GuardSlot &s : g_slots) {
		if (!s.guard || addr < s.guard || addr >= s.guard + kGuard)
			continue;
		const auto past = static_cast<uint64_t>(addr - reinterpret_cast<const unsigned char *>(s.frags));
		char what[160];
		char *p = put(what, "fill wrote outside its frags: at frag ");
		p = put_number(p, past / sizeof(niov_frag));
		p = put(p, " of an array of ");
		p = put_number(p, s.max);
		p = put(p, " (MAX_SKB_FRAGS)");
		*p = 0;
		note_fault("abi.frags_outside", what);
		break;
	}
	// Whatever it was, the previous disposition deals with it when the
	// instruction faults again (the default: the process dies by @sig).
	sigaction(sig, sig == SIGSEGV ? &g_old_segv : &g_old_bus, nullptr);
}

void install_handler() {
	static const bool done = [] {
		struct sigaction sa {};
		sa.sa_sigaction = on_fault;
		sa.sa_flags = SA_SIGINFO;
		sigemptyset(&sa.sa_mask);
		sigaction(SIGSEGV, &sa, &g_old_segv);
		sigaction(SIGBUS, &sa, &g_old_bus);
		return true;
	}();
	(void)done;
}

GuardSlot *slot_of(const unsigned char *guard) {
	for (GuardSlot &s : g_slots)
		if (s.guard == guard)
			return &s;
	return nullptr;
}
#endif

}  // namespace

FragArena::~FragArena() {
#ifndef NIOV_ASAN
	if (!map_)
		return;
	if (GuardSlot *s = slot_of(map_ + kPage))
		*s = GuardSlot{};
	munmap(map_, kPage + kGuard);
#endif
}

void FragArena::place(uint32_t max) {
	max_ = max;
#ifdef NIOV_ASAN
	heap_.reset(new niov_frag[max + kTail]);
	frags_ = heap_.get();
	std::memset(frags_ + max, kCanaryByte, kTail * sizeof(niov_frag));
	ASAN_POISON_MEMORY_REGION(frags_ + max, kTail * sizeof(niov_frag));
#else
	if (!map_) {
		void *m = mmap(nullptr, kPage + kGuard, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (m == MAP_FAILED)
			throw std::bad_alloc();
		map_ = static_cast<unsigned char *>(m);
		mprotect(map_ + kPage, kGuard, PROT_NONE);
		install_handler();
		GuardSlot *s = slot_of(nullptr);
		if (s)
			*s = GuardSlot{map_ + kPage, nullptr, 0};
	}
	frags_ = reinterpret_cast<niov_frag *>(map_ + kPage - size_t{max} * sizeof(niov_frag));
	if (GuardSlot *s = slot_of(map_ + kPage)) {
		s->frags = frags_;
		s->max = max;
	}
	std::memset(reinterpret_cast<unsigned char *>(frags_) - kCanary, kCanaryByte, kCanary);
#endif
}

niov_frag *FragArena::load(const niov_frag *frags, uint32_t nr, uint32_t max) {
	static_assert(kCanary + 64 * sizeof(niov_frag) <= kPage);
	if (max != max_ || !frags_)
		place(max);
	if (nr > max)
		nr = max;
	std::memcpy(frags_, frags, size_t{nr} * sizeof(niov_frag));
	return frags_;
}

std::string FragArena::check_and_rearm() {
#ifdef NIOV_ASAN
	(void)map_;  // the guard page is the other builds'
	if (!frags_)
		return "";
	auto *tail = reinterpret_cast<unsigned char *>(frags_ + max_);
	constexpr size_t bytes = kTail * sizeof(niov_frag);
	static const auto intact = [] {
		std::array<unsigned char, bytes> a;
		a.fill(kCanaryByte);
		return a;
	}();
	ASAN_UNPOISON_MEMORY_REGION(tail, bytes);
	if (std::memcmp(tail, intact.data(), bytes) == 0) {
		ASAN_POISON_MEMORY_REGION(tail, bytes);
		return "";
	}
	size_t first = bytes;
	for (size_t i = 0; i < bytes && first == bytes; ++i)
		if (tail[i] != kCanaryByte)
			first = i;
	std::memset(tail, kCanaryByte, bytes);
	ASAN_POISON_MEMORY_REGION(tail, bytes);
	if (first == bytes)
		return "";
	return fmt::format("fill wrote outside its frags: at frag {} of an array of {} (MAX_SKB_FRAGS)",
			   max_ + first / sizeof(niov_frag), max_);
#else
	if (!map_)
		return "";
	unsigned char *canary = reinterpret_cast<unsigned char *>(frags_) - kCanary;
	static const auto intact = [] {
		std::array<unsigned char, kCanary> a;
		a.fill(kCanaryByte);
		return a;
	}();
	if (std::memcmp(canary, intact.data(), kCanary) == 0)
		return "";  // every fill of a correct plugin: one compare
	size_t changed = 0, first = kCanary;
	for (size_t i = 0; i < kCanary; ++i)
		if (canary[i] != kCanaryByte) {
			++changed;
			first = std::min(first, i);
		}
	if (!changed)
		return "";
	std::memset(canary, kCanaryByte, kCanary);
	return fmt::format("fill wrote outside its frags: {} bytes changed before the array (from {} bytes "
			   "before frag 0)",
			   changed, kCanary - first);
#endif
}

}  // namespace niov
