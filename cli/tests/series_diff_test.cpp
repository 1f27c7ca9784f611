// Splitting patches and mailboxes as `kernel series` reads them.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "args.hpp"
#include "series_diff.hpp"
#include "series_input.hpp"

namespace niov::cli {
namespace {

const char *const kMail =
	"From 5fc0b5cf17654d35e5c0ff916fbfd9b6c90519f6 Mon Sep 17 00:00:00 2001\n"
	"From: someone <a@b.invalid>\n"
	"Subject: [PATCH net-next v2 2/3] net: devmem: one\n"
	" two\n"
	"\n"
	"A message with a --- line below.\n"
	"---\n"
	" net/core/devmem.c | 3 ++-\n"
	"\n"
	"diff --git a/net/core/devmem.c b/net/core/devmem.c\n"
	"index 1..2 100644\n"
	"--- a/net/core/devmem.c\n"
	"+++ b/net/core/devmem.c\n"
	"@@ -10,4 +10,5 @@ int f(void)\n"
	" a\n"
	"-b\n"
	"+c\n"
	"+d\n"
	"\n"  // a context line whose blank the mailer stripped
	" e\n"
	"@@ -40 +41 @@\n"
	"-x\n"
	"+y\n"
	"\\ No newline at end of file\n"
	"diff --git a/Documentation/x.rst b/Documentation/x.rst\n"
	"new file mode 100644\n"
	"--- /dev/null\n"
	"+++ b/Documentation/x.rst\n"
	"@@ -0,0 +1 @@\n"
	"+text\n"
	"-- \n"
	"2.39.5\n";

TEST(SeriesDiff, SplitsAGitMailIntoFileSections) {
	const auto s = diff_sections(kMail);
	ASSERT_EQ(s.size(), 2u);
	EXPECT_EQ(s[0].path, "net/core/devmem.c");
	ASSERT_EQ(s[0].hunks.size(), 2u);
	EXPECT_EQ(s[0].hunks[0].old_count, 4u);
	EXPECT_EQ(s[0].hunks[0].new_count, 5u);
	EXPECT_EQ(s[0].hunks[1].old_start, 40u);
	EXPECT_EQ(s[0].hunks[1].new_count, 1u);
	EXPECT_EQ(s[0].added, 3u);
	EXPECT_EQ(s[0].removed, 2u);
	EXPECT_NE(s[0].text.find("\\ No newline"), std::string::npos);
	EXPECT_EQ(s[0].text.find("Documentation"), std::string::npos);
	EXPECT_EQ(s[1].path, "Documentation/x.rst");
	EXPECT_TRUE(s[1].created);
	EXPECT_EQ(s[1].text.find("2.39.5"), std::string::npos);  // the signature is no hunk line
}

TEST(SeriesDiff, PlainDiffsAndRenames) {
	const auto plain = diff_sections("--- a/lib/genalloc.c\t2026-01-01\n+++ b/lib/genalloc.c\t2026-01-02\n@@ -1 +1 @@\n-a\n+b\n");
	ASSERT_EQ(plain.size(), 1u);
	EXPECT_EQ(plain[0].path, "lib/genalloc.c");
	const auto ren = diff_sections("diff --git a/net/core/a.h b/net/core/b.h\nsimilarity index 90%\nrename from net/core/a.h\n"
				       "rename to net/core/b.h\n");
	ASSERT_EQ(ren.size(), 1u);
	EXPECT_EQ(ren[0].old_path, "net/core/a.h");
	EXPECT_EQ(ren[0].path, "net/core/b.h");
	EXPECT_TRUE(ren[0].hunks.empty());
}

TEST(SeriesDiff, AShortHunkIsOneLine) {
	try {
		diff_sections("--- a/x.c\n+++ b/x.c\n@@ -1,3 +1,3 @@\n a\n-b\n");
		FAIL() << "no error";
	} catch (const DiffError &e) {
		EXPECT_NE(std::string(e.what()).find("x.c: hunk @@ -1,3 +1,3 @@ ends 3 lines short"), std::string::npos) << e.what();
	}
}

TEST(SeriesDiff, MailSubject) {
	EXPECT_EQ(mail_subject(kMail), "net: devmem: one two");
	EXPECT_EQ(mail_subject("Subject: [RFC] [PATCH 1/2] x: y\n\n"), "x: y");
	EXPECT_EQ(mail_subject("From: a\n\nSubject: in the body\n"), "");
}

struct TempFile {
	std::string path;
	explicit TempFile(const std::string &text)
		: path((std::filesystem::temp_directory_path() / ("series_diff_test." + std::to_string(::getpid()))).string()) {
		std::ofstream(path, std::ios::binary) << text;
	}
	~TempFile() { std::remove(path.c_str()); }
};

TEST(SeriesInput, AnMboxKeepsItsPatchesInOrder) {
	const std::string two = std::string(kMail);
	std::string second = two;
	second.replace(second.find("2/3] net: devmem: one"), 21, "3/3] net: devmem: three");
	const TempFile f("From git@z Thu Jan  1 00:00:00 1970\nSubject: [PATCH 0/3] cover\n\n"
			 "diff --git a/a b/a\n--- a/a\n+++ b/a\n@@ -1 +1 @@\n-a\n+b\n\n" +
			 two + "\n" + second +
			 "\nFrom git@z Thu Jan  1 00:00:00 1970\nSubject: Re: [PATCH 2/3] net: devmem: one\n\n"
			 "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n");
	const SeriesSource s = series_from_mbox("/base", f.path);
	ASSERT_EQ(s.patches.size(), 2u);
	EXPECT_EQ(s.patches[0].subject, "net: devmem: one two");
	EXPECT_EQ(s.patches[1].subject, "net: devmem: three two");
	EXPECT_NE(s.what.find("2 other messages skipped"), std::string::npos) << s.what;
}

TEST(SeriesInput, AnMboxWithoutAPatchIsBadInput) {
	const TempFile f("From git@z Thu Jan  1 00:00:00 1970\nSubject: [PATCH 0/1] cover\n\nno diff\n");
	EXPECT_THROW(series_from_mbox("/base", f.path), UsageError);
}

}  // namespace
}  // namespace niov::cli
