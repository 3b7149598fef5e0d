#include "proofs/z3_query.hpp"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <set>
#include <stdexcept>

namespace tverify::proofs {

namespace {

// The contexts whose query is running, for interrupt_queries.
std::mutex running_mutex;
std::multiset<z3::context*> running;
std::atomic<std::uint64_t> interruptions{0};  // how many times interrupt_queries was called

class RunningQuery {
 public:
  explicit RunningQuery(z3::context& ctx) : ctx_(ctx) {
    std::lock_guard lock(running_mutex);
    running.insert(&ctx_);
  }
  ~RunningQuery() {
    std::lock_guard lock(running_mutex);
    running.erase(running.find(&ctx_));
  }
  RunningQuery(const RunningQuery&) = delete;
  RunningQuery& operator=(const RunningQuery&) = delete;

 private:
  z3::context& ctx_;
};

}  // namespace

void interrupt_queries() {
  ++interruptions;
  std::lock_guard lock(running_mutex);
  for (z3::context* ctx : running) ctx->interrupt();  // Z3_interrupt: meant to be called from another thread
}

QueryOutcome prove(z3::context& ctx, const std::string& name, const std::vector<z3::expr>& hypotheses,
                   const z3::expr& goal, const QueryOptions& options) {
  z3::solver solver(ctx);
  z3::params params(ctx);
  params.set("timeout", options.timeout_ms);
  // Z3 would otherwise catch SIGINT during check() and answer unknown, so Ctrl-C would end in a certificate; the
  // caller decides instead (the CLI stops, the Python package calls interrupt_queries and raises KeyboardInterrupt).
  params.set("ctrl_c", false);
  solver.set(params);
  for (const auto& h : hypotheses) solver.add(h);
  solver.add(!goal);
  QueryOutcome out;
  const std::uint64_t interrupted_before = interruptions.load();
  const auto stopped = [interrupted_before] { return interruptions.load() != interrupted_before; };
  const bool wants_text = options.dump || options.solve_dumped_text || options.second_solver;
  const std::string text = wants_text ? solver.to_smt2("unknown") : std::string();  // ends with (check-sat)
  if (options.dump)
    out.smt2_path = options.dump(
        name, "; tverify query " + name + ": hypotheses and the negated goal; unsat proves the goal\n" + text);
  if (options.solve_dumped_text) {
    solver.reset();
    solver.from_string(text.c_str());
  }
  const auto start = std::chrono::steady_clock::now();
  const z3::check_result result = [&] {
    const RunningQuery registered(ctx);
    return solver.check();
  }();
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (result == z3::unsat) {
    out.status = QueryStatus::Proved;
  } else if (result == z3::sat) {
    out.status = QueryStatus::CounterModel;
    out.model = solver.get_model();
  } else {
    out.reason = solver.reason_unknown();
  }
  if (options.second_solver && !stopped()) out.second = options.second_solver(text, stopped);
  return out;
}

ProofResult from_outcome(std::string statement, const QueryOutcome& q) {
  ProofResult r;
  r.statement = std::move(statement);
  r.status = q.status;
  r.reason = q.reason;
  r.smt2_path = q.smt2_path;
  r.seconds = q.seconds;
  r.second = q.second;
  return r;
}

Exact model_value(const z3::model& model, const z3::expr& e) {
  const z3::expr v = model.eval(e, true);
  std::string text;
  if (!v.is_numeral(text)) throw std::runtime_error("Z3 model value is not a rational numeral: " + v.to_string());
  return parse_exact(text);
}

z3::expr real_of(z3::context& ctx, const Exact& q) { return ctx.real_val(exact_to_string(q).c_str()); }

z3::expr relu(const z3::expr& e) { return z3::ite(e > 0, e, e.ctx().real_val(0)); }

}  // namespace tverify::proofs
