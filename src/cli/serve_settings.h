// The settings `sfcl serve` parsed from its command line, as JSON: what its hidden
// --test-print-settings prints, so that tests/cli checks what each flag means without a model.
#pragma once
#include <string>

#include "server/api/api.h"

namespace sfcl::cli {

std::string settings_json(const server::ServerOptions& o);

}  // namespace sfcl::cli
