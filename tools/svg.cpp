#include "tools/svg.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace sfcl::tools::svg {
namespace {

const char* const kColors[] = {"#4a7bd0", "#d0704a", "#3a9a5b", "#8a5bd0", "#c0a030", "#555555"};
const char* color(int i) { return kColors[static_cast<size_t>(i) % (sizeof kColors / sizeof kColors[0])]; }

std::string fmt(const char* f, auto... args) {
  char buf[512];
  std::snprintf(buf, sizeof buf, f, args...);
  return buf;
}

std::string esc(const std::string& s) {
  std::string o;
  for (char c : s) {
    switch (c) {
      case '<':
        o += "&lt;";
        break;
      case '>':
        o += "&gt;";
        break;
      case '&':
        o += "&amp;";
        break;
      default:
        o += c;
    }
  }
  return o;
}

// A "nice" axis maximum (1, 2, 2.5 or 5 times a power of ten) so tick labels are round numbers.
double nice_max(double v) {
  if (v <= 0) return 1.0;
  const double p = std::pow(10.0, std::floor(std::log10(v)));
  for (double m : {1.0, 2.0, 2.5, 5.0, 10.0}) {
    if (v <= m * p) return m * p;
  }
  return 10 * p;
}

// As many decimals as the tick step needs (0, 4, 8 for counts; 0.2, 0.4 for fractions).
std::string tick_label(double v, double step) {
  if (v == 0) return "0";
  const int decimals = step >= 1 ? 0 : std::min(4, static_cast<int>(std::ceil(-std::log10(step) - 1e-9)));
  const double rounded = std::round(step * std::pow(10.0, decimals));
  const int extra = std::fabs(rounded - step * std::pow(10.0, decimals)) > 1e-6 ? 1 : 0;  // 2.5 -> one more
  return fmt("%.*f", decimals + extra, v);
}

// A value on an axis that spans `span` with no round step (a histogram's min..max): 3 significant
// digits of the span are enough to tell ticks apart.
std::string range_label(double v, double span) { return fmt("%.*f", span >= 50 ? 0 : (span >= 5 ? 1 : 2), v); }

struct Frame {
  double left, top, right, bottom;  // plot area in page coordinates
  double ymax;
  [[nodiscard]] double y(double v) const { return bottom - (v / ymax) * (bottom - top); }
};

// Title, y axis with 5 ticks, grid lines and its title, x axis line and its title. The band between
// the title and the plot area holds the legend, so it never covers data.
std::string frame(const Box& b, const std::string& title, const std::string& x_label, const std::string& y_label,
                  double ymax, Frame& f) {
  f = {b.x + 64.0, b.y + 52.0, b.x + b.w - 16.0, b.y + b.h - 48.0, nice_max(ymax)};
  std::string s = fmt("<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-size=\"14\">%s</text>\n", b.x + b.w / 2,
                      b.y + 18, esc(title).c_str());
  for (int i = 0; i <= 5; ++i) {
    const double v = f.ymax * i / 5;
    s +=
        fmt("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#dddddd\"/>"
            "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
            f.left, f.y(v), f.right, f.y(v), f.left - 6, f.y(v) + 4, tick_label(v, f.ymax / 5).c_str());
  }
  s += fmt("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>\n", f.left, f.bottom, f.right,
           f.bottom);
  s += fmt("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>\n", f.left, f.top, f.left,
           f.bottom);
  s += fmt("<text transform=\"translate(%d,%.1f) rotate(-90)\" text-anchor=\"middle\">%s</text>\n", b.x + 14,
           (f.top + f.bottom) / 2, esc(y_label).c_str());
  s += fmt("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n", (f.left + f.right) / 2, f.bottom + 36,
           esc(x_label).c_str());
  return s;
}

// Colour swatches with the series names, then a note on how to read the marks (grey).
std::string legend_row(double x, double y, const std::vector<std::string>& names, const std::string& note = {}) {
  std::string s;
  for (size_t i = 0; i < names.size(); ++i) {
    s += fmt(
        "<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"12\" fill=\"%s\"/><text x=\"%.1f\" y=\"%.1f\">%s</text>\n",
        x, y - 10, color(static_cast<int>(i)), x + 16, y, esc(names[i]).c_str());
    x += 28 + 7.0 * static_cast<double>(names[i].size());
  }
  if (!note.empty()) s += fmt("<text x=\"%.1f\" y=\"%.1f\" fill=\"#666666\">%s</text>\n", x, y, esc(note).c_str());
  return s;
}

}  // namespace

std::string line_chart(const Box& b, const std::string& title, const std::string& x_label, const std::string& y_label,
                       const std::vector<Series>& series) {
  double xmin = 1e300, xmax = -1e300, ymax = 0;
  for (const auto& se : series) {
    for (auto [x, y] : se.points) {
      xmin = std::min(xmin, x);
      xmax = std::max(xmax, x);
      ymax = std::max(ymax, y);
    }
  }
  if (xmin > xmax) xmin = 0, xmax = 1;
  if (xmax == xmin) xmax = xmin + 1;
  Frame f{};
  std::string s = frame(b, title, x_label, y_label, ymax, f);
  auto px = [&](double x) { return f.left + 20 + (x - xmin) / (xmax - xmin) * (f.right - f.left - 40); };
  std::vector<double> xs;
  for (const auto& se : series) {
    for (auto [x, y] : se.points) xs.push_back(x);
  }
  std::sort(xs.begin(), xs.end());
  xs.erase(std::unique(xs.begin(), xs.end()), xs.end());
  for (double x : xs) {
    s += fmt("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n", px(x), f.bottom + 16,
             fmt("%g", x).c_str());
  }
  std::vector<std::string> names;
  for (size_t i = 0; i < series.size(); ++i) {
    names.push_back(series[i].name);
    std::string pts;
    for (auto [x, y] : series[i].points) pts += fmt("%.1f,%.1f ", px(x), f.y(y));
    s += fmt("<polyline points=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"/>\n", pts.c_str(),
             color(static_cast<int>(i)));
    for (auto [x, y] : series[i].points) {
      s += fmt("<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"/>\n", px(x), f.y(y), color(static_cast<int>(i)));
    }
  }
  return s + legend_row(f.left, b.y + 38, names, "points: median of repetitions");
}

std::string spread_chart(const Box& b, const std::string& title, const Axes& axes, const std::vector<Spread>& spreads,
                         const std::vector<std::string>& legend, const std::string& note) {
  double ymax = 0;
  for (const auto& sp : spreads) ymax = std::max(ymax, sp.hi);
  Frame f{};
  std::string s = frame(b, title, axes.x_label, axes.y_label, ymax, f);
  const double slot = (f.right - f.left) / static_cast<double>(std::max<size_t>(1, spreads.size()));
  for (size_t i = 0; i < spreads.size(); ++i) {
    const Spread& sp = spreads[i];
    const double cx = f.left + slot * (static_cast<double>(i) + 0.5);
    const double bw = std::min(28.0, slot * 0.5);
    const char* c = color(sp.series);
    s += fmt("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n", cx, f.y(sp.lo), cx, f.y(sp.hi),
             c);
    s += fmt("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n", cx - bw / 4, f.y(sp.lo),
             cx + bw / 4, f.y(sp.lo), c);
    s += fmt("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n", cx - bw / 4, f.y(sp.hi),
             cx + bw / 4, f.y(sp.hi), c);
    s +=
        fmt("<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" fill-opacity=\"0.35\" "
            "stroke=\"%s\"/>\n",
            cx - bw / 2, f.y(sp.q3), bw, std::max(1.0, f.y(sp.q1) - f.y(sp.q3)), c, c);
    s += fmt("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"3\"/>\n", cx - bw / 2,
             f.y(sp.median), cx + bw / 2, f.y(sp.median), c);
    s += fmt("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"11\">%s</text>\n", cx, f.bottom + 16,
             esc(sp.label).c_str());
  }
  return s + legend_row(f.left, b.y + 38, legend, note);
}

std::string histogram(const Box& b, const std::string& title, const Axes& axes, const std::vector<double>& values,
                      const std::vector<std::pair<std::string, double>>& markers) {
  const int bins = 20;
  const double lo = values.empty() ? 0.0 : *std::min_element(values.begin(), values.end());
  const double hi = values.empty() ? 1.0 : std::max(lo + 1e-6, *std::max_element(values.begin(), values.end()));
  std::vector<int> h(bins, 0);
  for (double x : values) h[static_cast<size_t>(std::min(bins - 1, static_cast<int>((x - lo) / (hi - lo) * bins)))]++;
  Frame f{};
  std::string s = frame(b, title, axes.x_label, axes.y_label, *std::max_element(h.begin(), h.end()), f);
  const double bw = (f.right - f.left) / bins;
  for (int i = 0; i < bins; ++i) {
    const double top = f.y(h[static_cast<size_t>(i)]);
    s += fmt("<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>\n", f.left + i * bw + 1, top,
             bw - 2, f.bottom - top, color(0));
  }
  for (int i = 0; i <= 4; ++i) {  // x ticks at the range's ends and quarters
    const double x = f.left + (f.right - f.left) * i / 4;
    s +=
        fmt("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>"
            "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
            x, f.bottom, x, f.bottom + 4, x, f.bottom + 17, range_label(lo + (hi - lo) * i / 4, hi - lo).c_str());
  }
  for (size_t i = 0; i < markers.size(); ++i) {
    const double x = f.left + (markers[i].second - lo) / (hi - lo) * (f.right - f.left);
    const bool right_half = x > (f.left + f.right) / 2;  // label on the side with room
    s +=
        fmt("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-dasharray=\"4\"/>"
            "<text x=\"%.1f\" y=\"%.1f\" fill=\"%s\" text-anchor=\"%s\">%s %s</text>\n",
            x, f.top, x, f.bottom, color(1), right_half ? x - 3 : x + 3, f.top + 12 + 14.0 * static_cast<double>(i),
            color(1), right_half ? "end" : "start", esc(markers[i].first).c_str(),
            range_label(markers[i].second, hi - lo).c_str());
  }
  return s + legend_row(f.left, b.y + 38, {axes.y_label}, "dashed: percentiles");
}

std::string document(int width, int height, const std::vector<std::string>& panels) {
  std::string s =
      fmt("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
          "font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
          width, height, width, height);
  for (const auto& p : panels) s += p;
  return s + "</svg>\n";
}

}  // namespace sfcl::tools::svg
