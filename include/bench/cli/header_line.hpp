#pragma once
// --header's value: an HTTP field name and value, as bench writes it ('Name: value') or as
// vLLM's `bench serve --header` does (KEY=VALUE).
#include <string>

namespace bench::cli {

/// An HTTP field name (RFC 9110's token): what a header line may start with.
bool is_header_name(const std::string& name);

/// `given` as a header line: 'Name: value' as it is; vLLM's KEY=VALUE (a field name before the
/// first '=', no ':' before it) as 'KEY: VALUE'. Anything else as it is, for the check that
/// refuses it.
std::string header_line(const std::string& given);

/// header_line(given), checked: throws UsageError naming --header when it is not 'Name: value'
/// or holds a CR or LF (which would end the field and start another).
std::string checked_header_line(const std::string& given);

}  // namespace bench::cli
