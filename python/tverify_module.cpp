// tverify._tverify: the compiled half of the Python package (python/tverify/__init__.py is the other). It calls the
// same construction registry, certificate writer, recheck and report as the CLI, so a certificate made from Python is
// the CLI's, byte for byte, apart from the command line it records and the timings.
//
// Every call runs its C++ work on a worker thread without the GIL, while the interpreter's thread polls it: it
// reports progress to an optional callable (the package's tqdm bar) and checks for signals, so Ctrl-C stops the run
// (KeyboardInterrupt, nothing returned, nothing written). Usage errors are ValueError with the CLI's one-line
// message; anything else is RuntimeError.
#include "checkers/certificate.hpp"
#include "io/errors.hpp"
#include "io/files.hpp"
#include "checkers/memory_budget.hpp"
#include "checkers/resumable_check.hpp"
#include "commands/recheck.hpp"
#include "commands/recorded_command.hpp"
#include "checkers/registry.hpp"
#include "checkers/second_solver.hpp"
#include "commands/report.hpp"
#include "core/thread_caches.hpp"
#include "proofs/z3_query.hpp"

#include <pybind11/functional.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

namespace py = pybind11;

namespace tverify::python {

namespace {

py::dict describe(const ParamSpec& p) {
  py::dict d;
  d["name"] = p.name;
  d["flag"] = p.kind == ParamSpec::Kind::Flag;
  d["range"] = p.range_text();
  d["default"] = p.default_value;
  d["help"] = p.help;
  return d;
}

// A construction as data: its name, paper, parameters (name, kind, range text, default), variants, claim ids, and
// whether it has proofs and sweeps (with the sweeps' options).
py::dict describe(const Construction& c) {
  py::list params, variants, claims;
  for (const auto& p : c.params()) params.append(describe(p));
  for (const auto& v : c.variants()) variants.append(v.name);
  for (const auto& claim : c.claims()) claims.append(claim.id);
  py::dict out;
  out["name"] = c.name();
  out["paper"] = c.paper();
  out["params"] = params;
  out["variants"] = variants;
  out["claims"] = claims;
  py::list sweep_options;  // every sweep's options, each once (the CLI's options of `sweep NAME` besides --vary, --out)
  std::vector<std::string> seen;
  for (const auto& sweep : c.sweeps())
    for (const auto& o : sweep.options) {
      if (std::find(seen.begin(), seen.end(), o.name) != seen.end()) continue;
      seen.push_back(o.name);
      sweep_options.append(describe(o));
    }
  out["sweeps"] = !c.sweeps().empty();
  out["sweep_options"] = sweep_options;
  out["proofs"] = c.has_proofs();
  out["weights"] = c.has_weights();
  out["eval_traces"] = c.eval_traces();
  return out;
}

py::list constructions() {
  py::list out;
  for (const auto& c : all_constructions()) out.append(describe(*c));
  return out;
}

// One line, as the CLI prints it after "tverify: error: ".
std::string one_line(std::string message) {
  for (auto& ch : message)
    if (ch == '\n') ch = ' ';
  return message;
}

using Progress = std::optional<std::function<void(std::uint64_t, std::uint64_t)>>;

// work(monitor) on a worker thread; the interpreter's thread waits without the GIL, and every 100 ms reports
// progress and checks for signals. A pending KeyboardInterrupt stops the work (RunMonitor::stop) and is raised once
// the worker has returned. Exceptions from the work become ValueError (usage) or RuntimeError.
template <class F>
auto run_polled(F work, const Progress& progress) {
  using Result = decltype(work(std::declval<RunMonitor&>()));
  RunMonitor monitor;
  std::optional<Result> result;
  std::exception_ptr error;
  std::mutex mutex;
  std::condition_variable finished_cv;
  bool finished = false;
  std::thread worker([&] {
    try {
      result.emplace(work(monitor));
    } catch (...) { error = std::current_exception(); }
    release_thread_caches();
    std::lock_guard lock(mutex);
    finished = true;
    finished_cv.notify_all();
  });
  bool interrupted = false;
  for (;;) {
    {
      py::gil_scoped_release release;
      std::unique_lock lock(mutex);
      finished_cv.wait_for(lock, std::chrono::milliseconds(100), [&] { return finished; });
      if (finished) break;
    }
    if (!interrupted && PyErr_CheckSignals() != 0) {
      interrupted = true;  // the Python error stays set; it is raised after the worker stops
      monitor.stop = true;
    }
    if (interrupted) proofs::interrupt_queries();  // again at each poll: a proof may start another query
    if (progress && !interrupted) {
      try {
        (*progress)(monitor.done.load(), monitor.total.load());
      } catch (...) {  // the callable raised: stop the work, and raise its exception once the worker has returned
        monitor.stop = true;
        {
          py::gil_scoped_release release;
          worker.join();
        }
        throw;
      }
    }
  }
  worker.join();
  if (interrupted || PyErr_Occurred()) throw py::error_already_set();
  if (progress) (*progress)(monitor.done.load(), monitor.total.load());
  if (error) {
    try {
      std::rethrow_exception(error);
    } catch (const UsageError& e) { throw py::value_error(one_line(e.what())); } catch (const Interrupted&) {
      throw py::error_already_set();
    } catch (const std::exception& e) { throw std::runtime_error(std::string("internal error: ") + e.what()); }
  }
  return std::move(*result);
}

// The CLI's --threads, --max-inputs, --max-counterexamples, --force (checked by the package) and --max-memory (as
// text, None for the default; read here, with the CLI's parser, before any run starts: ValueError when it is no size).
using RunLimits = std::tuple<unsigned, std::uint64_t, std::size_t, bool, std::optional<std::string>>;

RunOptions run_options(const RunLimits& limits) {
  RunOptions o;
  std::optional<std::string> max_memory;
  std::tie(o.threads, o.max_inputs, o.max_counterexamples, o.force, max_memory) = limits;
  try {
    if (max_memory) o.max_memory = parse_memory_size(*max_memory, "max_memory");
  } catch (const UsageError& e) { throw py::value_error(one_line(e.what())); }
  return o;
}

void require_construction(const std::string& name) {
  run_polled([&](RunMonitor&) { return find_construction(name).name(); }, std::nullopt);
}

struct ClaimsRequest {
  std::string construction, variant, command;
  std::map<std::string, std::string> params;  // as the CLI's options give them: name without dashes -> text
  std::vector<std::string> claims;
  RunOptions options;
};

// The certificate text `tverify check|prove ... --json FILE` writes, and the exit code the CLI would return.
template <class Run>
std::pair<std::string, int> claims_verb(ClaimsRequest r, const std::string& verb, const Progress& progress, Run run) {
  return run_polled(
      [&](RunMonitor& monitor) {
        const Construction& c = find_construction(r.construction);
        c.require_verb(verb);
        const ParamValues params = ParamValues::parse(c.params_for(verb), r.params);
        r.options.monitor = &monitor;
        const CheckReport report = run(c, params, c.variant_or_default(r.variant), r.claims, r.options);
        return std::pair{certificate_json(report, r.command).dump(2) + "\n", exit_code_for(report.claims)};
      },
      progress);
}

// A certificate given as text, validated as `recheck` and `report` validate a file (`what` names it).
Json certificate_from_text(const std::string& text, const std::string& what) {
  return validated_certificate(parse_json_text(text, what), what);
}

void bind_claims_verbs(py::module_& m) {
  m.def(
      "check",
      [](const std::string& construction, const std::map<std::string, std::string>& params, const std::string& variant,
         const std::vector<std::string>& claims, const RunLimits& limits, const std::string& checkpoint, bool resume,
         unsigned checkpoint_every, const std::string& command, const Progress& progress) {
        ClaimsRequest r{construction, variant, command, params, claims, run_options(limits)};
        const CheckpointRequest kept{checkpoint, resume, std::chrono::seconds(checkpoint_every)};
        return claims_verb(r, "check", progress, [&kept](const Construction& c, const auto&... a) {
          if (!kept.path.empty()) ensure_writable_file(kept.path, "checkpoint");
          return resumable_check(c, a..., kept);
        });
      },
      "the certificate text of `tverify check` and its exit code", py::arg("construction"), py::arg("params"),
      py::arg("variant"), py::arg("claims"), py::arg("limits"), py::arg("checkpoint"), py::arg("resume"),
      py::arg("checkpoint_every"), py::arg("command"), py::arg("progress"));
  m.def(
      "prove",
      [](const std::string& construction, const std::map<std::string, std::string>& params, const std::string& variant,
         const std::vector<std::string>& claims, const RunLimits& limits, unsigned timeout_s,
         const std::string& smt2_dir, bool cross_check, const std::string& command, const Progress& progress) {
        ClaimsRequest r{construction, variant, command, params, claims, run_options(limits)};
        ProofOptions proof;
        proof.timeout_ms = timeout_s * 1000;
        proof.smt2_dir = smt2_dir;
        proof.cross_check = cross_check;
        return claims_verb(r, "prove", progress,
                           [&proof](const Construction& c, const ParamValues& p, const std::string& v,
                                    const std::vector<std::string>& ids, const RunOptions& o) {
                             if (!proof.smt2_dir.empty()) ensure_writable_dir(proof.smt2_dir, "smt2");
                             if (proof.cross_check) require_cvc5();
                             return c.prove(p, v, ids, proof, o);
                           });
      },
      "the certificate text of `tverify prove` and its exit code", py::arg("construction"), py::arg("params"),
      py::arg("variant"), py::arg("claims"), py::arg("limits"), py::arg("timeout_s"), py::arg("smt2_dir"),
      py::arg("cross_check"), py::arg("command"), py::arg("progress"));
}

// One tensor's entries: (rational part, coefficient, radicand) as exact texts, a + b sqrt(r); a symbolic entry as
// (constant, [(symbol, coefficient), ...], lower, upper), exact texts.
py::dict weights_entry(const NamedWeights& w) {
  py::list values;
  for (std::size_t i = 0; i < w.values.size(); ++i) {
    if (!w.symbolic.empty() && w.symbolic[i]) {
      const SymbolicEntry& e = *w.symbolic[i];
      py::list terms;
      for (const auto& [symbol, coefficient] : e.terms)
        terms.append(py::make_tuple(symbol, exact_to_string(coefficient)));
      values.append(
          py::make_tuple(exact_to_string(e.constant), terms, exact_to_string(e.lower), exact_to_string(e.upper)));
      continue;
    }
    const auto& v = w.values[i];
    values.append(
        py::make_tuple(exact_to_string(v.rational_part()), exact_to_string(v.surd_coefficient()), v.radicand()));
  }
  py::dict d;
  d["name"] = w.name;
  d["shape"] = w.shape;
  d["values"] = values;
  d["meaning"] = w.meaning;
  return d;
}

void bind_weights(py::module_& m) {
  m.def(
      "weights",
      [](const std::string& construction, const std::map<std::string, std::string>& params,
         const std::string& variant) {
        const auto named = run_polled(
            [&](RunMonitor&) {
              const Construction& c = find_construction(construction);
              c.require_verb("weights");
              return c.weights(ParamValues::parse(c.params_for("weights"), params), c.variant_or_default(variant));
            },
            std::nullopt);
        py::list out;
        for (const auto& w : named) out.append(weights_entry(w));
        return out;
      },
      "the construction's weights: dicts of name, shape, meaning and exact values (a, b, r) meaning a + b sqrt(r), or "
      "(constant, [(symbol, coefficient)], lower, upper) for a symbolic entry",
      py::arg("construction"), py::arg("params"), py::arg("variant"));
}

void bind_other_verbs(py::module_& m) {
  m.def(
      "eval",
      [](const std::string& construction, const std::map<std::string, std::string>& params, const std::string& variant,
         const std::string& input, bool trace, long bits) {
        const Evaluation e = run_polled(
            [&](RunMonitor&) {
              const Construction& c = find_construction(construction);
              c.require_verb("eval");
              return c.eval(ParamValues::parse(c.params_for("eval"), params), c.variant_or_default(variant), input,
                            trace, bits);
            },
            std::nullopt);
        py::list tensors;  // made here, under the GIL
        for (const auto& t : e.trace) tensors.append(weights_entry(t));
        return py::make_tuple(e.text, e.result.dump(), tensors);
      },
      "what `tverify eval` finds: (the text it prints, the result as JSON text, the traced tensors as weights gives "
      "them)",
      py::arg("construction"), py::arg("params"), py::arg("variant"), py::arg("input"), py::arg("trace"),
      py::arg("bits"));
  m.def(
      "sweep",
      [](const std::string& construction, const std::map<std::string, std::string>& params, const std::string& variant,
         const std::string& vary, bool fast, const std::string& out_dir,
         const std::map<std::string, std::string>& options, const std::string& figure_size, const RunLimits& limits,
         const std::string& command, const Progress& progress) {
        const RunOptions base = run_options(limits);
        return run_polled(
            [&](RunMonitor& monitor) {
              const Construction& c = find_construction(construction);
              c.require_verb("sweep");
              RunOptions run = base;
              run.monitor = &monitor;
              return c
                  .sweep(ParamValues::parse(c.params_for("sweep"), params), c.variant_or_default(variant),
                         SweepRequest{vary, fast, out_dir, options, command,
                                      std::get<2>(limits) != default_max_counterexamples, figure_size},
                         run)
                  .dump(2);
            },
            progress);
      },
      "the JSON summary `tverify sweep` prints (its files are written to out_dir)", py::arg("construction"),
      py::arg("params"), py::arg("variant"), py::arg("vary"), py::arg("fast"), py::arg("out_dir"), py::arg("options"),
      py::arg("figure_size"), py::arg("limits"), py::arg("command"), py::arg("progress"));
  m.def(
      "recheck",
      [](const std::string& text, const std::string& what, const RunLimits& limits, const Progress& progress) {
        const RunOptions base = run_options(limits);
        return run_polled(
            [&](RunMonitor& monitor) {
              RunOptions run = base;
              run.monitor = &monitor;
              const RecheckResult r = recheck_certificate(certificate_from_text(text, what), what, run);
              std::vector<std::tuple<std::string, std::string, std::string>> differences;
              for (const auto& d : r.differences) differences.emplace_back(d.field, d.stored, d.now);
              return std::tuple{differences, r.claim_results, r.made_at_other_commit};
            },
            progress);
      },
      "the differences (field, stored, now) of a fresh run of the certificate's command, the number of claim results, "
      "and the certificate's commit when it is not this build's",
      py::arg("text"), py::arg("what"), py::arg("limits"), py::arg("progress"));
  m.def(
      "read_certificate_file",
      [](const std::string& path) {
        try {
          return read_text_file(path, "certificate '" + path + "'");
        } catch (const UsageError& e) { throw py::value_error(one_line(e.what())); }
      },
      "the text of a certificate file, read as the CLI reads it (a regular file of at most 256 MiB)", py::arg("path"));
  m.def(
      "report",
      [](const std::vector<std::pair<std::string, std::string>>& certificates, bool latex, bool wide,
         const std::vector<std::string>& columns) {
        return run_polled(
            [&](RunMonitor&) {
              std::vector<Json> certs;
              for (const auto& [text, what] : certificates) {
                certs.push_back(certificate_from_text(text, what));
                certificate_command(certs.back(), what);  // a table of what no command produced means nothing
              }
              return certificates_table(certs, latex ? TableFormat::Latex : TableFormat::Markdown,
                                        wide ? TableLayout::PerCertificate : TableLayout::PerClaim, columns);
            },
            std::nullopt);
      },
      "the table `tverify report` prints for (certificate text, name) pairs", py::arg("certificates"), py::arg("latex"),
      py::arg("wide"), py::arg("columns"));
}

}  // namespace

}  // namespace tverify::python

PYBIND11_MODULE(_tverify, m) {
  using namespace tverify::python;
  m.doc() = "tverify's C++ core (use the tverify package, not this module)";
  m.def("constructions", &constructions, "every construction as a dict: name, paper, params, variants, claims");
  m.def("require_construction", &require_construction, "raises the CLI's ValueError when no construction has this name",
        py::arg("name"));
  bind_claims_verbs(m);
  bind_other_verbs(m);
  bind_weights(m);
}
