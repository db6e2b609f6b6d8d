// Summary statistics shared by bench and probe.
#pragma once
#include <algorithm>
#include <nlohmann/json.hpp>
#include <vector>

namespace sfcl::cli {

// Nearest-rank percentile, p in [0, 1]; 0 for an empty sample.
inline double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(p * static_cast<double>(v.size())))];
}

struct MinMedMax {
  double min = 0, median = 0, max = 0;
};

inline MinMedMax min_med_max(const std::vector<double>& v) {
  if (v.empty()) return {};
  return {*std::min_element(v.begin(), v.end()), percentile(v, 0.5), *std::max_element(v.begin(), v.end())};
}

inline nlohmann::json to_json(const MinMedMax& m) { return {{"min", m.min}, {"median", m.median}, {"max", m.max}}; }

}  // namespace sfcl::cli
