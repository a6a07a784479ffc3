#pragma once
// The battery's checks of what goes wrong: a prompt beyond the context, a model the server does
// not serve, a stream the client drops. Private to src/app/conform.
#include "conform_check.hpp"

namespace bench::app::conform {

Verdict check_oversize_prompt(const ConformServer& server);
Verdict check_wrong_model(const ConformServer& server);
Verdict check_closed_connection(const ConformServer& server);

}  // namespace bench::app::conform
