// The Z3 query options of a prove run: its timeout, with --cross-check cvc5 as a second solver
// (checkers/second_solver.hpp), and, with --smt2 DIR, a dump that writes each query to DIR/<name>.smt2 through the
// atomic writer of io/files.hpp (mkstemp beside the target, fsync, rename: a planted link is replaced, never
// followed; a FIFO or folder at the target, a full disk or a name the system refuses is a UsageError naming the file).
#pragma once

#include "checkers/construction.hpp"
#include "proofs/z3_query.hpp"

namespace tverify {

proofs::QueryOptions query_options(const ProofOptions& options);

}  // namespace tverify
