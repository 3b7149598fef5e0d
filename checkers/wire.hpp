// A partial result as JSON, for the ranks of a cluster to exchange (checkers/enumerate.hpp): a struct is the array of
// its fields in a fixed order. The encoding is exact (integers, strings, exact rationals as text), so a result decoded
// on another rank equals the one encoded.
#pragma once

#include "checkers/verdict.hpp"

#include <cstddef>

namespace tverify {

template <class... Fields>
void put_fields(Json& j, const Fields&... fields) {
  j = Json::array();
  (j.push_back(Json(fields)), ...);
}

template <class... Fields>
void get_fields(const Json& j, Fields&... fields) {
  std::size_t i = 0;
  (j.at(i++).get_to(fields), ...);
}

inline void to_json(Json& j, const Counterexample& c) { put_fields(j, c.input, c.expected, c.got, c.detail); }
inline void from_json(const Json& j, Counterexample& c) { get_fields(j, c.input, c.expected, c.got, c.detail); }

}  // namespace tverify
