#include "server/app/state.h"
#include "server/http/http_util.h"

namespace sfcl::server {

void log_line(const State& st, spdlog::level::level_enum level, const std::string& msg, const nlohmann::json& fields) {
  if (st.opt.log_format == "json") {
    nlohmann::json j = fields;
    j["msg"] = msg;
    j["level"] = spdlog::level::to_string_view(level).data();
    j["ts"] = unix_now();
    spdlog::log(level, "{}", j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    return;
  }
  std::string line = msg;
  for (const auto& [k, v] : fields.items()) line += " " + k + "=" + (v.is_string() ? v.get<std::string>() : v.dump());
  spdlog::log(level, "{}", line);
}

}  // namespace sfcl::server
