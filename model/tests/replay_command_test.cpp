// shell_quote makes any path one word that sh reads back unchanged, and
// leaves ordinary paths as they are (the replay commands stay readable);
// replay_command_line puts each path in as one word.
#include <cstdio>
#include <string>

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "replay_command.hpp"

namespace niov {
namespace {

// What sh makes of `printf %s WORD`.
std::string through_sh(const std::string &word) {
	const std::string cmd = "printf %s " + word;
	FILE *p = popen(cmd.c_str(), "r");
	std::string out;
	if (!p)
		return "<popen failed>";
	char buf[256];
	for (size_t n; (n = fread(buf, 1, sizeof(buf), p)) > 0;)
		out.append(buf, n);
	pclose(p);
	return out;
}

TEST(ShellQuote, OrdinaryPathsStayBare) {
	EXPECT_EQ(shell_quote("/work/build/bin/niovcheck"), "/work/build/bin/niovcheck");
	EXPECT_EQ(shell_quote("a-b_c.d:e=f@g%h+i,j"), "a-b_c.d:e=f@g%h+i,j");
	EXPECT_EQ(shell_quote(""), "''");
	EXPECT_EQ(shell_quote("a b"), "'a b'");
	EXPECT_EQ(shell_quote("it's"), "'it'\\''s'");
}

RC_GTEST_PROP(ShellQuote, ShReadsBackOneWord, ()) {
	// Printable ASCII, tab and newline: every character a shell may treat
	// specially, and a space so the word would split.
	const auto s = *rc::gen::container<std::string>(
		rc::gen::oneOf(rc::gen::inRange<char>(' ', '~' + 1), rc::gen::element('\t', '\n', '\'', ';', '*')));
	// Two words: a second word shows a split, and guards printf's own
	// reading of a word that starts with '-' or holds '%' (it is the
	// argument of the format %s, never the format).
	RC_ASSERT(through_sh(shell_quote(s) + " " + shell_quote("|end")) == s + "|end");
}

TEST(ReplayCommand, EachPathOneWord) {
	EXPECT_EQ(replay_command_line("/b/niovcheck", "/w/a b.scn", "/l/p.so", "--rules tx-autosize"),
		  "/b/niovcheck replay '/w/a b.scn' --impl /l/p.so --rules tx-autosize");
	EXPECT_EQ(replay_command_line("/b/niovcheck", "/w/x.scn", "", ""), "/b/niovcheck replay /w/x.scn");
}

}  // namespace
}  // namespace niov
