// Plain SVG charts written by the tool (no plotting dependency): panels placed on one page.
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace sfcl::tools::svg {

struct Box {
  int x = 0, y = 0, w = 640, h = 320;
};

// Axis titles, each with its unit, e.g. "time to first token (ms)".
struct Axes {
  std::string x_label;
  std::string y_label;
};

struct Series {
  std::string name;
  std::vector<std::pair<double, double>> points;  // (x, y)
};

// One distribution per category: whiskers lo..hi, box q1..q3, median tick (e.g. p5/p25/p50/p75/p95
// of latencies, or min/median/max of repetitions with q1 = q3 = median).
struct Spread {
  std::string label;
  int series = 0;  // colour index
  double lo = 0, q1 = 0, median = 0, q3 = 0, hi = 0;
};

std::string line_chart(const Box& b, const std::string& title, const std::string& x_label, const std::string& y_label,
                       const std::vector<Series>& series);
// `legend` names the colour indices of the spreads; `note` says how to read the marks.
std::string spread_chart(const Box& b, const std::string& title, const Axes& axes, const std::vector<Spread>& spreads,
                         const std::vector<std::string>& legend, const std::string& note);
std::string histogram(const Box& b, const std::string& title, const Axes& axes, const std::vector<double>& values,
                      const std::vector<std::pair<std::string, double>>& markers);
// Wraps panels into a document of the given size with a white background.
std::string document(int width, int height, const std::vector<std::string>& panels);

}  // namespace sfcl::tools::svg
