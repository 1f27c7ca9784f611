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
