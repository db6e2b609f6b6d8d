// The playground's files as the binary holds them (generated from web/ and clients/js/ at build time).
#include "server/app/ui.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(Ui, ServesThePageAndItsFilesWithTheirTypes) {
  using sfcl::server::ui_asset;
  ASSERT_TRUE(ui_asset("/"));
  EXPECT_EQ(ui_asset("/")->content_type, "text/html; charset=utf-8");
  EXPECT_EQ(ui_asset("/ui/playground.js")->content_type, "text/javascript; charset=utf-8");
  EXPECT_EQ(ui_asset("/ui/playground.css")->content_type, "text/css; charset=utf-8");
  EXPECT_EQ(ui_asset("/ui/example.txt")->content_type, "text/plain; charset=utf-8");
  EXPECT_FALSE(ui_asset("/ui/missing.js"));
  EXPECT_FALSE(ui_asset("/index.html"));
  EXPECT_TRUE(sfcl::server::is_ui_path("/ui/playground.js"));
  EXPECT_FALSE(sfcl::server::is_ui_path("/v1/messages"));
}

TEST(Ui, EmbeddedBytesAreTheFilesInTheTree) {
  const std::string root = SFCL_SOURCE_DIR;
  EXPECT_EQ(sfcl::server::ui_asset("/")->body, read_file(root + "/web/index.html"));
  EXPECT_EQ(sfcl::server::ui_asset("/ui/playground.js")->body, read_file(root + "/web/playground.js"));
  EXPECT_EQ(sfcl::server::ui_asset("/ui/anchorstream.js")->body, read_file(root + "/clients/js/anchorstream.js"));
}

TEST(Ui, EveryLocalReferenceOfThePageResolvesAndNothingComesFromElsewhere) {
  const std::string page(sfcl::server::ui_asset("/")->body);
  // Every src="..." and href="..." (a plain scan: GCC 12 warns inside <regex> under -fsanitize).
  int refs = 0;
  for (const std::string attr : {" src=\"", " href=\""}) {
    for (size_t at = page.find(attr); at != std::string::npos; at = page.find(attr, at + 1)) {
      const size_t from = at + attr.size();
      const std::string target = page.substr(from, page.find('"', from) - from);
      ++refs;
      if (target.starts_with("data:")) continue;  // inline (the empty favicon)
      EXPECT_TRUE(sfcl::server::ui_asset(target)) << target;
    }
  }
  EXPECT_GE(refs, 2);
  const std::string script(sfcl::server::ui_asset("/ui/playground.js")->body);
  EXPECT_NE(script.find("from './anchorstream.js'"), std::string::npos);  // served next to it
  EXPECT_EQ(script.find("http://"), std::string::npos);
  EXPECT_EQ(script.find("https://"), std::string::npos);
}

}  // namespace
