// Progress of long commands: a bar redrawn in place on a terminal, plain lines in a log.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "support/run_command.h"
#include "tools/progress.h"

namespace {

std::string sfcl_bin() { return std::getenv("SFCL"); }

TEST(Progress, PlainLineWhenNotATerminalWithCountRateEtaAndNote) {
  testing::internal::CaptureStderr();  // not a terminal
  {
    sfcl::tools::Progress p("work", 4, "items");
    p.advance(3);
    p.note("loss 1.5");
    p.set(4);
  }
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("work: 4/4 items (100%), "), std::string::npos) << err;
  EXPECT_NE(err.find(" items/s, took 00:00, loss 1.5\n"), std::string::npos) << err;
  EXPECT_EQ(err.find('\r'), std::string::npos) << err;
}

TEST(Progress, HiddenRateAndNothingForAnEmptyTotal) {
  testing::internal::CaptureStderr();
  {
    sfcl::tools::Progress p("train", 10, "s");
    p.hide_rate();
    p.set(20);  // clamped to the total
  }
  { sfcl::tools::Progress none("none", 0, "items"); }
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(err, "train: 10/10 s (100%), took 00:00\n");
}

// The real binary: make-eval-set draws a bar on a pseudo-terminal (script(1)) and writes plain
// lines into a pipe.
TEST(Progress, MakeEvalSetOnATerminalAndInAPipe) {
  const auto out = std::filesystem::temp_directory_path() / "sfcl-progress-eval.jsonl";
  const std::string cmd = sfcl_bin() + " make-eval-set -n 30 --out " + out.string();
  int rc = 0;
  const std::string piped = sfcl::test::run(cmd + " 2>&1", rc);
  ASSERT_EQ(rc, 0) << piped;
  EXPECT_NE(piped.find("make-eval-set: 30/30 items (100%), "), std::string::npos) << piped;
  EXPECT_EQ(piped.find('\r'), std::string::npos) << piped;
  const std::string tty = sfcl::test::run("script -qec '" + cmd + "' /dev/null", rc);
  ASSERT_EQ(rc, 0) << tty;
  EXPECT_NE(tty.find("\rmake-eval-set [########################] 30/30 items, "), std::string::npos) << tty;
  EXPECT_NE(tty.find("took 00:00"), std::string::npos) << tty;
  std::filesystem::remove(out);
}

}  // namespace
