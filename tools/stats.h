// Summary statistics shared by the benchmarks and probe.
#pragma once
#include <algorithm>
#include <nlohmann/json.hpp>
#include <vector>

namespace sfcl::tools {

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

// A metric of each repetition, summarised.
template <typename Sample, typename F>
MinMedMax over(const std::vector<Sample>& samples, F metric) {
  std::vector<double> v;
  v.reserve(samples.size());
  for (const auto& s : samples) v.push_back(metric(s));
  return min_med_max(v);
}

// metric(a[i]) / metric(b[i]) per repetition, summarised: repetitions are interleaved, so pairing
// them cancels drift of the machine that hits both alike.
template <typename Sample, typename F>
MinMedMax paired_ratio(const std::vector<Sample>& a, const std::vector<Sample>& b, F metric) {
  std::vector<double> v;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) v.push_back(metric(a[i]) / std::max(1e-12, metric(b[i])));
  return min_med_max(v);
}

inline nlohmann::json to_json(const MinMedMax& m) { return {{"min", m.min}, {"median", m.median}, {"max", m.max}}; }

}  // namespace sfcl::tools
