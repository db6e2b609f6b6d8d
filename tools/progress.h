// Progress of a long command on stderr: on a terminal one line redrawn in place (bar, count, rate,
// ETA); otherwise (a log file, CI) a plain line now and then, so logs stay readable.
#pragma once
#include <chrono>
#include <cstdint>
#include <string>

namespace sfcl::tools {

class Progress {
 public:
  // `unit` names what is counted ("runs", "requests"); a total of 0 shows nothing.
  Progress(std::string label, int64_t total, std::string unit, bool enabled = true);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  void advance(int64_t n = 1);
  // For work measured by something other than a count of units (steps, seconds): where it is now.
  void set(int64_t done);
  // Text shown after the ETA (e.g. the current loss); kept until the next note.
  void note(std::string text);
  // Rate makes no sense for every unit (seconds per second): leave it out.
  void hide_rate() { show_rate_ = false; }
  void finish();  // the final line; also done by the destructor

 private:
  void draw(bool last);

  using Clock = std::chrono::steady_clock;
  std::string label_;
  std::string unit_;
  int64_t total_ = 0;
  int64_t done_ = 0;
  bool enabled_ = true;
  bool tty_ = false;
  bool finished_ = false;
  bool show_rate_ = true;
  std::string note_;
  Clock::time_point start_;
  Clock::time_point last_draw_;
};

}  // namespace sfcl::tools
