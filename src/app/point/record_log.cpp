#include "bench/app/point/record_log.hpp"

#include "bench/results/writer.hpp"

namespace bench::app {

void RecordLog::set_point(nlohmann::json point) {
  const std::lock_guard lock(mutex_);
  point_ = point.is_null() ? std::string() : point.dump();
}

void RecordLog::write(const metrics::RequestRecord& record, std::size_t server) noexcept {
  const std::lock_guard lock(mutex_);
  if (!error_.empty()) return;
  try {
    line_.clear();
    results::append_request_jsonl(line_, record, point_, server);
    line_ += '\n';
    file_.write(line_);
    file_.flush();  // one write(2) a line: a killed run keeps every line written
  } catch (const std::exception& error) {
    error_ = error.what();
  }
}

void RecordLog::commit() {
  const std::lock_guard lock(mutex_);
  if (!error_.empty()) throw std::runtime_error(error_);
  file_.commit();
}

}  // namespace bench::app
