// prove --cross-check: each Z3 query's SMT-LIB2 text also put to cvc5, run as the Debian `cvc5` executable (never
// linked: it is GPLv3) with (set-logic ALL) before the text and its own time limit, the prove's --timeout-s. What it
// answers goes into the claim's certificate beside Z3's (checkers/proof_verdict.hpp decides what a disagreement does).
#pragma once

#include "proofs/z3_query.hpp"

#include <functional>
#include <string>

namespace tverify {

// UsageError naming the Debian package when no cvc5 executable is on PATH.
void require_cvc5();

// cvc5's answer to the query; a run past timeout_ms (and a grace of a few seconds), or stopped, is killed and answers
// "timeout".
proofs::SecondAnswer ask_cvc5(const std::string& smt2, unsigned timeout_ms, const std::function<bool()>& stopped = {});

}  // namespace tverify
