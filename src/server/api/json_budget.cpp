#include "server/api/json_budget.h"

#include <nlohmann/json.hpp>

#include "server/api/request.h"

namespace sfcl::server {

namespace {

// Counts values and nesting, and stops the parse once there are too many; builds nothing.
struct ValueCounter : nlohmann::json_sax<nlohmann::json> {
  size_t values = 0;
  size_t depth = 0;
  bool over = false;
  bool too_deep = false;
  bool value() {
    over = ++values > kMaxJsonValues;
    return !over;
  }
  bool open() {
    too_deep = ++depth > kMaxJsonDepth;
    return !too_deep && value();
  }
  bool null() override { return value(); }
  bool boolean(bool /*unused*/) override { return value(); }
  bool number_integer(number_integer_t /*unused*/) override { return value(); }
  bool number_unsigned(number_unsigned_t /*unused*/) override { return value(); }
  bool number_float(number_float_t /*unused*/, const string_t& /*unused*/) override { return value(); }
  bool string(string_t& /*unused*/) override { return value(); }
  bool binary(binary_t& /*unused*/) override { return value(); }
  bool start_object(size_t /*unused*/) override { return open(); }
  bool key(string_t& /*unused*/) override { return true; }
  bool end_object() override {
    --depth;
    return true;
  }
  bool start_array(size_t /*unused*/) override { return open(); }
  bool end_array() override {
    --depth;
    return true;
  }
  bool parse_error(size_t /*unused*/, const std::string& /*unused*/,
                   const nlohmann::detail::exception& /*unused*/) override {
    return false;
  }
};

}  // namespace

void check_json_values(const std::string& body) {
  ValueCounter counter;
  nlohmann::json::sax_parse(body, &counter);
  if (counter.too_deep) {
    throw ApiError(400, "invalid_request_error",
                   "the request body nests objects and arrays more than " + std::to_string(kMaxJsonDepth) +
                       " levels deep; this server accepts at most that many");
  }
  if (counter.over) {
    throw ApiError(413, "request_too_large",
                   "the request body holds more than " + std::to_string(kMaxJsonValues) +
                       " JSON values; this server accepts at most that many");
  }
}

}  // namespace sfcl::server
