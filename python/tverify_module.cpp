// tverify._tverify: the compiled half of the Python package (python/tverify/__init__.py is the other). It calls the
// same construction registry and certificate writer as the CLI, so a certificate made from Python is the CLI's,
// byte for byte, apart from the command line it records and the timings. Usage errors are ValueError with the
// CLI's one-line message; anything else is RuntimeError. The GIL is released while C++ works.
#include "checkers/certificate.hpp"
#include "checkers/errors.hpp"
#include "checkers/registry.hpp"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <map>
#include <string>
#include <vector>

namespace py = pybind11;

namespace tverify::python {

namespace {

// A construction as data: its name, paper, parameters (name, kind, range text, default), variants and claim ids.
py::dict describe(const Construction& c) {
  py::list params, variants, claims;
  for (const auto& p : c.params()) {
    py::dict d;
    d["name"] = p.name;
    d["flag"] = p.kind == ParamSpec::Kind::Flag;
    d["range"] = p.range_text();
    d["default"] = p.default_value;
    d["help"] = p.help;
    params.append(d);
  }
  for (const auto& v : c.variants()) variants.append(v.name);
  for (const auto& claim : c.claims()) claims.append(claim.id);
  py::dict out;
  out["name"] = c.name();
  out["paper"] = c.paper();
  out["params"] = params;
  out["variants"] = variants;
  out["claims"] = claims;
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

struct CheckRequest {
  std::string construction, variant, command;
  std::map<std::string, std::string> params;  // as the CLI's options give them: name without dashes -> text
  std::vector<std::string> claims;
  RunOptions options;
};

// The certificate text `tverify check ... --json FILE` writes, and the exit code the CLI would return.
std::pair<std::string, int> check(const CheckRequest& r) {
  std::string message;
  bool usage = false;
  {
    py::gil_scoped_release release;
    try {
      const Construction& c = find_construction(r.construction);
      const ParamValues params = ParamValues::parse(c.params_for("check"), r.params);
      const CheckReport report = c.check(params, c.variant_or_default(r.variant), r.claims, r.options);
      return {certificate_json(report, r.command).dump(2) + "\n", exit_code_for(report.claims)};
    } catch (const UsageError& e) {
      usage = true;
      message = one_line(e.what());
    } catch (const std::exception& e) {
      message = e.what();
    }
  }
  if (usage) throw py::value_error(message);
  throw std::runtime_error("internal error: " + message);
}

}  // namespace

}  // namespace tverify::python

PYBIND11_MODULE(_tverify, m) {
  using namespace tverify::python;
  m.doc() = "tverify's C++ core (use the tverify package, not this module)";
  m.def("constructions", &constructions, "every construction as a dict: name, paper, params, variants, claims");
  m.def(
      "check",
      [](const std::string& construction, const std::map<std::string, std::string>& params, const std::string& variant,
         const std::vector<std::string>& claims, unsigned threads, std::uint64_t max_inputs,
         std::size_t max_counterexamples, bool force, const std::string& command) {
        CheckRequest r{construction, variant, command, params, claims, {}};
        r.options.threads = threads;
        r.options.max_inputs = max_inputs;
        r.options.max_counterexamples = max_counterexamples;
        r.options.force = force;
        return check(r);
      },
      "the certificate text of `tverify check` and its exit code", py::arg("construction"), py::arg("params"),
      py::arg("variant"), py::arg("claims"), py::arg("threads"), py::arg("max_inputs"), py::arg("max_counterexamples"),
      py::arg("force"), py::arg("command"));
}
