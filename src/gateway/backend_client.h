// One engine behind the gateway, over HTTP: what it serves (/props), how it tokenises (/tokenize),
// and a token stream for a raw token prompt (llama-server's /completion with return_tokens of
// llama_protocol.h, or the OpenAI /v1/completions of openai_protocol.h) that the caller may cancel
// at any token. Not thread-safe: one per thread.
#pragma once
#include <httplib.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/engine.h"
#include "gateway/completion_stream.h"
#include "gateway/held_tokens.h"

namespace sfcl::gateway {

using engine::Token;

// How a backend is spoken to: llama-server's native API, or the OpenAI-compatible completions API
// as vLLM serves it (docs/SCALING.md, "Backend protocols"); each is a BackendProtocol
// (backend_protocol.h, llama_protocol.h, openai_protocol.h), which make_protocol picks.
enum class BackendApi : uint8_t { llama, openai };

struct BackendAddress {
  std::string url;  // as given: http://host:port
  std::string host;
  int port = 0;
  BackendApi api = BackendApi::llama;
};
// "http://127.0.0.1:8081", "127.0.0.1:8081" -> host and port; throws std::invalid_argument.
BackendAddress parse_backend_url(const std::string& url);

struct BackendInfo {
  std::string model;          // model_alias or model_path
  std::string chat_template;  // the Jinja template the backend applies (may be empty)
  int32_t n_ctx = 0;          // tokens per slot
  int32_t total_slots = 0;
  std::string model_path;  // the GGUF the backend loaded, as it reports it (empty: unknown)
};

// One completion request: the accepted prefix as tokens, what is banned or boosted at every
// position it generates (llama-server's logit_bias), and how many tokens at most.
struct CompletionRequest {
  std::span<const Token> prompt;
  std::span<const Token> prompt_tail;         // appended to `prompt` (the output so far)
  std::vector<std::pair<Token, float>> bias;  // -inf = banned
  // The constrain fallback's or the grammar's allow-list (also in `bias`, lifted): the OpenAI
  // protocol sends it as vLLM's allowed_token_ids too; empty when none.
  std::vector<Token> allowed;
  int32_t n_predict = 1;
  int32_t n_probs = 0;  // > 0: every event carries the raw top-n_probs of its position (TopProb)
  engine::SamplingOptions sampling;
  // Not streamed, by llama-server's /completion where the backend serves it (also behind the
  // OpenAI protocol): its answer names every token, even those a stream holds back when the
  // output ends inside a UTF-8 character.
  bool whole = false;
  // The output so far ends inside a UTF-8 character, so this call's output starts with the rest of
  // it: llama-server's chat parser, which reads every call's output, would fail on those stray
  // continuation bytes; the call names one that reads nothing (kRawTextParser). The native API
  // names it on every call (an output may also end inside a character, or hold bytes that make
  // none); the OpenAI protocol only here, since vLLM warns of a field it does not know.
  bool inside_character = false;
  // Streamed by llama-server: a first event tells how many prompt tokens the backend reused from
  // its cache (`return_progress`; CompletionEvent::cached). Asked on a job's first call only.
  bool progress = false;
};

// llama-server's `chat_parser` (a saved PEG parser) that matches the empty string: the call's text
// is returned as sampled, unparsed (the gateway asks no chat parsing of its backends).
inline constexpr std::string_view kRawTextParser = R"({"parsers":[{"type":"epsilon"}],"rules":{},"root":0})";

// The /completion body for `req`, written into `out` (cleared first) without a JSON tree: a prompt
// can be thousands of tokens. A one-token call, or a `whole` one, is not streamed: a stream sends
// no event for a token that ends inside a UTF-8 character until a later one completes it.
void write_completion_body(const CompletionRequest& req, std::string& out);

enum class StreamEnd : uint8_t {
  finished,   // the backend ended the stream (end of turn or n_predict reached)
  cancelled,  // on_tokens returned false
  failed,     // connection refused or reset, timeout, 5xx: the backend is not usable now
  rejected,   // 4xx: the request itself was refused (not the backend's fault)
};

struct StreamResult {
  StreamEnd end = StreamEnd::finished;
  std::string error;  // failed / rejected: why
  // The backend sampled tokens whose ids the stream did not carry (held inside a UTF-8 character
  // when it ended, or not readable back): the caller asks again `whole`.
  bool lost = false;
};

class BackendProtocol;

// What one backend answer may cost the gateway before the call ends as failed (docs/SCALING.md,
// "Limits on a backend"): a backend is another process, and a broken or hostile one must not
// grow the gateway's memory, hold a worker or a slot past its client, or write into its log.
inline constexpr size_t kMaxBackendEventBytes = size_t{1} << 20;  // one SSE event
inline constexpr size_t kMaxBackendInfoBytes = size_t{8} << 20;   // /props, /v1/models, /tokenize
inline constexpr size_t kMaxBackendErrorBytes = 4096;             // of an error's text, kept
// A completion's body: this much per token asked (an event carries its top tokens), plus the base.
inline constexpr size_t kBackendBytesPerToken = size_t{32} << 10;
inline constexpr size_t kBackendBaseBytes = size_t{1} << 20;

// Throws std::runtime_error naming `url` when what a backend reported cannot be used as it is: a
// model name that goes into response headers and the log must be printable text of at most 256
// bytes; sizes must be in range.
void check_backend_info(const std::string& url, const BackendInfo& info);
// The ids of a /tokenize answer (`tokens`: ids, or objects with `id`); -1 for an entry that is
// neither, so a probe against it fails instead of the gateway.
std::vector<Token> read_token_ids(std::string_view body);

// `text` as one log line and error message: at most kMaxBackendErrorBytes, control characters
// (a CR LF a backend wrote) as spaces.
std::string printable_excerpt(std::string_view text);
// Appends to an error's text no more than printable_excerpt shows (and one byte to tell it was cut).
inline void keep_error_text(std::string& kept, std::string_view more) {
  if (kept.size() > kMaxBackendErrorBytes) return;
  kept.append(more.substr(0, kMaxBackendErrorBytes + 1 - kept.size()));
}

class BackendClient {
 public:
  // `timeout_s`: connect and every read; `call_timeout_s`: a whole completion call (0 = none).
  BackendClient(BackendAddress address, double timeout_s, double call_timeout_s = 0.0);
  ~BackendClient();
  BackendClient(const BackendClient&) = delete;
  BackendClient& operator=(const BackendClient&) = delete;

  // Throws std::runtime_error naming the backend when it does not answer as llama-server does.
  BackendInfo props();
  std::vector<Token> tokenize(std::string_view text);
  [[nodiscard]] bool healthy();
  // GET (empty `body`) or POST `path`, the answer's body read up to kMaxBackendInfoBytes; nullopt
  // when there is no answer or a longer one (the connection is then dropped).
  struct Fetched {
    int status = 0;
    std::string body;
  };
  std::optional<Fetched> fetch(const std::string& path, const std::string& body = {});

  // Streams the tokens the backend samples, event by event; `on_event` returns false to cancel (the
  // connection is closed, so the backend stops generating). `cancelled`, when given, is read at
  // every chunk the backend sends: true ends the call as cancelled (its client left), though the
  // backend sends only keep-alives. A token id outside the vocabulary (set_pieces), a body over
  // its bound or a call past its deadline ends it as failed.
  StreamResult complete(const CompletionRequest& req, const std::function<bool(const CompletionEvent&)>& on_event,
                        const std::function<bool()>& cancelled = {});

  // From another thread, during complete(): ends the call as failed at once (its connection is shut
  // down, and one it opens later too). The pool calls it for the calls on a backend its health
  // checks found hung. arm() clears it before a call is registered with the pool.
  void abort();
  void arm();

  [[nodiscard]] const BackendAddress& address() const { return address_; }
  // What the backend's protocol can do (backend_protocol.h).
  [[nodiscard]] const BackendProtocol& protocol() const { return *protocol_; }
  // The vocabulary that reads back tokens a stream held inside a UTF-8 character (held_tokens.h);
  // without one such tokens are lost (StreamResult::lost). Must outlive this client.
  void set_pieces(const PartialPieces* pieces) {
    held_ = HeldTokens(pieces);
    n_vocab_ = pieces != nullptr ? pieces->size() : 0;
  }

 private:
  // How this backend is spoken to: the protocols send through the connection below.
  friend class LlamaProtocol;
  friend class OpenAIProtocol;
  httplib::Client& client();
  void drop_client();  // the connection is closed; the next call opens another
  // Counts `bytes` more of the completion call's body: false when the call must end now (its
  // client left, its body outgrew its bound, its deadline passed), and why is kept for complete().
  bool charge(size_t bytes);
  // The protocol ends the call as failed for `why` (an SSE event over its bound).
  void stop_call(std::string why);
  // Whether every id an event names (sampled, reported, among the top tokens) is in the
  // vocabulary (set_pieces); if not, stop_call says which. Checked as an event is read, before
  // anything (the held-token reader, the loop) uses them.
  bool ids_in_vocabulary(std::span<const Token> tokens, std::span<const TopProb> top,
                         std::span<const PositionProbs> positions);
  // Sends `req` on the kept-alive connection, and once more on a new one when that fails while
  // `nothing_arrived()` (the backend had closed it meanwhile).
  bool send(httplib::Request& req, httplib::Response& res, httplib::Error& err,
            const std::function<bool()>& nothing_arrived);
  BackendAddress address_;
  double timeout_s_;
  std::unique_ptr<httplib::Client> client_;  // replaced only under client_mu_, which abort() holds
  std::mutex client_mu_;
  std::atomic<bool> aborted_{false};  // abort() ran during this call: no retry on a new connection
  HeldTokens held_{nullptr};
  size_t n_vocab_ = 0;  // from set_pieces; 0: ids are not checked
  double call_timeout_s_;
  // The call under way: its bounds and why it was ended (empty: it was not).
  struct CallBudget {
    size_t max_bytes = 0;
    size_t bytes = 0;
    std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
    const std::function<bool()>* cancelled = nullptr;
    bool client_left = false;
    std::string stopped;
  } budget_;
  std::unique_ptr<BackendProtocol> protocol_;  // chosen by address_.api (make_protocol)
};

}  // namespace sfcl::gateway
