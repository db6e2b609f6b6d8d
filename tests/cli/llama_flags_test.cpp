// Every flag of the pinned llama-server (common_params_parser_init for LLAMA_EXAMPLE_SERVER: the
// list its --help prints) through the real `sfcl serve` parser: each is accepted, or refused with
// the one message that names it and says why. Plus what the flags that change sizes mean.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "arg.h"

namespace {

struct Result {
  int rc = -1;
  std::string out;  // stdout and stderr
};

std::string quote(const std::string& s) {
  std::string q = "'";
  for (const char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

Result sfcl_serve(const std::vector<std::string>& args) {
  std::string cmd = quote(std::getenv("SFCL")) + " serve -m x.gguf --test-print-settings";
  for (const auto& a : args) cmd += " " + quote(a);
  cmd += " 2>&1";
  Result r;
  FILE* p = popen(cmd.c_str(), "r");
  std::array<char, 4096> buf{};
  size_t n = 0;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
  const int status = pclose(p);
  r.rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

// A value sfcl's own range checks take, for the flags it accepts; any other flag gets "1".
std::string sample_value(const std::string& flag) {
  static const std::map<std::string, std::string> values = {
      {"-c", "4096"},
      {"--ctx-size", "4096"},
      {"-b", "512"},
      {"--batch-size", "512"},
      {"-fa", "auto"},
      {"--flash-attn", "auto"},
      {"-ctk", "f16"},
      {"--cache-type-k", "f16"},
      {"-ctv", "f16"},
      {"--cache-type-v", "f16"},
      {"-sm", "layer"},
      {"--split-mode", "layer"},
      {"--host", "0.0.0.0"},
      {"--reasoning-format", "auto"},
      {"-rea", "off"},
      {"--reasoning", "off"},
      {"--reasoning-effort", "high"},
      {"--chat-template-kwargs", "{}"},
      {"--chat-template", "chatml"},
      {"--kv-unified-per-slot", "2048"},
      {"--pooling", "mean"},
      {"--lora", "adapter.gguf"},
      {"--lora-scaled", "adapter.gguf:0.5"},
      {"--chat-template-file", SFCL_SOURCE_DIR "/tests/cli/cli_test.sh"},
      {"--api-key-file", SFCL_SOURCE_DIR "/tests/cli/cli_test.sh"}};
  const auto it = values.find(flag);
  return it == values.end() ? "1" : it->second;
}

TEST(LlamaServerFlags, EachIsAcceptedOrRefusedNamingItAndWhy) {
  common_params params;
  common_params_context ctx = common_params_parser_init(params, LLAMA_EXAMPLE_SERVER);
  size_t accepted = 0, refused = 0;
  for (const common_arg& opt : ctx.options) {
    if (opt.is_preset_only) continue;
    const int n_values = opt.handler_str_str != nullptr ? 2 : (opt.handler_string || opt.handler_int) ? 1 : 0;
    std::vector<std::string> spellings(opt.args.begin(), opt.args.end());
    spellings.insert(spellings.end(), opt.args_neg.begin(), opt.args_neg.end());
    for (const std::string& flag : spellings) {
      if (flag == "-h" || flag == "--help" || flag == "--usage") continue;  // prints help, exit 0
      std::vector<std::string> args = {flag};
      const bool negated = flag.find("--no-") == 0 || flag.find("-no-") == 0 || flag == "-nocb" || flag == "-nkvo" ||
                           flag == "-nr" || flag == "-ndio";
      for (int i = 0; !negated && i < n_values; ++i) args.push_back(sample_value(flag));
      const Result r = sfcl_serve(args);
      if (r.rc == 0) {
        ++accepted;
        continue;
      }
      ++refused;
      EXPECT_EQ(r.rc, 2) << flag << ": " << r.out;
      const std::string head = "sfcl: error: unsupported option " + flag + ": ";
      EXPECT_EQ(r.out.rfind(head, 0), 0U) << flag << " is not refused in the one wording: " << r.out;
      EXPECT_GT(r.out.size(), head.size() + 20) << flag << ": no reason: " << r.out;
      EXPECT_NE(r.out.find("(see --help)\n"), std::string::npos) << r.out;
    }
  }
  EXPECT_GT(accepted, 60U);
  EXPECT_GT(refused, 100U);
  std::printf("llama-server spellings: %zu accepted, %zu refused\n", accepted, refused);
}

TEST(LlamaServerFlags, EmbeddingsAreOnlyServedWhenAskedFor) {
  EXPECT_NE(sfcl_serve({}).out.find("\"embeddings\":false"), std::string::npos);
  for (const char* flag : {"--embeddings", "--embedding"}) {
    EXPECT_NE(sfcl_serve({flag, "--pooling", "last"}).out.find("\"embeddings\":true"), std::string::npos) << flag;
  }
  EXPECT_NE(sfcl_serve({"--embedding-model", "e.gguf"}).out.find("\"embeddings\":true"), std::string::npos);
  EXPECT_EQ(sfcl_serve({"--rerank"}).rc, 2);
}

TEST(LlamaServerFlags, WarmupIsOnUnlessTurnedOff) {
  EXPECT_NE(sfcl_serve({}).out.find(R"("warmup":true)"), std::string::npos);
  EXPECT_NE(sfcl_serve({"--no-warmup"}).out.find(R"("warmup":false)"), std::string::npos);
  EXPECT_NE(sfcl_serve({"--no-warmup", "--warmup"}).out.find(R"("warmup":true)"), std::string::npos);
}

TEST(LlamaServerFlags, ReasoningSetsTheTemplateVariables) {
  EXPECT_NE(sfcl_serve({"--reasoning", "off"}).out.find(R"("enable_thinking":"false")"), std::string::npos);
  EXPECT_NE(sfcl_serve({"-rea", "on"}).out.find(R"("enable_thinking":"true")"), std::string::npos);
  // auto is the template's own default: no variable of its own, and --chat-template-kwargs' stays.
  EXPECT_EQ(sfcl_serve({"--reasoning", "auto"}).out.find("enable_thinking"), std::string::npos);
  EXPECT_NE(sfcl_serve({"--chat-template-kwargs", R"({"enable_thinking": false})", "--reasoning", "auto"})
                .out.find(R"("enable_thinking":"false")"),
            std::string::npos);
  EXPECT_NE(sfcl_serve({"--reasoning-effort", "low"}).out.find(R"("reasoning_effort":"\"low\"")"), std::string::npos);
  EXPECT_EQ(sfcl_serve({"--reasoning-effort", "default"}).out.find("reasoning_effort"), std::string::npos);
  EXPECT_EQ(sfcl_serve({"--reasoning", "maybe"}).rc, 2);
}

TEST(LlamaServerFlags, ContextIsTheTotalSplitOverTheSlots) {
  EXPECT_NE(sfcl_serve({"-c", "4096", "-np", "4"}).out.find("\"n_ctx_per_slot\":1024,"), std::string::npos);
  EXPECT_NE(sfcl_serve({"-np", "4", "--ctx-size", "4096"}).out.find("\"n_ctx_per_slot\":1024,"), std::string::npos);
  // llama.cpp rounds each slot's share up to a multiple of 256.
  EXPECT_NE(sfcl_serve({"-c", "256", "-np", "3"}).out.find("\"n_ctx_per_slot\":256,"), std::string::npos);
  // sfcl's --ctx is per slot; the later of the two wins.
  EXPECT_NE(sfcl_serve({"-c", "4096", "--ctx", "512"}).out.find("\"n_ctx_per_slot\":512,"), std::string::npos);
  EXPECT_NE(sfcl_serve({"--ctx", "512", "-c", "8192"}).out.find("\"n_ctx_per_slot\":2048,"), std::string::npos);
  EXPECT_NE(sfcl_serve({"--kv-unified-per-slot", "2048"}).out.find("\"n_ctx_per_slot\":2048,"), std::string::npos);
  EXPECT_NE(sfcl_serve({"-np", "-1"}).out.find("\"n_parallel\":4,"), std::string::npos);
}

TEST(LlamaServerFlags, ALlamaServerCommandLineMeansWhatItSays) {
  const Result r =
      sfcl_serve({"-c",          "4096",           "-np",  "4",         "-cb", "--metrics",     "--slots",
                  "--no-webui",  "--threads-http", "4",    "--timeout", "600", "--cache-reuse", "256",
                  "--no-warmup", "--log-disable",  "-ngl", "99",        "-a",  "one,two",       "--api-key",
                  "k1,k2"});
  ASSERT_EQ(r.rc, 0) << r.out;
  for (const char* want : {"\"n_ctx_per_slot\":1024,", "\"n_parallel\":4,", "\"ui\":false", "\"body_timeout_s\":600.0",
                           "\"write_timeout_s\":600.0", "\"header_timeout_s\":600.0", "\"n_gpu_layers\":99",
                           "\"aliases\":[\"one\",\"two\"]", "\"api_keys\":2"}) {
    EXPECT_NE(r.out.find(want), std::string::npos) << want << " in " << r.out;
  }
}

TEST(LlamaServerFlags, UnknownOptionsHaveOneWording) {
  for (const char* flag : {"--no-such-flag", "-xyz"}) {
    const Result r = sfcl_serve({flag});
    EXPECT_EQ(r.rc, 2);
    EXPECT_EQ(r.out, std::string("sfcl: error: unknown option ") + flag + " (see --help)\n");
  }
}

}  // namespace
