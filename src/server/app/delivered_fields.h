// Helpers of the strict response reader (delivered.cpp, delivered_stream.cpp): every field a
// reader does not name is reported, so nothing unsigned passes unseen.
#pragma once
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>

#include "server/app/delivered.h"

namespace sfcl::server::delivered {

// `j` at `path` must be an object with only `keys`; reports each other key (and a non-object).
bool only(Delivered& d, const nlohmann::json& j, const std::string& path, std::initializer_list<const char*> keys);
// A field the signature does not cover may be there only with the value the server always sends.
void expect(Delivered& d, const nlohmann::json& j, const char* key, const nlohmann::json& value,
            const std::string& path);
std::string string_at(Delivered& d, const nlohmann::json& j, const char* key, const std::string& path);
// OpenAI's system_fingerprint, which the signature does not cover: only as llama.cpp names a build
// ("b<number>-<commit>"), and the same in every chunk of a stream.
void fingerprint_at(Delivered& d, const nlohmann::json& j, const std::string& path);
// OpenAI usage / Anthropic usage: only the server's keys, OpenAI's total the sum.
void check_usage(Delivered& d, const nlohmann::json& usage, bool anthropic, const std::string& path);
// The "type" string of an object ("" when none).
std::string type_of(const nlohmann::json& j);
// An Anthropic content block (body, or content_block_start) read into its neutral form.
nlohmann::json anthropic_block(Delivered& d, const nlohmann::json& b, const std::string& path);
// A choice's final sfcl object, once: a second one is reported.
void final_sfcl_of(Delivered& d, DeliveredChoice& c, const nlohmann::json& sfcl, const std::string& at);

// Streams of both APIs (delivered_stream.cpp).
void read_stream(const std::string& body, Delivered& d);

}  // namespace sfcl::server::delivered
