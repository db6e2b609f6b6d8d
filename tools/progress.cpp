#include "tools/progress.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>

namespace sfcl::tools {
namespace {

std::string clock_text(double seconds) {
  const auto s = static_cast<long long>(std::max(0.0, seconds));
  char buf[32];
  if (s >= 3600) {
    std::snprintf(buf, sizeof buf, "%lld:%02lld:%02lld", s / 3600, s / 60 % 60, s % 60);
  } else {
    std::snprintf(buf, sizeof buf, "%02lld:%02lld", s / 60, s % 60);
  }
  return buf;
}

}  // namespace

Progress::Progress(std::string label, int64_t total, std::string unit, bool enabled)
    : label_(std::move(label)),
      unit_(std::move(unit)),
      total_(total),
      enabled_(enabled && total > 0),
      tty_(::isatty(STDERR_FILENO) != 0),
      start_(Clock::now()),
      last_draw_(start_) {}

Progress::~Progress() { finish(); }

void Progress::advance(int64_t n) { set(done_ + n); }

void Progress::note(std::string text) { note_ = std::move(text); }

void Progress::set(int64_t done) {
  done_ = std::clamp<int64_t>(done, 0, total_);
  if (!enabled_ || finished_) return;
  // A terminal is redrawn a few times a second; a log gets a line every 10 s.
  const auto every = tty_ ? std::chrono::milliseconds(200) : std::chrono::milliseconds(10000);
  if (Clock::now() - last_draw_ >= every) draw(false);
}

void Progress::finish() {
  if (!enabled_ || finished_) return;
  finished_ = true;
  draw(true);
}

void Progress::draw(bool last) {
  last_draw_ = Clock::now();
  const double elapsed = std::chrono::duration<double>(last_draw_ - start_).count();
  const double rate = elapsed > 0 ? static_cast<double>(done_) / elapsed : 0.0;
  const double eta = rate > 0 ? static_cast<double>(total_ - done_) / rate : 0.0;
  const double share = static_cast<double>(done_) / static_cast<double>(total_);
  char rate_text[64] = "";
  if (show_rate_) std::snprintf(rate_text, sizeof rate_text, ", %.1f %s/s", rate, unit_.c_str());
  const std::string note = note_.empty() ? "" : ", " + note_;
  if (tty_) {
    constexpr int kWidth = 24;
    const int filled = static_cast<int>(share * kWidth);
    const std::string bar = std::string(static_cast<size_t>(filled), '#') + std::string(kWidth - filled, '.');
    std::fprintf(stderr, "\r%s [%s] %lld/%lld %s%s, %s %s%s\x1b[K%s", label_.c_str(), bar.c_str(),
                 static_cast<long long>(done_), static_cast<long long>(total_), unit_.c_str(), rate_text,
                 last ? "took" : "ETA", clock_text(last ? elapsed : eta).c_str(), note.c_str(), last ? "\n" : "");
  } else {
    std::fprintf(stderr, "%s: %lld/%lld %s (%.0f%%)%s, %s %s%s\n", label_.c_str(), static_cast<long long>(done_),
                 static_cast<long long>(total_), unit_.c_str(), 100 * share, rate_text, last ? "took" : "ETA",
                 clock_text(last ? elapsed : eta).c_str(), note.c_str());
  }
  std::fflush(stderr);
}

}  // namespace sfcl::tools
