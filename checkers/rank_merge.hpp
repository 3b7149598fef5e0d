// The end of an enumeration under MPI (checkers/enumerate.hpp): the chunks' accumulators and errors of every rank,
// encoded exactly (checkers/wire.hpp), merged on rank 0 in chunk order and the result sent to every rank.
#pragma once

#include "checkers/cluster.hpp"
#include "io/errors.hpp"
#include "checkers/wire.hpp"

#include <algorithm>
#include <cstdint>
#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

namespace tverify {

// A chunk's error as JSON: whether it was a UsageError, and its message.
inline Json error_entry(const std::exception_ptr& error) {
  try {
    std::rethrow_exception(error);
  } catch (const UsageError& e) { return Json::array({"usage", e.what()}); } catch (const std::exception& e) {
    return Json::array({"internal", e.what()});
  }
}

[[noreturn]] inline void rethrow_entry(const Json& entry) {
  if (entry.at(0) == "usage") throw UsageError(entry.at(1).get<std::string>());
  throw std::runtime_error(entry.at(1).get<std::string>());
}

inline std::string cbor_bytes(const Json& j) {
  const std::vector<std::uint8_t> bytes = Json::to_cbor(j);
  return {bytes.begin(), bytes.end()};
}

// The merged result of a distributed enumeration, on every rank: each rank sends rank 0 the accumulators (or errors)
// of the chunks it ran (ran[c]); rank 0 merges every chunk's in chunk order, as one process does, and sends every rank
// the result or the smallest failing chunk's error. Each rank sends its share of the chunks, rank 0 sends one result.
// On rank 0, received(c, accumulator) sees every chunk that some rank ran without error, before the merge.
template <class Acc, class Merge, class Received>
Acc merged_across_ranks(Cluster& cluster, const std::vector<char>& ran, std::vector<Acc>& partial,
                        const std::vector<std::exception_ptr>& errors, Merge& merge, Received received) {
  const std::uint64_t chunks = ran.size();
  Json local = Json::array();
  for (std::uint64_t c = 0; c < chunks; ++c)
    if (ran[c])
      local.push_back(errors[c] ? Json::array({c, nullptr, error_entry(errors[c])}) : Json::array({c, partial[c]}));
  const std::vector<std::string> gathered = cluster.gather(cbor_bytes(local));
  Acc result{};
  Json outcome;  // from rank 0: [result] or [null, error]
  if (cluster.rank() == 0) {
    std::vector<Json> failure(chunks);
    for (std::uint64_t c = 0; c < chunks; ++c) {
      if (ran[c] && errors[c]) failure[c] = error_entry(errors[c]);
      if (ran[c] && !errors[c]) received(c, partial[c]);
    }
    for (const std::string& blob : gathered)
      for (const Json& entry : Json::from_cbor(blob)) {
        const auto c = entry.at(0).get<std::uint64_t>();
        if (ran[c]) continue;
        if (entry.size() == 2) {
          partial[c] = entry.at(1).get<Acc>();
          received(c, partial[c]);
        } else
          failure[c] = entry.at(2);
      }
    const auto first = std::find_if(failure.begin(), failure.end(), [](const Json& f) { return !f.is_null(); });
    if (first != failure.end()) {
      outcome = Json::array({nullptr, *first});
    } else {
      result = std::move(partial[0]);
      for (std::uint64_t c = 1; c < chunks; ++c) merge(result, std::move(partial[c]));
      outcome = Json::array({result});
    }
  }
  outcome = Json::from_cbor(cluster.broadcast(cluster.rank() == 0 ? cbor_bytes(outcome) : std::string()));
  if (outcome.size() == 2) rethrow_entry(outcome.at(1));
  return cluster.rank() == 0 ? std::move(result) : outcome.at(0).get<Acc>();
}

}  // namespace tverify
