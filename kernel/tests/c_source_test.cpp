// The extractor and prototype reader on C that trips naive scanners:
// braces and parentheses in comments, strings and character literals,
// a prototype before the definition, directives, attributes.
#include <gtest/gtest.h>

#include "c_source.hpp"

using namespace niov::kernel;

namespace {

const char kFile[] =
	"#include <x.h>\n"
	"/* int fill(int a) { */\n"
	"static int fill(struct sk_buff *skb, int length);\n"
	"static const char *s = \"fill(1) { }\";\n"
	"#define X(a) { fill(a); }\n"
	"static int other(void) { return '}' + fill(0, 1); }\n"
	"static int\n"
	"fill(struct sk_buff *skb, // the skb {\n"
	"     int length)\n"
	"{\n"
	"\tif (length) { return \"}\"[0]; }\n"
	"\treturn 0;\n"
	"}\n"
	"int after;\n";

}  // namespace

TEST(CSource, BlankingKeepsOffsetsAndNewlines) {
	const std::string in = "a /* { */ \"}\" '{' // }\nb";
	const std::string out = blank_comments_and_literals(in);
	ASSERT_EQ(out.size(), in.size());
	EXPECT_EQ(out.find('{'), std::string::npos);
	EXPECT_EQ(out.find('}'), std::string::npos);
	EXPECT_EQ(out.back(), 'b');
	EXPECT_NE(out.find('\n'), std::string::npos);
}

TEST(CSource, FindsTheDefinitionNotThePrototypeOrACall) {
	const auto f = find_definition(kFile, "fill");
	ASSERT_TRUE(f);
	EXPECT_TRUE(f->definition);
	EXPECT_EQ(f->line, 7u);
	ASSERT_EQ(f->params.size(), 2u);
	EXPECT_EQ(f->params[0], "struct sk_buff *skb");  // the comment with its brace blanked
	const std::string body = std::string(kFile).substr(f->begin, f->end - f->begin);
	EXPECT_EQ(body.rfind("static int\nfill(", 0), 0u) << body;
	EXPECT_EQ(body.back(), '}');
	EXPECT_EQ(body.find("after"), std::string::npos);
}

TEST(CSource, FindsThePrototypeFirst) {
	const auto f = find_declaration(kFile, "fill");
	ASSERT_TRUE(f);
	EXPECT_FALSE(f->definition);
	EXPECT_EQ(f->line, 3u);
}

TEST(CSource, AbsentFunction) {
	EXPECT_FALSE(find_definition(kFile, "fil"));
	EXPECT_FALSE(find_definition(kFile, "X"));
}

TEST(CSource, ExtractNamesTheTreeFileAndLine) {
	const auto f = find_definition(kFile, "fill");
	ASSERT_TRUE(f);
	const std::string out = extract_function(kFile, *f, "/t/net/core/datagram.c");
	EXPECT_EQ(out.rfind("#line 7 \"/t/net/core/datagram.c\"\nstatic int\nfill(", 0), 0u) << out;
}

#include "sanitizer_report.hpp"

TEST(SanitizerReport, NamesTheTreesFunctionNotTheHarness) {
	const std::string report =
		"==1==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x6030 at pc 0x7f\n"
		"READ of size 8 at 0x6030 thread T0\n"
		"    #0 0x7f75 in net_devmem_get_niov_at /t/net/core/devmem.c:266\n"
		"    #1 0x7f75 in niov_k_lookup_guarded /src/kernel/adapters/tx_common.h:136\n"
		"allocated by thread T0 here:\n"
		"    #3 0x7f75 in net_devmem_bind_dmabuf /t/net/core/devmem.c:170\n";
	const auto f = parse_sanitizer_report(report);
	ASSERT_TRUE(f);
	EXPECT_EQ(f->kind, "heap-buffer-overflow");
	EXPECT_EQ(f->function, "net_devmem_get_niov_at");
	EXPECT_EQ(f->file, "/t/net/core/devmem.c");
	EXPECT_EQ(f->line, 266u);
	EXPECT_EQ(f->one_line(),
		  "heap-buffer-overflow in net_devmem_get_niov_at() at /t/net/core/devmem.c:266 (AddressSanitizer)");
}

TEST(SanitizerReport, UbsanAndNothing) {
	const auto f = parse_sanitizer_report("/t/lib/genalloc.c:90:3: runtime error: shift exponent 64\n");
	ASSERT_TRUE(f);
	EXPECT_EQ(f->file, "/t/lib/genalloc.c");
	EXPECT_EQ(f->line, 90u);
	EXPECT_FALSE(parse_sanitizer_report("all fine\n"));
}

// The kernel runtime's own report (kernel/runtime/alloc.c): the block's
// allocation site is named as such, not as where the write happened.
TEST(SanitizerReport, KernelRuntimeCheckNamesTheAllocationSite) {
	const auto f = parse_sanitizer_report(
		"niov-kernel: WARNING at x\n"
		"==4711==ERROR: KernelRuntimeCheck: heap-buffer-overflow WRITE past a 128-byte block allocated in "
		"binding_alloc_tables() at /t/net/core/devmem.c:148\n"
		"    the bytes at offsets 160..191 of the block changed (its trailing redzone), found after a call\n"
		"SUMMARY: KernelRuntimeCheck: heap-buffer-overflow binding_alloc_tables() at /t/net/core/devmem.c:148\n");
	ASSERT_TRUE(f);
	EXPECT_EQ(f->sanitizer, "KernelRuntimeCheck");
	EXPECT_EQ(f->kind, "heap-buffer-overflow WRITE past a 128-byte block");
	EXPECT_EQ(f->function, "binding_alloc_tables");
	EXPECT_EQ(f->file, "/t/net/core/devmem.c");
	EXPECT_EQ(f->line, 148u);
	EXPECT_EQ(f->one_line(), "heap-buffer-overflow WRITE past a 128-byte block allocated in binding_alloc_tables() at "
				 "/t/net/core/devmem.c:148 (KernelRuntimeCheck)");
	const auto left = parse_sanitizer_report(
		"==4711==ERROR: KernelRuntimeCheck: state-left-behind: after every binding was unbound the code still holds "
		"1 binding(s) (1 references) and 0 rx queue(s)\n");
	ASSERT_TRUE(left);
	EXPECT_EQ(left->one_line(), "state-left-behind: after every binding was unbound the code still holds 1 "
				    "binding(s) (1 references) and 0 rx queue(s) (KernelRuntimeCheck)");
}
