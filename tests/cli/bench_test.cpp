// sfcl bench --quick --json against real servers on 127.0.0.1: every field of the report is there
// and holds a plausible value; the SVG is a complete document. Not timed: numbers are not judged.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "server/server_process.h"
#include "support/run_command.h"

namespace sfcl::test {
namespace {

using json = nlohmann::json;

void expect_spread(const json& j, const std::string& what) {
  ASSERT_TRUE(j.is_object()) << what;
  for (const char* k : {"min", "median", "max"}) ASSERT_TRUE(j.contains(k) && j[k].is_number()) << what << "." << k;
  EXPECT_LE(j["min"].get<double>(), j["median"].get<double>()) << what;
  EXPECT_LE(j["median"].get<double>(), j["max"].get<double>()) << what;
}

TEST(Bench, QuickJsonHasEveryFieldForModesAndPeer) {
  ServerProcess peer({"--parallel", "2"});  // an OpenAI-compatible peer: another sfcl server
  const std::string bin = std::getenv("SFCL");
  const std::string set = std::string(SFCL_SOURCE_DIR) + "/demo/eval.jsonl";
  const auto svg = std::filesystem::temp_directory_path() / "sfcl-bench-test.svg";
  int rc = -1;
  const std::string out =
      run(bin + " bench --quick --json -t 1 --server-threads 1 -m " + tiny_model_path().string() + " --set " + set +
              " --peer-url http://127.0.0.1:" + std::to_string(peer.port()) + " --out " + svg.string(),
          rc);
  ASSERT_EQ(rc, 0) << out;
  const json j = json::parse(out);
  EXPECT_GE(j["machine"]["nproc"].get<int>(), 1);
  EXPECT_TRUE(j["machine"]["cpu"].is_string());
  EXPECT_TRUE(j["machine"]["date"].is_string());

  const json& m = j["modes"];
  EXPECT_EQ(m["reps"], 5);
  EXPECT_EQ(m["items"], 3);
  for (const char* mode : {"off", "anchor", "per-token"}) {
    for (const char* k :
         {"decode_tokens_per_s", "check_ns_per_token", "scan_ns_per_token", "verify_ns_per_token", "check_ms_total",
          "checks_per_1k_tokens", "anchors_per_1k_tokens", "backtracks_per_1k_tokens", "regenerated_per_1k_tokens",
          "decoded_tokens", "prompt_tokens_per_s", "time_to_first_text_ms", "tokens_to_first_text"}) {
      expect_spread(m["modes"][mode][k], std::string(mode) + "." + k);
    }
    EXPECT_GT(m["modes"][mode]["decode_tokens_per_s"]["min"].get<double>(), 0.0) << mode;
  }
  EXPECT_EQ(m["modes"]["off"]["check_ns_per_token"]["max"].get<double>(), 0.0);  // off checks nothing
  for (const char* mode : {"off", "anchor", "per-token"}) {
    EXPECT_GT(m["modes"][mode]["prompt_tokens_per_s"]["min"].get<double>(), 0.0) << mode;
    EXPECT_GT(m["modes"][mode]["time_to_first_text_ms"]["min"].get<double>(), 0.0) << mode;
    EXPECT_GE(m["modes"][mode]["tokens_to_first_text"]["min"].get<double>(), 1.0) << mode;
  }
  EXPECT_GT(m["peak_rss_mib"].get<double>(), 0.0);
  EXPECT_GT(m["model_bytes"].get<int64_t>(), 0);
  EXPECT_GT(m["copy_bandwidth_gbs"]["threads_1"].get<double>(), 0.0);
  expect_spread(m["ratios"]["anchor/off time to first text"], "anchor/off time to first text");
  for (const char* k : {"anchor/off decode", "per-token/off decode", "per-token/anchor check cost per token"}) {
    expect_spread(m["ratios"][k], k);
  }

  const json& p = j["peer"];
  EXPECT_EQ(p["peer"], "peer");
  EXPECT_TRUE(p["setup"]["client"].is_string());
  // SFCL off and on each on a server of their own (one shared prefix cache would favour the second).
  EXPECT_NE(p["setup"].at("sfcl_url"), p["setup"].at("sfcl_on_url"));
  // The servers started here run the configuration the report states, and it says how.
  const json& setup = p["setup"];
  EXPECT_TRUE(setup["peer_command"].empty());  // the peer ran elsewhere (--peer-url)
  const auto argv = setup.at("sfcl_off_command").get<std::vector<std::string>>();
  const auto has = [&argv](const std::string& a, const std::string& v) {
    for (size_t i = 0; i + 1 < argv.size(); ++i)
      if (argv[i] == a && argv[i + 1] == v) return true;
    return false;
  };
  EXPECT_TRUE(has("-b", std::to_string(setup.at("batch").get<int>()))) << setup.dump();
  EXPECT_TRUE(has("--cache-ram", std::to_string(setup.at("cache_ram_mib").get<int>()))) << setup.dump();
  EXPECT_EQ(std::count(argv.begin(), argv.end(), "--kv-unified"), setup.at("kv_unified").get<bool>() ? 1 : 0);
  EXPECT_EQ(setup.at("sfcl_on_command").size(), argv.size());
  ASSERT_EQ(p["results"].size(), 6U);  // concurrency 1 and 2, three targets each
  for (const auto& r : p["results"]) {
    EXPECT_TRUE(r["target"].is_string());
    EXPECT_EQ(r["errors"], 0) << r.dump();
    EXPECT_EQ(r["error_events"], 0) << r.dump();
    EXPECT_TRUE(r["short_completions"].is_number_integer()) << r.dump();
    expect_spread(r["requests_per_s"], "requests_per_s");
    expect_spread(r["generated_tokens_per_s"], "generated_tokens_per_s");
    EXPECT_GT(r["requests_per_s"]["median"].get<double>(), 0.0) << r.dump();
    EXPECT_GT(r["ttft_ms"]["p50"].get<double>(), 0.0) << r.dump();
    EXPECT_GE(r["ttft_ms"]["p95"].get<double>(), r["ttft_ms"]["p50"].get<double>());
    EXPECT_GE(r["inter_token_ms"]["p95"].get<double>(), r["inter_token_ms"]["p50"].get<double>());
    EXPECT_TRUE(r["peak_rss_mib"].is_number()) << r.dump();
  }
  ASSERT_EQ(p["throughput_ratios"].size(), 2U);
  for (const auto& r : p["throughput_ratios"]) {
    expect_spread(r["sfcl_off/peer"], "sfcl_off/peer");
    expect_spread(r["sfcl_on/peer"], "sfcl_on/peer");
  }

  std::ifstream f(svg);
  std::stringstream ss;
  ss << f.rdbuf();
  const std::string s = ss.str();
  EXPECT_EQ(s.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0), 0U);
  EXPECT_NE(s.find("</svg>\n"), std::string::npos);
  EXPECT_NE(s.find("<polyline"), std::string::npos);  // throughput vs concurrency
  // Every panel names both axes with units and has a legend.
  for (const char* label : {"SFCL mode", "decode rate (tokens/s)", "check time (ns/token)", "concurrent streams (c)",
                            "generated (tokens/s)", "time to first token (ms)", "inter-token latency (ms)",
                            ">per-token<", ">sfcl (SFCL on)<"}) {
    EXPECT_NE(s.find(label), std::string::npos) << label;
  }
  EXPECT_EQ(j["svg"], svg.string());
  std::filesystem::remove(svg);
}

TEST(Bench, ClearErrors) {
  const std::string bin = std::getenv("SFCL");
  int rc = -1;
  std::string out = run(bin + " bench -m /nonexistent.gguf 2>&1", rc);
  EXPECT_EQ(rc, 2);
  EXPECT_NE(out.find("model not found"), std::string::npos) << out;
  out = run(bin + " bench --no-modes -m " + tiny_model_path().string() + " --set " + std::string(SFCL_SOURCE_DIR) +
                "/demo/eval.jsonl 2>&1",
            rc);
  EXPECT_EQ(rc, 2);
  EXPECT_NE(out.find("nothing to run"), std::string::npos) << out;
  out = run(bin + " bench --concurrency 1,x -m " + tiny_model_path().string() + " --set " +
                std::string(SFCL_SOURCE_DIR) + "/demo/eval.jsonl 2>&1",
            rc);
  EXPECT_EQ(rc, 2);
  EXPECT_NE(out.find("--concurrency"), std::string::npos) << out;
  out = run(bin + " bench --quick --no-modes --peer llama-server --peer-bin /nonexistent/llama-server -m " +
                tiny_model_path().string() + " --set " + std::string(SFCL_SOURCE_DIR) + "/demo/eval.jsonl 2>&1",
            rc);
  EXPECT_EQ(rc, 2);
  EXPECT_NE(out.find("no llama-server binary"), std::string::npos) << out;
}

}  // namespace
}  // namespace sfcl::test
