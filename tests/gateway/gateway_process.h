// `sfcl gateway` and the llama-server processes behind it, all on 127.0.0.1, for the gateway tests:
// real llama-server binaries (scripts/build-llama-server) on the demo model.
#pragma once
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <regex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "server/server_process.h"

namespace sfcl::test {

inline std::filesystem::path demo_model() { return std::filesystem::path(SFCL_SOURCE_DIR) / "demo/sfcl-demo.gguf"; }

inline pid_t spawn(std::vector<std::string> argv, const std::filesystem::path& log) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int fd = ::open(log.c_str(), O_CREAT | O_WRONLY | O_TRUNC, 0644);
    ::dup2(fd, 1);
    ::dup2(fd, 2);
    std::vector<char*> cargv;
    for (auto& s : argv) cargv.push_back(s.data());
    cargv.push_back(nullptr);
    ::execv(argv[0].c_str(), cargv.data());
    ::_exit(127);
  }
  return pid;
}

// Up to 60 s: a loaded CI machine may start a model slowly; a healthy server answers at once.
inline bool wait_health(int port, int tries = 1200) {
  httplib::Client c("127.0.0.1", port);
  for (int i = 0; i < tries; ++i) {
    auto r = c.Get("/health");
    if (r && r->status == 200) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

// A llama-server on the demo model; restartable on the same port.
class LlamaServer {
 public:
  // `extra`: more llama-server flags.
  explicit LlamaServer(int slots = 4, std::filesystem::path model = demo_model(), std::vector<std::string> extra = {})
      : slots_(slots), model_(std::move(model)), extra_(std::move(extra)) {
    start();
  }
  ~LlamaServer() {
    kill();
    // Its log is kept only when the test failed (it explains the failure).
    std::error_code ec;
    if (!::testing::Test::HasFailure()) std::filesystem::remove(log_, ec);
  }
  LlamaServer(const LlamaServer&) = delete;
  LlamaServer& operator=(const LlamaServer&) = delete;
  void start() {
    const char* env = std::getenv("LLAMA_SERVER");  // default: scripts/build-llama-server's
    const std::string bin = env != nullptr ? env : LLAMA_SERVER_PATH;
    if (log_.empty()) log_ = unique_temp_path("sfcl-llama-server");  // a restart writes it again
    std::vector<std::string> argv = {bin,
                                     "-m",
                                     model_.string(),
                                     "--host",
                                     "127.0.0.1",
                                     "--port",
                                     std::to_string(port_),  // 0 the first time: it picks one
                                     "-np",
                                     std::to_string(slots_),
                                     "-c",
                                     std::to_string(512 * slots_),
                                     "-t",
                                     "1",
                                     "--no-webui"};
    argv.insert(argv.end(), extra_.begin(), extra_.end());
    pid_ = spawn(argv, log_);
    // A restart keeps the port the first start printed (the gateway knows the backend by it).
    if (port_ == 0) port_ = wait_listening_port(pid_, log_);
    if (port_ == 0 || !wait_health(port_)) {
      throw std::runtime_error("llama-server did not start: see " + log_.string());
    }
  }
  void kill() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
    pid_ = -1;
  }
  // SIGSTOP / SIGCONT: a hung backend (its connections stay open, nothing answers).
  void pause() const { ::kill(pid_, SIGSTOP); }
  void resume() const { ::kill(pid_, SIGCONT); }
  [[nodiscard]] std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }

 private:
  int slots_;
  int port_ = 0;
  std::filesystem::path model_;
  std::vector<std::string> extra_;
  pid_t pid_ = -1;
  std::filesystem::path log_;
};

inline std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// `sfcl gateway` over `backends`; without `tokenizer` it learns the vocabulary from them.
class Gateway {
 public:
  Gateway(const std::vector<const LlamaServer*>& backends, std::vector<std::string> extra, bool tokenizer = true) {
    std::vector<std::string> argv = {std::getenv("SFCL"),    "gateway", "--port", "0", "--health-interval", "0.2",
                                     "--health-max-backoff", "0.5"};
    if (tokenizer) argv.insert(argv.end(), {"--tokenizer", demo_model().string()});
    for (const auto* b : backends) {
      argv.emplace_back("--backend");
      argv.push_back(b->url());
    }
    argv.insert(argv.end(), extra.begin(), extra.end());
    log_ = unique_temp_path("sfcl-gateway");
    pid_ = spawn(argv, log_);
    port_ = wait_listening_port(pid_, log_);
    if (port_ == 0 || !wait_health(port_)) throw std::runtime_error("gateway did not start: see " + log_.string());
  }
  ~Gateway() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
    std::error_code ec;
    if (!::testing::Test::HasFailure()) std::filesystem::remove(log_, ec);
  }
  Gateway(const Gateway&) = delete;
  Gateway& operator=(const Gateway&) = delete;
  [[nodiscard]] httplib::Client client() const {
    httplib::Client c("127.0.0.1", port_);
    c.set_read_timeout(60, 0);
    return c;
  }
  [[nodiscard]] std::string log_text() const { return read_text(log_); }
  [[nodiscard]] pid_t pid() const { return pid_; }
  // SIGTERM, then the exit status once it has exited (-1: it did not exit normally).
  int terminate() {
    ::kill(pid_, SIGTERM);
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  [[nodiscard]] nlohmann::json backends() const {
    auto c = client();
    auto r = c.Get("/v1/gateway/backends");
    return r && r->status == 200 ? nlohmann::json::parse(r->body) : nlohmann::json();
  }

 private:
  int port_ = 0;
  pid_t pid_ = -1;
  std::filesystem::path log_;
};

// What a client of a streamed Messages answer sees: its text and its SFCL events, in order.
struct Seen {
  std::string text;
  std::vector<std::string> events;
  bool complete = false;
};

inline Seen stream_messages(httplib::Client& c, const nlohmann::json& body) {
  Seen s;
  auto r = c.Post("/v1/messages", body.dump(), "application/json");
  if (!r || r->status != 200) return s;
  for (const auto& [e, d] : parse_sse(r->body)) {
    if (e == "content_block_delta") s.text += nlohmann::json::parse(d)["delta"]["text"].get<std::string>();
    if (e == "anchor_confirmed" || e == "anchor_checked" || e == "backtrack" || e == "fallback") {
      s.events.push_back(e + " " + d);
    }
    if (e == "message_stop") s.complete = true;
  }
  return s;
}

// The first `n` items of the demo eval set: a source document and a question about it.
struct Item {
  std::string document;
  std::string question;
  std::string lang = "en";  // of the eval item: en or zh
};

inline std::vector<Item> eval_items(size_t n) {
  std::ifstream in(std::filesystem::path(SFCL_SOURCE_DIR) / "demo/eval.jsonl");
  std::vector<Item> out;
  std::string line;
  while (out.size() < n && std::getline(in, line)) {
    const nlohmann::json j = nlohmann::json::parse(line);
    out.push_back({j["document"], j["question"], j.value("lang", "en")});
  }
  return out;
}

// An eval item whose answer copies a Chinese company name from its document, the name's middle two
// characters replaced by ones the demo vocabulary writes as bytes (龘 E9 BE 98, 靐 E9 9D 90).
struct RareNameItem {
  std::string document;
  std::string question;
  std::string name;  // the rare-character name the answer should copy
};

inline std::vector<RareNameItem> rare_name_items(size_t n) {
  std::ifstream in(std::filesystem::path(SFCL_SOURCE_DIR) / "demo/eval.jsonl");
  const std::regex han_name("^(?:[\xE4-\xE9][\x80-\xBF]{2}){4,}$");
  std::vector<RareNameItem> out;
  std::string line;
  while (out.size() < n && std::getline(in, line)) {
    const nlohmann::json j = nlohmann::json::parse(line);
    const std::string answer = j["answer"];
    for (const auto& g : j["gold_values"]) {
      const std::string name = g;
      if (!std::regex_match(name, han_name) || answer.find(name) == std::string::npos) continue;
      const std::string rare = name.substr(0, 6) + "龘靐" + name.substr(12);
      std::string doc = j["document"];
      for (size_t at = doc.find(name); at != std::string::npos; at = doc.find(name, at + rare.size())) {
        doc.replace(at, name.size(), rare);
      }
      out.push_back({doc, j["question"], rare});
      break;
    }
  }
  return out;
}

}  // namespace sfcl::test
