// Where outputs go and what they leave: a link at the destination written through (to a
// file that exists or not; a chain of links that loops refused), an output that is one of
// the command's inputs or another of its outputs refused before anything is written, and
// the temporary file of a write under way removed when a stop signal ends the process; a
// folder of files written whole or not at all, never over one that has entries.

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "rooftop/core/input_file.hpp"
#include "rooftop/core/output_file.hpp"
#include "support.hpp"

namespace rooftop::core {
namespace {

using rooftop::testing::error_of;
using rooftop::testing::read_bytes;
using rooftop::testing::TempDir;
using rooftop::testing::write_bytes;
namespace fs = std::filesystem;

TEST(OutputFile, ALinkIsWrittenThroughAndStays) {
  TempDir dir;
  write_bytes(dir.file("old.svg"), "old");
  fs::create_symlink("old.svg", dir.file("existing.svg"));
  fs::create_symlink("new.svg", dir.file("dangling.svg"));  // its file is not there yet
  write_text_file(dir.file("existing.svg"), "one");
  write_text_file(dir.file("dangling.svg"), "two");
  EXPECT_TRUE(fs::is_symlink(dir.file("existing.svg")));
  EXPECT_TRUE(fs::is_symlink(dir.file("dangling.svg")));
  EXPECT_EQ(read_bytes(dir.file("old.svg")), "one");
  EXPECT_EQ(read_bytes(dir.file("new.svg")), "two");
  EXPECT_EQ(dir.entries(),
            (std::vector<std::string>{"dangling.svg", "existing.svg", "new.svg", "old.svg"}));
}

TEST(OutputFile, ALoopOfLinksIsRefused) {
  TempDir dir;
  fs::create_symlink("b", dir.file("a"));
  fs::create_symlink("a", dir.file("b"));
  EXPECT_EQ(error_of([&] { write_text_file(dir.file("a"), "x"); }),
            dir.file("a") + ": a chain of links that does not end; not written through");
}

TEST(OutputFile, AnInputIsNeverAnOutput) {
  TempDir dir;
  const std::string input = dir.file("in.h5");
  write_bytes(input, "precious");
  fs::create_symlink("in.h5", dir.file("link.h5"));
  fs::create_hard_link(input, dir.file("hard.h5"));
  for (const std::string& out : {input, dir.file("link.h5"), dir.file("hard.h5"),
                                 dir.path().string() + "/./in.h5"})
    EXPECT_EQ(error_of([&] { check_writable(out, {dir.file("other.csv"), input}); }),
              out + ": is also an input of this command (" + input +
                  "); write the output to another file");
  EXPECT_NO_THROW(check_writable(dir.file("new.h5"), {input}));
  EXPECT_EQ(read_bytes(input), "precious");
}

TEST(OutputFile, TwoOutputsNeedTwoFiles) {
  TempDir dir;
  // Neither exists yet: the names are compared once resolved.
  const std::string out = dir.file("k.h5"), plot = dir.path().string() + "/./k.h5";
  EXPECT_EQ(error_of([&] { check_apart(out, plot); }),
            plot + ": names the same file as " + out +
                ", another output of this command; give each output its own file");
  EXPECT_NO_THROW(check_apart(out, dir.file("k.svg")));
  EXPECT_NO_THROW(check_apart(out, ""));
  // Inputs: the same file under two names, where it exists (else its reader says so).
  write_bytes(out, "report");
  EXPECT_EQ(error_of([&] { check_distinct({out, dir.file("a"), plot}, "counted twice"); }),
            plot + ": given twice (as " + out + "); counted twice");
  EXPECT_EQ(error_of([&] { check_distinct({"x.csv", "x.csv"}, "counted twice"); }),
            "x.csv: given twice; counted twice");
}

TEST(OutputFile, TemporaryFilesUnderWayCanBeRemoved) {
  TempDir dir;
  {
    TempFile tmp(dir.file("out.h5"));
    ASSERT_EQ(dir.entries().size(), 1u);
    remove_temporary_files();
    EXPECT_TRUE(dir.entries().empty());
  }
  TempFile kept(dir.file("kept.h5"));
  kept.commit();
  remove_temporary_files();  // a committed file is the output, not a temporary
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"kept.h5"});
}

// A process stopped while it writes (SIGTERM from a batch system, Ctrl-C) leaves no
// temporary file beside the destination, and still ends by the signal.
TEST(OutputFile, AStopSignalLeavesNoTemporaryFile) {
  TempDir dir;
  for (int sig : {SIGTERM, SIGINT, SIGHUP}) {
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      remove_temporary_files_when_stopped();
      TempFile tmp(dir.file("out.h5"));
      raise(sig);
      _exit(0);  // not reached: the signal ends the process
    }
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == sig) << status;
    EXPECT_TRUE(dir.entries().empty()) << sig << ": " << dir.entries().front();
  }
}

TEST(OutputFolder, WrittenWholeOrNotAtAll) {
  TempDir dir;
  write_text_folder(dir.file("out/"), {{"a.section", "one"}, {"b.section", "two"}});
  EXPECT_EQ(TempDir::entries_of(dir.file("out")),
            (std::vector<std::string>{"a.section", "b.section"}));
  EXPECT_EQ(read_bytes(dir.file("out/b.section")), "two");
  // A file that cannot be written: the ones before it go too.
  EXPECT_THROW(write_text_folder(dir.file("next"), {{"a.section", "one"}, {"x/y", "two"}}), Error);
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"out"});
  fs::create_directory(dir.file("empty"));
  write_text_folder(dir.file("empty"), {{"a.section", "new"}});
  EXPECT_EQ(read_bytes(dir.file("empty/a.section")), "new");
}

TEST(OutputFolder, NeverOverAFileALinkOrAFolderWithEntries) {
  TempDir dir;
  write_bytes(dir.file("file"), "kept");
  fs::create_symlink("file", dir.file("link"));
  EXPECT_NE(error_of([&] { check_folder_writable(dir.file("file")); }).find("is a file"),
            std::string::npos);
  EXPECT_NE(error_of([&] { check_folder_writable(dir.file("link")); }).find("symbolic link"),
            std::string::npos);
  EXPECT_NE(error_of([&] { check_folder_writable(dir.path().string()); }).find("files in it"),
            std::string::npos);
  EXPECT_NE(error_of([&] { check_folder_writable(dir.file("file/out")); }).find("cannot create"),
            std::string::npos);
  EXPECT_EQ(dir.entries(), (std::vector<std::string>{"file", "link"}));
}

}  // namespace
}  // namespace rooftop::core
