#include "checkers/proof_dump.hpp"

#include "io/files.hpp"
#include "checkers/second_solver.hpp"

#include <filesystem>

namespace tverify {

proofs::QueryOptions query_options(const ProofOptions& options) {
  proofs::QueryOptions query;
  query.timeout_ms = options.timeout_ms;
  if (options.cross_check)
    query.second_solver = [timeout = options.timeout_ms](const std::string& smt2,
                                                         const std::function<bool()>& stopped) {
      return ask_cvc5(smt2, timeout, stopped);
    };
  if (options.smt2_dir.empty()) return query;
  query.dump = [dir = options.smt2_dir](const std::string& name, const std::string& smt2) {
    create_output_folder(dir, "--smt2");
    const std::filesystem::path target = std::filesystem::path(dir) / (name + ".smt2");
    write_file_atomically(target, smt2);
    return target.string();
  };
  return query;
}

}  // namespace tverify
