// POST /slots/{id}?action=save|restore|erase and a request's id_slot on the real `sfcl serve`
// (127.0.0.1), as llama.cpp's test_slot_save.py drives llama-server: a prompt cached in one slot is
// saved, restored into another and reused there; the file is llama-server's format; bad names,
// slots, actions and files are 4xx in OpenAI's error shape and the server keeps serving.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <vector>

#include "server/server_process.h"

namespace sfcl::test {
namespace {

using nlohmann::json;

std::filesystem::path slot_dir() {
  return std::filesystem::temp_directory_path() / ("sfcl-slots-" + std::to_string(::getpid()));
}

json completion(httplib::Client& c, int id_slot) {
  return post_json(c, "/completion",
                   {{"prompt", "The invoice INV-2024-0117 dated March 3, 2024 is due on April 2, 2024."},
                    {"n_predict", 8},
                    {"temperature", 0},
                    {"ignore_eos", true},
                    {"id_slot", id_slot}});
}

json slot(httplib::Client& c, int id, const std::string& action, const json& body = json::object()) {
  return post_json(c, "/slots/" + std::to_string(id) + "?action=" + action, body);
}

int64_t n_cached(httplib::Client& c, int id) {
  auto r = c.Get("/slots");
  return r ? json::parse(r->body).at(id).at("n_cached").get<int64_t>() : -1;
}

std::vector<uint32_t> words_of(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), {});
  std::vector<uint32_t> w(bytes.size() / 4);
  std::memcpy(w.data(), bytes.data(), w.size() * 4);
  return w;
}

class ServerSlotFiles : public ::testing::Test {
 protected:
  void SetUp() override { std::filesystem::remove_all(slot_dir()); }
  void TearDown() override { std::filesystem::remove_all(slot_dir()); }
};

TEST_F(ServerSlotFiles, ASavedSlotIsRestoredIntoAnotherAndItsPromptReused) {
  ServerProcess s({"--parallel", "2", "--ctx", "512", "--slot-save-path", slot_dir().string()});
  auto c = s.client();
  const json first = completion(c, 1);
  ASSERT_EQ(first["_status"], 200) << first.dump();
  const int64_t prompt_n = first["timings"]["prompt_n"];
  EXPECT_EQ(first["timings"]["cache_n"], 0);
  const int64_t held = n_cached(c, 1);
  EXPECT_GE(held, prompt_n);  // the prompt and the output it accepted

  const json saved = slot(c, 1, "save", {{"filename", "one.bin"}});
  ASSERT_EQ(saved["_status"], 200) << saved.dump();
  EXPECT_EQ(saved["id_slot"], 1);
  EXPECT_EQ(saved["filename"], "one.bin");
  EXPECT_EQ(saved["n_saved"], held);
  const auto file = slot_dir() / "one.bin";
  EXPECT_EQ(saved["n_written"], std::filesystem::file_size(file));
  // llama.cpp's sequence file ('ggsq', version 2), its token count, then llama-server's packed
  // list: LLAMA_TOKEN_NULL, version 1, the count, the tokens, no media.
  const auto w = words_of(file);
  ASSERT_GT(w.size(), static_cast<size_t>(held) + 7);
  EXPECT_EQ(w[0], 0x67677371U);
  EXPECT_EQ(w[2], static_cast<uint32_t>(held) + 4);
  EXPECT_EQ(w[3], 0xFFFFFFFFU);
  EXPECT_EQ(w[4], 1U);
  EXPECT_EQ(w[5], static_cast<uint32_t>(held));
  EXPECT_EQ(w[6 + static_cast<size_t>(held)], 0U);

  const json erased = slot(c, 0, "erase");
  ASSERT_EQ(erased["_status"], 200) << erased.dump();
  EXPECT_EQ(n_cached(c, 0), 0);
  const json restored = slot(c, 0, "restore", {{"filename", "one.bin"}});
  ASSERT_EQ(restored["_status"], 200) << restored.dump();
  EXPECT_EQ(restored["n_restored"], held);
  EXPECT_EQ(restored["n_read"], saved["n_written"]);
  EXPECT_EQ(n_cached(c, 0), held);

  // Slot 0 now processes only the prompt's last token, and writes what slot 1 wrote.
  const json again = completion(c, 0);
  ASSERT_EQ(again["_status"], 200) << again.dump();
  EXPECT_EQ(again["timings"]["cache_n"], prompt_n - 1);
  EXPECT_EQ(again["timings"]["prompt_n"], 1);
  EXPECT_EQ(again["content"], first["content"]);

  // Erased, the slot processes the whole prompt again.
  const int64_t before = n_cached(c, 0);
  EXPECT_EQ(before, held);  // the same prompt and the same output
  EXPECT_EQ(slot(c, 0, "erase")["n_erased"], before);
  const json after_erase = completion(c, 0);
  EXPECT_EQ(after_erase["timings"]["cache_n"], 0);
}

TEST_F(ServerSlotFiles, APlainTokenListAsOlderLlamaServersWroteIsRestored) {
  ServerProcess s({"--parallel", "2", "--ctx", "512", "--slot-save-path", slot_dir().string()});
  auto c = s.client();
  ASSERT_EQ(completion(c, 1)["_status"], 200);
  const json saved = slot(c, 1, "save", {{"filename", "legacy.bin"}});
  ASSERT_EQ(saved["_status"], 200) << saved.dump();
  const auto n = static_cast<size_t>(saved["n_saved"].get<int64_t>());
  // The packed list rewritten as a plain one, as test_slot_save.py does.
  auto w = words_of(slot_dir() / "legacy.bin");
  std::vector<uint32_t> plain(w.begin(), w.begin() + 3);
  plain[2] = static_cast<uint32_t>(n);
  plain.insert(plain.end(), w.begin() + 6, w.begin() + 6 + static_cast<std::ptrdiff_t>(n));
  plain.insert(plain.end(), w.begin() + 7 + static_cast<std::ptrdiff_t>(n), w.end());
  std::ofstream(slot_dir() / "legacy.bin", std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(plain.data()), static_cast<std::streamsize>(plain.size() * 4));
  const json restored = slot(c, 0, "restore", {{"filename", "legacy.bin"}});
  ASSERT_EQ(restored["_status"], 200) << restored.dump();
  EXPECT_EQ(restored["n_restored"], n);
  EXPECT_EQ(completion(c, 0)["timings"]["prompt_n"], 1);
}

TEST_F(ServerSlotFiles, BadNamesSlotsActionsAndFilesAreRefusedAndTheServerServes) {
  ServerProcess s({"--parallel", "2", "--ctx", "512", "--slot-save-path", slot_dir().string()});
  auto c = s.client();
  struct Case {
    std::string path;
    json body;
    int status;
    const char* says;
  };
  std::ofstream(slot_dir() / "garbage.bin") << "not a slot file at all";
  const Case cases[] = {
      {"/slots/0?action=save", {{"filename", "../escape.bin"}}, 400, "plain file name"},
      {"/slots/0?action=save", {{"filename", "sub/dir.bin"}}, 400, "plain file name"},
      {"/slots/0?action=save", {{"filename", ""}}, 400, "plain file name"},
      {"/slots/0?action=save", json::object(), 400, "filename"},
      {"/slots/0?action=save", {{"filename", 7}}, 400, "filename"},
      {"/slots/2?action=save", {{"filename", "x.bin"}}, 400, "not a slot of this server"},
      {"/slots/-1?action=erase", json::object(), 400, "not a slot of this server"},
      {"/slots/one?action=save", {{"filename", "x.bin"}}, 400, "must be an integer"},
      {"/slots/0?action=dance", {{"filename", "x.bin"}}, 400, "save, restore or erase"},
      {"/slots/0", {{"filename", "x.bin"}}, 400, "save, restore or erase"},
      {"/slots/0?action=restore", {{"filename", "missing.bin"}}, 400, "no file missing.bin"},
      {"/slots/0?action=restore", {{"filename", "garbage.bin"}}, 400, "unable to restore slot 0"},
  };
  for (const auto& k : cases) {
    const json r = post_json(c, k.path, k.body);
    EXPECT_EQ(r["_status"], k.status) << k.path << " " << k.body.dump();
    EXPECT_NE(r["error"]["message"].get<std::string>().find(k.says), std::string::npos) << r.dump();
    EXPECT_EQ(r["error"]["type"], "invalid_request_error") << r.dump();
  }
  EXPECT_FALSE(std::filesystem::exists(slot_dir().parent_path() / "escape.bin"));
  // A request's id_slot out of range, and of the wrong type.
  for (const json& id : {json(2), json("0"), json(-2)}) {
    const json r = post_json(c, "/completion", {{"prompt", "hi"}, {"n_predict", 1}, {"id_slot", id}});
    EXPECT_EQ(r["_status"], 400) << r.dump();
    EXPECT_NE(r["error"]["message"].get<std::string>().find("id_slot"), std::string::npos) << r.dump();
  }
  EXPECT_EQ(completion(c, 0)["_status"], 200);  // still serving, slot 0 usable after the failed restore
}

// A slot file cut short anywhere after its header (a full disk, an interrupted copy) is a 400 and
// the server keeps serving: llama_state_seq_load_file would abort the process on it.
TEST_F(ServerSlotFiles, ASlotFileCutShortIsRefusedAndTheServerServes) {
  ServerProcess s({"--parallel", "2", "--ctx", "512", "--slot-save-path", slot_dir().string()});
  auto c = s.client();
  ASSERT_EQ(completion(c, 0)["_status"], 200);
  ASSERT_EQ(slot(c, 0, "save", {{"filename", "whole.bin"}})["_status"], 200);
  std::ifstream in(slot_dir() / "whole.bin", std::ios::binary);
  const std::string whole((std::istreambuf_iterator<char>(in)), {});
  ASSERT_GT(whole.size(), 1000U);
  for (const size_t cut : {whole.size() - 1, whole.size() - 100, whole.size() / 2, whole.size() / 4}) {
    std::ofstream(slot_dir() / "cut.bin", std::ios::binary) << whole.substr(0, cut);
    const json r = slot(c, 1, "restore", {{"filename", "cut.bin"}});
    EXPECT_EQ(r["_status"], 400) << cut << " " << r.dump();
    EXPECT_EQ(r["error"]["type"], "invalid_request_error") << r.dump();
  }
  std::ofstream(slot_dir() / "long.bin", std::ios::binary) << whole << "trailing";
  EXPECT_EQ(slot(c, 1, "restore", {{"filename", "long.bin"}})["_status"], 400);
  const json ok = slot(c, 1, "restore", {{"filename", "whole.bin"}});
  EXPECT_EQ(ok["_status"], 200) << ok.dump();
  EXPECT_EQ(completion(c, 1)["_status"], 200);  // still serving, the restored slot usable
}

TEST_F(ServerSlotFiles, WithoutASavePathTheActionsAre501) {
  ServerProcess s({"--parallel", "1"});
  auto c = s.client();
  for (const char* action : {"save", "restore", "erase"}) {
    const json r = slot(c, 0, action, {{"filename", "x.bin"}});
    EXPECT_EQ(r["_status"], 501) << r.dump();
    EXPECT_EQ(r["error"]["type"], "not_supported_error") << r.dump();
    EXPECT_NE(r["error"]["message"].get<std::string>().find("--slot-save-path"), std::string::npos) << r.dump();
  }
}

}  // namespace
}  // namespace sfcl::test
