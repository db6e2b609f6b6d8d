#include "server/app/admission.h"

#include <algorithm>
#include <limits>

#include "anchor/anchor.h"
#include "server/api/dialect.h"
#include "server/api/infill.h"
#include "server/api/tools.h"
#include "server/api/verdicts.h"
#include "server/app/lora.h"

namespace sfcl::server {

using nlohmann::json;

size_t prompt_text_bytes(const GenerationRequest& req) {
  // Rendering costs per message as well as per byte (the template's markup, a piece to tokenise).
  constexpr size_t kMarkup = 64;
  size_t n = req.prefill.size() + req.raw_prompt.size() + req.json_schema.size() + req.grammar.size();
  if (req.infill) {
    n += req.infill->prefix.size() + req.infill->suffix.size();
    for (const auto& [name, text] : req.infill->extra) n += kMarkup + name.size() + text.size();
  }
  for (const auto& m : req.messages) {
    n += kMarkup + m.role.size() + m.content.size() + m.tool_call_id.size() + m.tool_name.size();
    for (const auto& c : m.tool_calls) n += kMarkup + c.id.size() + c.name.size() + c.arguments.size();
  }
  for (const auto& t : req.tools) n += kMarkup + t.name.size() + t.description.size() + t.parameters.size();
  for (const auto& [k, v] : req.template_kwargs) n += k.size() + v.size();
  return n;
}

void check_prompt_bytes(const State& st, Api api, const GenerationRequest& req) {
  if (st.opt.max_prompt_bytes == 0) return;
  const size_t bytes = prompt_text_bytes(req);
  if (bytes <= st.opt.max_prompt_bytes) return;
  if (st.metrics) st.metrics->admission_rejected("prompt_bytes");
  throw ApiError(413, dialect_for(api).errors().too_large,
                 "the prompt text is " + std::to_string(bytes) + " bytes; this server accepts at most " +
                     std::to_string(st.opt.max_prompt_bytes) + " (--max-prompt-bytes)");
}

ClientWork::Lease client_work_lease(State& st, Api /*api*/, const http::Request& http) {
  std::optional<ClientWork::Lease> lease = st.client_work.begin(http.remote, st.opt.max_client_work);
  if (lease) return std::move(*lease);
  if (st.metrics) st.metrics->admission_rejected("client_work");
  throw ApiError(429, "rate_limit_error",
                 "this client has " + std::to_string(st.opt.max_client_work) +
                     " requests being prepared at once (--max-client-work); retry later");
}

std::vector<engine::Token> tokenize_request(const engine::Model& model, const GenerationRequest& req) {
  return render_request(model, req).tokens;
}

namespace {

// llama-server's text keys of logit_bias: the text tokenised as the model reads plain text (no
// special tokens), each of its tokens biased; added to the job's bias list and to its logit hook.
void add_text_bias(const engine::Model& model, const std::vector<std::pair<std::string, float>>& texts, Job& job) {
  auto bias = std::make_shared<std::vector<std::pair<engine::Token, float>>>();
  for (const auto& [text, b] : texts) {
    for (const engine::Token t : model.tokenize(text, false, false)) bias->emplace_back(t, b);
  }
  job.logit_bias.insert(job.logit_bias.end(), bias->begin(), bias->end());
  job.options.logit_hook = [bias, own = std::move(job.options.logit_hook)](std::span<float> logits,
                                                                           std::span<const engine::Token> out) {
    if (own) own(logits, out);
    for (const auto& [t, b] : *bias) logits[static_cast<size_t>(t)] += b;
  };
}

std::shared_ptr<Job> make_job(State& st, const ServedModel& served, const GenerationRequest& req) {
  auto job = std::make_shared<Job>();
  job->options = req.options;
  if (served.script) {
    // The request's own hook (logit_bias) runs first, so a banned token stays banned.
    job->options.logit_hook = [script = served.script, eos = served.model->eos(),
                               own = std::move(job->options.logit_hook)](std::span<float> logits,
                                                                         std::span<const engine::Token> out) {
      if (own) own(logits, out);
      if (out.size() > script->size() || !std::equal(out.begin(), out.end(), script->begin())) return;
      logits[static_cast<size_t>(out.size() == script->size() ? eos : (*script)[out.size()])] += 1000.0F;
    };
  }
  job->logit_bias = req.logit_bias;
  job->lora = lora_scales_for(served, req.lora);
  if (req.id_slot >= st.opt.scheduler.n_parallel) {
    throw ApiError(400, "invalid_request_error",
                   "id_slot " + std::to_string(req.id_slot) + " is not a slot of this server (0 to " +
                       std::to_string(st.opt.scheduler.n_parallel - 1) + "; GET /slots lists them)");
  }
  job->id_slot = req.id_slot;
  if (!req.logit_bias_text.empty()) add_text_bias(*served.model, req.logit_bias_text, *job);
  if (req.ignore_eos) {
    // Banned last, after the test script's boost: -inf stays -inf. A gateway sends the bans on.
    auto eog = std::make_shared<std::vector<engine::Token>>();
    for (engine::Token t = 0; t < served.model->n_vocab(); ++t) {
      if (served.model->is_eog(t)) eog->push_back(t);
    }
    for (const engine::Token t : *eog) job->logit_bias.emplace_back(t, -std::numeric_limits<float>::infinity());
    job->options.logit_hook = [eog, own = std::move(job->options.logit_hook)](std::span<float> logits,
                                                                              std::span<const engine::Token> out) {
      if (own) own(logits, out);
      for (const engine::Token t : *eog) logits[static_cast<size_t>(t)] = -std::numeric_limits<float>::infinity();
    };
  }
  job->want_events = req.events;
  job->return_progress = req.return_progress && req.stream;
  job->timings_per_token = req.timings_per_token && req.stream;
  job->sources = st.kb ? std::make_shared<anchor::SourceIndex>(st.kb) : std::make_shared<anchor::SourceIndex>();
  for (const auto& m : req.messages) job->sources->add_source(m.content);
  if (!req.prefill.empty()) job->sources->add_source(req.prefill);
  if (req.raw) job->sources->add_source(req.raw_prompt);
  if (req.infill) {  // the code around the cursor and the other files hold what the fill may cite
    job->sources->add_source(req.infill->prefix);
    job->sources->add_source(req.infill->suffix);
    for (const auto& [name, text] : req.infill->extra) job->sources->add_source(text);
  }
  for (const auto& s : req.extra_sources) job->sources->add_source(s);
  prepare_job(*served.model, req, *job);  // prompt, grammar, tool-call shape: server/api/tools.cpp
  if (st.key) job->request_sha256 = sha256_hex(canonical_json(request_digest_json(req)));
  job->metrics = st.metrics.get();
  if (st.metrics) {
    metrics::Metrics* m = st.metrics.get();
    job->options.on_check = [m](const anchor::Anchor& a, const verify::CheckResult& r, int64_t ns) {
      m->check(a.type, r.verdict, r.confidence, static_cast<double>(ns) * 1e-9, r.checked);
    };
  }
  return job;
}

// The text's anchors and decision points, counted in pieces of about 64 KiB cut after a line break
// or a space, and no further once the anchors so far are more than the whole text may hold (or
// the decision points more than a request may have): megabytes of "1 2 3 ..." in sfcl.sources are
// refused after their first piece, not after the lexer read all of them.
anchor::DecisionCount count_in_pieces(std::string_view text, const ServerOptions& opt) {
  constexpr size_t kPiece = size_t{64} * 1024;
  const double max_anchors = opt.spam_anchors_per_kb > 0 && text.size() >= 256
                                 ? opt.spam_anchors_per_kb * static_cast<double>(text.size()) / 1024.0
                                 : std::numeric_limits<double>::infinity();
  anchor::DecisionCount all;
  size_t at = 0;
  while (at < text.size()) {
    size_t end = std::min(text.size(), at + kPiece);
    if (end < text.size()) {
      const size_t cut = text.substr(at, end - at).find_last_of("\n ");  // within this piece only
      if (cut != std::string_view::npos && cut > 0) end = at + cut + 1;
    }
    const auto piece = anchor::count_decision_points(text.substr(at, end - at));
    all.total += piece.total;
    all.anchors += piece.anchors;
    at = end;
    if (static_cast<double>(all.anchors) > max_anchors ||
        (opt.max_decision_points > 0 && static_cast<int64_t>(all.total) > opt.max_decision_points)) {
      break;
    }
  }
  return all;
}

// Decision points bound the checking work a prompt can cause; anchor spam (a text that is mostly
// values, e.g. "1 2 3 4 ...") would make every generated value a search over thousands of them.
void check_decision_points(State& st, const GenerationRequest& req) {
  std::string all_text;
  for (const auto& m : req.messages) all_text += m.content + "\n";
  all_text += req.prefill + req.raw_prompt;
  if (req.infill) {
    all_text += "\n" + req.infill->prefix + "\n" + req.infill->suffix;
    for (const auto& [name, text] : req.infill->extra) all_text += "\n" + text;
  }
  for (const auto& s : req.extra_sources) all_text += "\n" + s;
  const auto dp = count_in_pieces(all_text, st.opt);
  if (st.opt.max_decision_points > 0 && static_cast<int64_t>(dp.total) > st.opt.max_decision_points) {
    if (st.metrics) st.metrics->admission_rejected("decision_points");
    throw ApiError(400, "invalid_request_error",
                   "the request has " + std::to_string(dp.total) + " decision points; this server accepts at most " +
                       std::to_string(st.opt.max_decision_points));
  }
  if (st.opt.spam_anchors_per_kb <= 0 || all_text.size() < 256) return;
  const double density = static_cast<double>(dp.anchors) * 1024.0 / static_cast<double>(all_text.size());
  if (density > st.opt.spam_anchors_per_kb) {
    if (st.metrics) {
      st.metrics->anchor_spam();
      st.metrics->admission_rejected("anchor_spam");
    }
    log_line(st, spdlog::level::warn, "anchor spam",
             {{"anchors", dp.anchors}, {"bytes", all_text.size()}, {"decision_points", dp.total}});
    throw ApiError(400, "invalid_request_error",
                   "the request's text has " + std::to_string(static_cast<int64_t>(density)) +
                       " anchors per KiB; this server accepts at most " +
                       std::to_string(static_cast<int64_t>(st.opt.spam_anchors_per_kb)) + " (--spam-density)");
  }
}

void check_prompt_size(State& st, const GenerationRequest& req, size_t prompt_tokens) {
  if (st.opt.max_prompt_tokens > 0 && static_cast<int64_t>(prompt_tokens) > st.opt.max_prompt_tokens) {
    if (st.metrics) st.metrics->admission_rejected("prompt_tokens");
    throw ApiError(400, "invalid_request_error",
                   "prompt is " + std::to_string(prompt_tokens) + " tokens; this server accepts at most " +
                       std::to_string(st.opt.max_prompt_tokens));
  }
  const auto limit = st.opt.scheduler.n_ctx_per_slot;
  if (prompt_tokens + 1 >= limit) {
    throw ApiError(400, "invalid_request_error",
                   "prompt is too long: " + std::to_string(prompt_tokens) + " tokens, but the context holds " +
                       std::to_string(limit) +
                       " tokens per request (sfcl never shifts the context to make room: shorten the prompt, or "
                       "serve with a larger -c / --ctx)",
                   req.raw ? "prompt" : "messages", "context_length_exceeded");
  }
}

}  // namespace

Admitted admit_request(State& st, Api api, const http::Request& http) {
  const ClientWork::Lease work = client_work_lease(st, api, http);  // until the job is made
  Admitted a;
  const json body = parse_body_json(http.body);
  a.model = &pick_model(st, requested_model(body), api);
  // llama-server's /infill is /completion with a fill-in-the-middle prompt (server/api/infill.h).
  a.req = http.path == "/infill" ? parse_infill_request(body, st.opt, a.model->spec)
                                 : parse_request(api, body, st.opt, a.model->spec);
  if (a.req.options.logprobs >= 0 && a.model->scheduler) {
    const std::string why =
        a.model->scheduler->logprobs_refusal(!a.req.logit_bias.empty() || !a.req.logit_bias_text.empty());
    if (!why.empty()) throw ApiError(400, "invalid_request_error", "logprobs: " + why, "logprobs");
  }
  if (http.get_header_value("X-SFCL-Events") == "1") a.req.events = true;
  check_prompt_bytes(st, api, a.req);  // before tokenising: its cost grows with the text
  check_decision_points(st, a.req);    // before the sources are indexed: anchor spam is refused first
  a.job = make_job(st, *a.model, a.req);
  check_prompt_size(st, a.req, a.job->prompt.size());
  return a;
}

}  // namespace sfcl::server
