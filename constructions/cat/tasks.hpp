// The recall tasks of the CAT paper (Definitions 2, 3, 5; reconstruction written out in docs/cat.md), on token
// sequences z_1..z_L (0-based here: z[0..L-1]). window(t) = z[t-N+1..t] is the N-gram ending at t.
//   NAR (Def. 3): the query is the last N-gram; exactly one i with N-1 <= i <= L-2 has window(i) = query; the target
//                 is z[i+1]. AR (Def. 2) is NAR with N = 1.
//   MQNAR (Def. 5): every position t >= N-1 is a query; at most one earlier i (N-1 <= i <= t-1) has window(i) =
//                 window(t) (a valid instance); the target is z[i+1], or no-match when there is none.
#pragma once

#include <optional>
#include <vector>

namespace tverify::cat {

using Tokens = std::vector<int>;

bool same_window(const Tokens& z, std::size_t a, std::size_t b, int n);

// The end index i of the unique earlier occurrence of the last N-gram, or nullopt when there is none or several.
std::optional<std::size_t> nar_match(const Tokens& z, int n);

struct MultiQuery {
  std::size_t position;              // the query's last index t
  std::optional<std::size_t> match;  // the end index i of its earlier occurrence, if any
};
// nullopt when some query has two or more earlier occurrences (not a valid MQNAR instance).
std::optional<std::vector<MultiQuery>> mqnar_queries(const Tokens& z, int n);

}  // namespace tverify::cat
