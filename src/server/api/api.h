// The public header of the api layer: the server's options, the request types and parsers of both
// APIs, and the signing of verdicts.
#pragma once
#include "server/api/options.h"
#include "server/api/request.h"
#include "server/api/signing.h"
#include "server/api/types.h"
