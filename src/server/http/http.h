// The public header of the http layer (transport): the transport-neutral request and response,
// the router, and the Beast server with its limits and hooks.
#pragma once
#include "server/http/message.h"
#include "server/http/router.h"
#include "server/http/server.h"
