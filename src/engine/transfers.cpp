// The transfers the loop starts and ends: a reusable easy handle per slot, the request it
// carries, the body bytes curl hands over, and the one way every transfer ends.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "bench/engine/connect_backoff.hpp"
#include "bench/engine/curl_error.hpp"
#include "easy_options.hpp"
#include "engine_impl.hpp"

namespace bench::engine {

namespace {

// How a transfer bench itself ended (a deadline, a cancellation) ends: `error`, said by
// `message`, at `end_ns`.
TransferEnd ended_by_bench(metrics::ErrorClass error, std::string message, std::int64_t end_ns) {
  TransferEnd end;
  end.error = error;
  end.message = std::move(message);
  end.end_ns = end_ns;
  return end;
}

// The slot a transfer that ended frees: free from its end, or, after a connection failure with
// a backoff set, from the end of that slot's wait; its streak of failures counted on.
FreeSlot slot_after(int connect_failures, const TransferEnd& end, std::int64_t backoff_max_ms) {
  if (backoff_max_ms <= 0 || !is_connection_failure(end.error)) return {end.end_ns, 0};
  const int failures = connect_failures + 1;
  return {end.end_ns + connect_backoff_ms(failures, backoff_max_ms) * kNsPerMs, failures};
}

}  // namespace

// CURLOPT_WRITEFUNCTION: body bytes after chunked decoding, stamped with the read's time.
size_t Engine::Impl::on_write(char* data, size_t size, size_t count, void* userp) {
  auto* transfer = static_cast<Transfer*>(userp);
  Impl& engine = *transfer->engine;
  const size_t bytes = size * count;
  // A deadline already decided how it ends: nothing after that is the request's.
  if (transfer->judged) return bytes;
  if (!transfer->headers_seen) engine.deliver_headers(*transfer);
  if (transfer->body_bytes == 0 && bytes > 0 && engine.options.stall_timeout_ms > 0) {
    // The stall limit counts from the first body byte; later bytes only move it (lazily).
    engine.push_deadline({engine.read_stamp_ns + engine.options.stall_timeout_ms * kNsPerMs,
                          transfer->serial, transfer->slot, DeadlineKind::stall});
  }
  transfer->body_bytes += static_cast<std::int64_t>(bytes);
  transfer->last_byte_ns = engine.read_stamp_ns;
  const bool keep_going =
      transfer->request.handler->on_body(std::string_view(data, bytes), engine.read_stamp_ns);
  if (!keep_going) {
    transfer->aborted_by_handler = true;
    return CURL_WRITEFUNC_ERROR;
  }
  return bytes;
}

Engine::Impl::Transfer& Engine::Impl::acquire_transfer() {
  if (!idle.empty()) {
    Transfer* transfer = idle.back();
    idle.pop_back();
    return *transfer;
  }
  auto transfer = std::make_unique<Transfer>();
  transfer->easy.reset(curl_easy_init());
  if (!transfer->easy) throw std::runtime_error("curl_easy_init failed");
  transfer->engine = this;
  transfer->slot = static_cast<std::uint32_t>(transfers.size());
  CURL* easy = transfer->easy.get();
  curl_easy_setopt(easy, CURLOPT_PRIVATE, transfer.get());
  curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, &Impl::on_write);
  curl_easy_setopt(easy, CURLOPT_WRITEDATA, transfer.get());
  curl_easy_setopt(easy, CURLOPT_HEADERFUNCTION, &Impl::on_header);
  curl_easy_setopt(easy, CURLOPT_HEADERDATA, transfer.get());
  curl_easy_setopt(easy, CURLOPT_CLOSESOCKETFUNCTION, &Impl::on_close_socket);
  curl_easy_setopt(easy, CURLOPT_CLOSESOCKETDATA, this);
  set_persistent_options(easy, options);
  transfers.push_back(std::move(transfer));
  return *transfers.back();
}

curl_slist* Engine::Impl::header_list_for(const std::vector<std::string>* lines) {
  auto found = header_lists.find(lines);
  if (found != header_lists.end()) return found->second.get();
  std::vector<std::string> all = lines != nullptr ? *lines : std::vector<std::string>{};
  // libcurl adds "Expect: 100-continue" to large POSTs and then waits for the server's go-ahead
  // up to CURLOPT_EXPECT_100_TIMEOUT_MS (default 1000 ms, curl's
  // docs/libcurl/opts/CURLOPT_EXPECT_100_TIMEOUT_MS.md); an empty Expect header turns that off.
  all.emplace_back("Expect:");
  HeaderList list = make_header_list(all);
  curl_slist* raw = list.get();
  header_lists.emplace(lines, std::move(list));
  return raw;
}

void Engine::Impl::start_transfer(Transfer& transfer) {
  CURL* easy = transfer.easy.get();
  const TransferRequest& request = transfer.request;
  curl_easy_setopt(easy, CURLOPT_URL, request.url.c_str());
  if (request.body.empty()) {
    curl_easy_setopt(easy, CURLOPT_HTTPGET, 1L);
  } else {
    // POSTFIELDS is not copied: the body lives in the Transfer until the transfer ends.
    curl_easy_setopt(easy, CURLOPT_POSTFIELDS, request.body.data());
    curl_easy_setopt(easy, CURLOPT_POSTFIELDSIZE_LARGE,
                     static_cast<curl_off_t>(request.body.size()));
  }
  curl_slist* shared = header_list_for(request.headers);
  if (request.own_header.empty()) {
    transfer.own_header.reset();
    curl_easy_setopt(easy, CURLOPT_HTTPHEADER, shared);
  } else {
    // Its own line (one node, kept until the transfer is started again) ahead of the shared
    // ones: one allocation a request, not a copy of every line.
    transfer.own_header = prepend_header_line(request.own_header, shared);
    curl_easy_setopt(easy, CURLOPT_HTTPHEADER, transfer.own_header.get());
  }
  // Once the server has shown it closes every connection after its response, each request
  // gets a new one (connection_watch.hpp); until then, a kept one not idle too long.
  curl_easy_setopt(easy, CURLOPT_FRESH_CONNECT, connection_watch.reuse_stopped() ? 1L : 0L);
  curl_easy_setopt(easy, CURLOPT_MAXAGE_CONN, idle_retire_s);
  transfer.serial = next_serial++;
  transfer.in_flight = true;
  transfer.headers_seen = false;
  transfer.aborted_by_handler = false;
  transfer.response_started = false;
  transfer.resends = 0;
  transfer.lost_attempts = 0;
  transfer.body_bytes = 0;
  transfer.sent_ns = now_ns();
  transfer.attempt_start_ns = transfer.sent_ns;
  transfer.last_byte_ns = transfer.sent_ns;
  if (options.ttft_timeout_ms > 0) {
    push_deadline({transfer.sent_ns + options.ttft_timeout_ms * kNsPerMs, transfer.serial,
                   transfer.slot, DeadlineKind::first_token});
  }
  const CURLMcode code = curl_multi_add_handle(multi.get(), easy);
  if (code != CURLM_OK) {
    throw std::runtime_error(std::string("curl_multi_add_handle: ") + curl_multi_strerror(code));
  }
  ++in_flight;
  ++stats.started;
}

void Engine::Impl::deliver_headers(Transfer& transfer) {
  transfer.headers_seen = true;
  long status = 0;
  curl_easy_getinfo(transfer.easy.get(), CURLINFO_RESPONSE_CODE, &status);
  const char* content_type = nullptr;
  curl_easy_getinfo(transfer.easy.get(), CURLINFO_CONTENT_TYPE, &content_type);
  transfer.request.handler->on_headers(status, content_type != nullptr ? content_type : "");
}

// A transfer curl finished: how it ended and what its connection cost, from curl's own record.
void Engine::Impl::finish_transfer(Transfer& transfer, CURLcode result) {
  if (transfer.judged) {  // a deadline decided first
    end_judged(transfer);
    return;
  }
  CURL* easy = transfer.easy.get();
  TransferEnd end;
  long status = 0;
  curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
  curl_easy_getinfo(easy, CURLINFO_NUM_CONNECTS, &end.new_connections);
  if (resend_on_new_connection(transfer, result, status, end.new_connections)) return;
  end.end_ns = now_ns();
  if (!transfer.headers_seen && status > 0) deliver_headers(transfer);
  curl_off_t connect_time_us = 0;
  curl_easy_getinfo(easy, CURLINFO_CONNECT_TIME_T, &connect_time_us);
  stats.connections_opened += end.new_connections;
  curl_off_t app_connect_us = 0;  // TLS handshake done; 0 for plain http
  curl_easy_getinfo(easy, CURLINFO_APPCONNECT_TIME_T, &app_connect_us);
  // curl times the attempt it finished; a resent request's figures count from its first.
  const std::int64_t lost_ns = transfer.attempt_start_ns - transfer.sent_ns;
  if (end.new_connections > 0) {
    end.connect_ns = lost_ns + std::max(connect_time_us, app_connect_us) * kNsPerUs;
  }
  curl_off_t start_transfer_us = 0;
  curl_easy_getinfo(easy, CURLINFO_STARTTRANSFER_TIME_T, &start_transfer_us);
  if (status > 0 && start_transfer_us > 0) {
    end.response_start_ns = lost_ns + start_transfer_us * kNsPerUs;
  }
  note_connection_outcome(transfer, end, status);
  const bool connected = connect_time_us > 0 || status > 0;
  end.error = classify_curl_result(result, connected, transfer.body_bytes > 0);
  if (result != CURLE_OK) {
    end.message = transfer.aborted_by_handler ? "aborted by bench" : curl_easy_strerror(result);
  }
  end_transfer(transfer, end);
}

// Ends a transfer before curl does, at once (a cancellation; a deadline is judged first):
// leaving the multi handle closes its connection, and its handler hears the reason.
void Engine::Impl::end_early(Transfer& transfer, metrics::ErrorClass error, std::string message,
                             std::int64_t end_ns) {
  end_transfer(transfer, ended_by_bench(error, std::move(message), end_ns));
}

// A deadline's verdict, at its time: how the transfer ends is decided now, at `end_ns`; it is
// torn down by tear_down_judged (or by curl finishing it first).
void Engine::Impl::judge(Transfer& transfer, metrics::ErrorClass error, std::string message,
                         std::int64_t end_ns) {
  transfer.judged = ended_by_bench(error, std::move(message), end_ns);
  judged.emplace_back(&transfer, transfer.serial);
}

void Engine::Impl::end_judged(Transfer& transfer) {
  const TransferEnd end = std::move(*transfer.judged);
  transfer.judged.reset();
  end_transfer(transfer, end);
}

// The one way every transfer ends, whatever ended it: its slot is freed, its body released and
// its handler told, last.
void Engine::Impl::end_transfer(Transfer& transfer, const TransferEnd& end) {
  curl_multi_remove_handle(multi.get(), transfer.easy.get());
  forget_socket(transfer);
  transfer.in_flight = false;
  --in_flight;
  ++stats.finished;
  free_slots.give_back(
      slot_after(transfer.slot_connect_failures, end, options.connect_backoff_max_ms), end.end_ns);
  TransferHandler* handler = transfer.request.handler;
  transfer.request = TransferRequest{};  // release the body now
  idle.push_back(&transfer);
  handler->on_end(end);
}

// A request its source could not make ends as it is taken, as a transfer ends (end_transfer)
// but with nothing of curl's to undo: it held its concurrency slot for no time, and it is
// counted started and finished, so started == finished still holds when the run ends.
void Engine::Impl::end_unsent(TransferRequest request, FreeSlot slot) {
  TransferEnd end = std::move(*request.unsent);
  end.end_ns = now_ns();
  ++stats.started;
  ++stats.unsent;
  ++stats.finished;
  slot.since_ns = end.end_ns;  // it tried no connection: its streak stands
  free_slots.give_back(slot, end.end_ns);
  request.handler->on_end(end);
}

void Engine::Impl::drain_finished() {
  int pending = 0;
  while (CURLMsg* message = curl_multi_info_read(multi.get(), &pending)) {
    if (message->msg != CURLMSG_DONE) continue;
    Transfer* transfer = nullptr;
    curl_easy_getinfo(message->easy_handle, CURLINFO_PRIVATE, &transfer);
    // Copy the result before finish_transfer: removing the handle invalidates `message`.
    const CURLcode result = message->data.result;
    finish_transfer(*transfer, result);
  }
}

void Engine::Impl::cancel_in_flight(const std::string& why) {
  for (const auto& transfer : transfers) {
    if (!transfer->in_flight) continue;
    if (transfer->judged) {  // its deadline fired before the cancellation
      end_judged(*transfer);
      continue;
    }
    ++stats.cancelled;
    end_early(*transfer, metrics::ErrorClass::cancelled, why, now_ns());
  }
}

}  // namespace bench::engine
