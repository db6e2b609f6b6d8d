// Request parsing: defaults, overrides, and errors that name the parameter.
#include "server/api/request.h"

#include <gtest/gtest.h>

namespace sfcl::server {
namespace {

using nlohmann::json;

ServerOptions server_options() {
  ServerOptions o;
  o.checks.checker.threshold = 0.5F;
  o.checks.max_backtracks = 5;
  o.checks.fallback = decode::Fallback::flag;
  o.checks.mode = decode::Mode::per_token;
  return o;
}

json anthropic_body() {
  return {{"model", "tiny"}, {"max_tokens", 8}, {"messages", json::array({{{"role", "user"}, {"content", "hi"}}})}};
}

// The ApiError a body raises (fails the test when it parses).
ApiError error_of(Api api, const json& body) {
  try {
    (void)parse_request(api, body, server_options());
  } catch (const ApiError& e) {
    return e;
  }
  ADD_FAILURE() << "parsed: " << body.dump();
  return {0, "", ""};
}

TEST(ServerRequest, SfclOptionsDefaultToTheServersWhenAbsentOrNull) {
  for (const json& sfcl : {json(nullptr), json::object(),
                           json{{"threshold", nullptr},
                                {"mode", nullptr},
                                {"max_backtracks", nullptr},
                                {"fallback", nullptr},
                                {"events", nullptr}}}) {
    json body = anthropic_body();
    if (!sfcl.is_null()) body["sfcl"] = sfcl;
    const GenerationRequest r = parse_request(Api::anthropic, body, server_options());
    EXPECT_FLOAT_EQ(r.options.checker.threshold, 0.5F) << sfcl.dump();
    EXPECT_EQ(r.options.max_backtracks, 5) << sfcl.dump();
    EXPECT_EQ(r.options.fallback, decode::Fallback::flag) << sfcl.dump();
    EXPECT_EQ(r.options.mode, decode::Mode::per_token) << sfcl.dump();
  }
}

TEST(ServerRequest, ServerDefaultsAreDecodesOwn) {
  const ServerOptions o;
  const decode::Options d;
  for (const decode::CheckOption& spec : decode::check_options()) {
    EXPECT_EQ(spec.get(o.checks), spec.get(d)) << spec.field;
  }
}

TEST(ServerRequest, SfclOptionsOverrideTheServers) {
  json body = anthropic_body();
  body["sfcl"] = {{"threshold", 0.9},      {"mode", "anchor"}, {"max_backtracks", 1},
                  {"fallback", "abstain"}, {"events", true},   {"sources", {"Total: $5."}}};
  const GenerationRequest r = parse_request(Api::anthropic, body, server_options());
  EXPECT_FLOAT_EQ(r.options.checker.threshold, 0.9F);
  EXPECT_EQ(r.options.mode, decode::Mode::anchor);
  EXPECT_EQ(r.options.max_backtracks, 1);
  EXPECT_EQ(r.options.fallback, decode::Fallback::abstain);
  EXPECT_TRUE(r.events);
  ASSERT_EQ(r.extra_sources.size(), 1U);
}

TEST(ServerRequest, ErrorsNameTheParameter) {
  struct Case {
    Api api;
    json patch;  // merged into a valid body
    std::string param;
  };
  const json chat = {{"model", "tiny"}, {"messages", json::array({{{"role", "user"}, {"content", "hi"}}})}};
  const std::vector<Case> cases = {
      {Api::anthropic, {{"max_tokens", nullptr}}, "max_tokens"},
      {Api::anthropic, {{"max_tokens", 0}}, "max_tokens"},
      {Api::anthropic, {{"temperature", 3}}, "temperature"},
      {Api::anthropic, {{"top_p", "x"}}, "top_p"},
      {Api::anthropic, {{"top_k", -1}}, "top_k"},
      {Api::anthropic, {{"stream", "yes"}}, "stream"},
      {Api::anthropic, {{"sfcl", {{"threshold", 2}}}}, "sfcl.threshold"},
      {Api::anthropic, {{"sfcl", {{"threshold", "high"}}}}, "sfcl.threshold"},
      {Api::anthropic, {{"sfcl", {{"mode", "fast"}}}}, "sfcl.mode"},
      {Api::anthropic, {{"sfcl", {{"max_backtracks", 99}}}}, "sfcl.max_backtracks"},
      {Api::anthropic, {{"sfcl", {{"fallback", 1}}}}, "sfcl.fallback"},
      {Api::anthropic, {{"sfcl", {{"sources", "doc"}}}}, "sfcl.sources"},
      {Api::anthropic, {{"sfcl", 3}}, "sfcl"},
      {Api::anthropic, {{"sfcl", {{"abstain_marker", {{"fr", "x"}}}}}}, "sfcl.abstain_marker"},
      {Api::anthropic, {{"sfcl", {{"abstain_marker", json::object()}}}}, "sfcl.abstain_marker"},
      {Api::openai_chat, {{"sfcl", {{"abstain_marker", {{"zh", "无依据"}, {"foo", "y"}}}}}}, "sfcl.abstain_marker"},
      {Api::openai_chat, {{"sfcl", {{"abstain_marker", std::string("A\0B", 3)}}}}, "sfcl.abstain_marker"},
      {Api::openai_chat, {{"sfcl", {{"abstain_marker", {{"en", std::string("A\0B", 3)}}}}}}, "sfcl.abstain_marker"},
      {Api::anthropic, {{"messages", json::array({{{"role", "robot"}, {"content", "x"}}})}}, "messages.0.role"},
      {Api::openai_chat, {{"messages", json::array({{{"role", "wizard"}, {"content", "x"}}})}}, "messages[0].role"},
      {Api::openai_chat, {{"n", 200}}, "n"},
      {Api::openai_chat, {{"seed", "s"}}, "seed"},
      {Api::openai_chat, {{"stop", 5}}, "stop"},
      {Api::openai_completions, {{"prompt", 5}}, "prompt"},
  };
  for (const auto& c : cases) {
    json body = c.api == Api::anthropic ? anthropic_body() : chat;
    if (c.api == Api::openai_completions) {
      body.erase("messages");
      body["prompt"] = "hi";
    }
    for (const auto& [k, v] : c.patch.items()) body[k] = v;
    const ApiError e = error_of(c.api, body);
    EXPECT_EQ(e.status, 400) << body.dump();
    EXPECT_EQ(e.type, "invalid_request_error") << body.dump();
    EXPECT_EQ(e.param, c.param) << body.dump() << ": " << e.what();
    EXPECT_NE(std::string(e.what()).find(c.param), std::string::npos) << e.what();
  }
  // Per language, one or both: each writes its own marker.
  json body = anthropic_body();
  body["sfcl"] = {{"abstain_marker", {{"zh", "[无依据]"}}}};
  const GenerationRequest r = parse_request(Api::anthropic, body, server_options());
  EXPECT_EQ(r.options.abstain_marker_zh, "[无依据]");
}

TEST(ServerRequest, TheResponseNamesTheModelThatAnswers) {
  json body = anthropic_body();
  body["model"] = "claude-3-5-sonnet-20240620";
  ModelSpec tiny;
  tiny.id = "tiny";
  EXPECT_EQ(parse_request(Api::anthropic, body, server_options(), tiny).model, "tiny");
  tiny.mode = decode::Mode::off;  // a model's own --sfcl is its requests' default
  EXPECT_EQ(parse_request(Api::anthropic, body, server_options(), tiny).options.mode, decode::Mode::off);
  body["model"] = 5;
  EXPECT_EQ(error_of(Api::anthropic, body).param, "model");
}

}  // namespace
}  // namespace sfcl::server
