// The model `sfcl serve` uses without --model: the demo model that make install puts next to
// the binary (<prefix>/share/sfcl/sfcl-demo.gguf for <prefix>/bin/sfcl).
#pragma once
#include <string>

namespace sfcl::cli {

// Path of the installed demo model, or empty when this binary has none next to it.
std::string installed_demo_model();

}  // namespace sfcl::cli
