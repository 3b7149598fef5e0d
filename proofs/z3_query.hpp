// One Z3 query (docs/conventions.md): a fresh solver, a timeout, hypotheses and the negation of a goal. unsat proves
// the goal for every assignment of the free variables; sat gives a model that the caller must replay in exact
// arithmetic before calling it a counterexample; unknown (including a timeout) is reported as unknown. With a dump, the
// query's SMT-LIB2 text is handed to it (the caller writes it, checkers/proof_dump.hpp) so that a reader can re-run it
// in another solver.
#pragma once

#include "core/exact.hpp"

#include <z3++.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace tverify::proofs {

// Receives a query's name and its SMT-LIB2 text, and returns where it put it.
using QueryDump = std::function<std::string(const std::string& name, const std::string& smt2)>;

// A second solver's answer to the same query, run on its SMT-LIB2 text (prove --cross-check: cvc5, run by
// checkers/second_solver.hpp).
struct SecondAnswer {
  std::string solver;  // "cvc5 1.0.3"
  std::string answer;  // "unsat", "sat", "unknown", "timeout" or "error"
  std::string detail;  // for an error: what the solver said
  double seconds = 0;
};
// `stopped` turns true when interrupt_queries is called: the second solver then stops too.
using SecondSolver = std::function<SecondAnswer(const std::string& smt2, const std::function<bool()>& stopped)>;

struct QueryOptions {
  unsigned timeout_ms = 60'000;
  QueryDump dump{};                // empty: no dump
  bool solve_dumped_text = false;  // solve the query as printed in SMT-LIB2 (re-parsed), exactly what --smt2 dumps
  SecondSolver second_solver{};    // empty: Z3 alone
  std::string name{};  // the stem of the dump files' names, given by the caller (the claim's id); proofs append to it

  QueryOptions named(std::string stem) const {
    QueryOptions o = *this;
    o.name = std::move(stem);
    return o;
  }
};

enum class QueryStatus { Proved, CounterModel, Unknown };

struct QueryOutcome {
  QueryStatus status = QueryStatus::Unknown;
  std::optional<z3::model> model;
  std::string reason;     // Z3's reason for unknown
  std::string smt2_path;  // where the query was dumped, if it was
  double seconds = 0;
  std::optional<SecondAnswer> second;  // with a second solver
};

// What a proof query established, in words: the claim checkers turn it into a verdict (checkers/proof_verdict.hpp).
struct ProofResult {
  std::string statement;  // exactly what the query states
  QueryStatus status = QueryStatus::Unknown;
  bool replayed = false;       // a CounterModel confirmed in exact arithmetic
  std::string counterexample;  // the replayed model, in words
  std::string reason;          // why unknown
  std::string smt2_path;
  double seconds = 0;
  std::optional<SecondAnswer> second;  // the second solver's answer to the same query, with one
};

// Asserts every hypothesis and not(goal); `name` names the query to its dump.
QueryOutcome prove(z3::context& ctx, const std::string& name, const std::vector<z3::expr>& hypotheses,
                   const z3::expr& goal, const QueryOptions& options);

// The result of a query that states `statement`, before any replay of its model.
ProofResult from_outcome(std::string statement, const QueryOutcome& q);

// Stops every query running in this process, from any thread: each returns unknown (Z3's reason "interrupted"). For a
// caller that cancels a run (the Python package's Ctrl-C); a query that starts afterwards runs as usual.
void interrupt_queries();

// A model value as an exact rational (Z3 numerals are exact); throws if the value is not a rational numeral.
Exact model_value(const z3::model& model, const z3::expr& e);

z3::expr real_of(z3::context& ctx, const Exact& q);
z3::expr relu(const z3::expr& e);

}  // namespace tverify::proofs
