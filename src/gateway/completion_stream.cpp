#include "gateway/completion_stream.h"

#include <charconv>
#include <limits>

namespace sfcl::gateway {

namespace {

// A cursor over one JSON text. Every method leaves `ok` false on malformed input and then does
// nothing more, so callers check once at the end.
struct Cursor {
  const char* p;
  const char* end;
  bool ok = true;

  void ws() {
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) ++p;
  }
  bool at(char c) {
    ws();
    return p < end && *p == c;
  }
  bool eat(char c) {
    if (!at(c)) return false;
    ++p;
    return true;
  }
  void expect(char c) {
    if (!eat(c)) ok = false;
  }
  // A string's raw text between its quotes (escapes left as sent).
  std::string_view string() {
    if (!eat('"')) {
      ok = false;
      return {};
    }
    const char* s = p;
    while (p < end && *p != '"') p += *p == '\\' ? 2 : 1;
    if (p >= end) {
      ok = false;
      return {};
    }
    return {s, static_cast<size_t>(p++ - s)};
  }
  // Skips one value of any kind.
  void skip() {
    ws();
    if (p >= end) {
      ok = false;
      return;
    }
    if (*p == '"') {
      string();
      return;
    }
    if (*p == '{' || *p == '[') {
      int depth = 0;
      while (p < end) {
        const char c = *p;
        if (c == '"') {
          string();
          if (!ok) return;
          continue;
        }
        ++p;
        if (c == '{' || c == '[') ++depth;
        if ((c == '}' || c == ']') && --depth == 0) return;
      }
      ok = false;
      return;
    }
    while (p < end && *p != ',' && *p != '}' && *p != ']' && *p != ' ' && *p != '\n' && *p != '\r' && *p != '\t') ++p;
  }
  // The text of the next value, skipped.
  std::string_view raw() {
    ws();
    const char* s = p;
    skip();
    return {s, static_cast<size_t>(p - s)};
  }
  template <class T>
  T number() {
    ws();
    T v{};
    const auto [next, ec] = std::from_chars(p, end, v);
    if (ec != std::errc()) {
      ok = false;
      return v;
    }
    p = next;
    return v;
  }
  // A logprob: a number, or null for -inf.
  double logprob() {
    ws();
    if (end - p >= 4 && std::string_view(p, 4) == "null") {
      p += 4;
      return -std::numeric_limits<double>::infinity();
    }
    return number<double>();
  }
  bool boolean() {
    ws();
    if (end - p >= 4 && std::string_view(p, 4) == "true") {
      p += 4;
      return true;
    }
    if (end - p >= 5 && std::string_view(p, 5) == "false") {
      p += 5;
      return false;
    }
    skip();  // not a bool: not a stop either
    return false;
  }
  // Walks an object, calling on_key(key) with the cursor at its value; on_key consumes the value.
  template <class OnKey>
  void object(OnKey&& on_key) {
    expect('{');
    if (eat('}')) return;
    while (ok) {
      const std::string_view key = string();
      expect(':');
      if (!ok) return;
      on_key(key);
      if (eat(',')) continue;
      expect('}');
      return;
    }
  }
  // Walks an array, calling on_item() with the cursor at each element; on_item consumes it.
  template <class OnItem>
  void array(OnItem&& on_item) {
    expect('[');
    if (eat(']')) return;
    while (ok) {
      on_item();
      if (eat(',')) continue;
      expect(']');
      return;
    }
  }
};

// A "prompt_progress" (`progress`) or "timings" object: the cached and evaluated prompt tokens.
void read_progress(Cursor& c, bool progress, CompletionEvent& out) {
  c.object([&](std::string_view k) {
    if ((progress && k == "cache") || (!progress && k == "cache_n" && out.cached < 0)) {
      out.cached = c.number<int32_t>();
    } else if (!progress && k == "prompt_n") {
      out.evaluated = c.number<int32_t>();
    } else {
      c.skip();
    }
  });
}

// One top_logprobs list, appended to `top`.
void read_top(Cursor& c, std::vector<TopProb>& top) {
  c.array([&] {
    TopProb t;
    c.object([&](std::string_view f) {
      if (f == "id") {
        t.id = c.number<Token>();
      } else if (f == "logprob") {
        t.logprob = c.logprob();
      } else {
        c.skip();
      }
    });
    top.push_back(t);
  });
}

// "completion_probabilities": one entry per token of the event (as far as the backend reports
// them), each with its list; the parser's buffers are filled in place.
void read_probabilities(Cursor& c, std::vector<PositionProbs>& positions, std::vector<TopProb>& top) {
  c.array([&] {
    PositionProbs pos;
    pos.top_begin = static_cast<uint32_t>(top.size());
    c.object([&](std::string_view k) {
      if (k == "id") {
        pos.id = c.number<Token>();
      } else if (k == "logprob") {
        pos.logprob = c.logprob();
      } else if (k == "top_logprobs") {
        read_top(c, top);
      } else {
        c.skip();
      }
    });
    pos.top_end = static_cast<uint32_t>(top.size());
    positions.push_back(pos);
  });
}

}  // namespace

bool CompletionEventParser::parse(std::string_view json, CompletionEvent& out) {
  Cursor c{json.data(), json.data() + json.size()};
  tokens_.clear();
  top_.clear();
  positions_.clear();
  text_.clear();
  out = {};
  bool progress_event = false;
  c.object([&](std::string_view key) {
    if (key == "tokens") {
      c.array([&] { tokens_.push_back(c.number<Token>()); });
    } else if (key == "content") {
      if (!unescape_json_string(c.string(), text_)) c.ok = false;
    } else if (key == "tokens_predicted") {
      out.predicted = c.number<int64_t>();
    } else if (key == "stop") {
      out.stop = c.boolean();
    } else if (key == "error") {
      out.error = c.raw();
    } else if (key == "prompt_progress" || key == "timings") {
      // A progress event's `tokens` holds a placeholder id, not a sampled token.
      const bool progress = key == "prompt_progress";
      progress_event = progress_event || progress;
      read_progress(c, progress, out);
    } else if (key == "completion_probabilities") {
      read_probabilities(c, positions_, top_);
    } else {
      c.skip();
    }
  });
  if (!c.ok) return false;
  if (progress_event) tokens_.clear();
  out.tokens = tokens_;
  out.positions = positions_;
  out.all_top = top_;
  if (!positions_.empty()) {  // the last entry's, as before
    const PositionProbs& last = positions_.back();
    out.top = std::span<const TopProb>(top_).subspan(last.top_begin, last.top_end - last.top_begin);
    out.logprob = last.logprob;
  }
  out.text = text_;
  return true;
}

namespace {

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool read_hex4(std::string_view raw, size_t at, uint32_t& out) {
  if (at + 4 > raw.size()) return false;
  out = 0;
  for (size_t i = at; i < at + 4; ++i) {
    const int d = hex_digit(raw[i]);
    if (d < 0) return false;
    out = out * 16 + static_cast<uint32_t>(d);
  }
  return true;
}

void append_utf8(uint32_t cp, std::string& out) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

}  // namespace

bool unescape_json_string(std::string_view raw, std::string& out) {
  for (size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] != '\\') {
      out += raw[i];
      continue;
    }
    if (++i >= raw.size()) return false;
    switch (raw[i]) {
      case '"':
        out += '"';
        break;
      case '\\':
        out += '\\';
        break;
      case '/':
        out += '/';
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'u': {
        uint32_t cp = 0;
        if (!read_hex4(raw, i + 1, cp)) return false;
        i += 4;
        // A surrogate pair: the low half follows as its own escape.
        uint32_t low = 0;
        if (cp >= 0xD800 && cp < 0xDC00 && i + 2 < raw.size() && raw[i + 1] == '\\' && raw[i + 2] == 'u' &&
            read_hex4(raw, i + 3, low) && low >= 0xDC00 && low < 0xE000) {
          cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
          i += 6;
        }
        append_utf8(cp, out);
        break;
      }
      default:
        return false;
    }
  }
  return true;
}

std::string_view SseSplitter::data_of(std::string_view event) {
  // Comment lines (":" pings) and other fields are skipped; llama-server writes one data line.
  while (!event.empty()) {
    const size_t nl = event.find('\n');
    std::string_view line = event.substr(0, nl);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.starts_with("data:")) {
      line.remove_prefix(5);
      if (line.starts_with(' ')) line.remove_prefix(1);
      return line;
    }
    if (nl == std::string_view::npos) break;
    event.remove_prefix(nl + 1);
  }
  return {};
}

}  // namespace sfcl::gateway
