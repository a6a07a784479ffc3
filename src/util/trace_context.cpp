#include "bench/util/trace_context.hpp"

#include <random>

#include "bench/util/splitmix64.hpp"

namespace bench::util {

namespace {

void append_hex(std::string& out, std::uint64_t value) {
  static constexpr char kDigits[] = "0123456789abcdef";
  for (int shift = 60; shift >= 0; shift -= 4) out += kDigits[(value >> shift) & 0xf];
}

}  // namespace

std::string TraceContext::trace_id() const {
  std::string out;
  out.reserve(32);
  append_hex(out, trace_high);
  append_hex(out, trace_low);
  return out;
}

std::string TraceContext::span_id() const {
  std::string out;
  out.reserve(16);
  append_hex(out, span);
  return out;
}

std::string TraceContext::header_line() const {
  return "traceparent: 00-" + trace_id() + "-" + span_id() + "-01";
}

TraceIds::TraceIds() {
  std::random_device entropy;
  state_ = (static_cast<std::uint64_t>(entropy()) << 32) ^ entropy();
}

std::uint64_t TraceIds::next_word() {
  state_ += kGoldenGamma;
  return splitmix64_mix(state_);
}

TraceContext TraceIds::next() {
  TraceContext context;
  do {
    context.trace_high = next_word();
    context.trace_low = next_word();
  } while (context.trace_high == 0 && context.trace_low == 0);
  do {
    context.span = next_word();
  } while (context.span == 0);
  return context;
}

}  // namespace bench::util
