// Which served model answers a request: by id or alias when several are served.
#include <algorithm>

#include "server/app/state.h"

namespace sfcl::server {

bool ServedModel::named(const std::string& name) const {
  return name == spec.id || std::find(spec.aliases.begin(), spec.aliases.end(), name) != spec.aliases.end();
}

ServedModel& pick_model(const State& st, const std::string& name, Api api) {
  // One model: whatever name a client ships with (gpt-4o, claude-...) is answered by it, as
  // llama-server does.
  if (st.models.size() == 1 || name.empty()) return *st.models.front();
  for (const auto& m : st.models) {
    if (m->named(name)) return *m;
  }
  std::string known;
  for (const auto& m : st.models) known += (known.empty() ? "" : ", ") + m->spec.id;
  // OpenAI answers an unknown model with invalid_request_error and code model_not_found.
  throw ApiError(404, api == Api::anthropic ? "not_found_error" : "invalid_request_error",
                 "model " + name + " is not served here (served: " + known + ")", "model", "model_not_found");
}

}  // namespace sfcl::server
