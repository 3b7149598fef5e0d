// The named parameters of a construction (`--D 3 --n 2 --L 5`): their specs, and parsing that names the parameter and
// its allowed range in every error (UsageError, exit 2).
#pragma once

#include "io/errors.hpp"
#include "checkers/verdict.hpp"
#include "core/exact.hpp"

#include <atomic>
#include <map>
#include <memory>
#include <optional>
#include <utility>
#include <string>
#include <vector>

namespace tverify {

struct ParamSpec {
  // Text: checked by the construction; Flag: "--name" alone on the command line, stored as the choice "true" /
  // "false"; Probability: an exact number strictly between 0 and 1
  enum class Kind { Integer, Choice, PositiveRational, IntegerRange, Text, Flag, Probability };
  std::string name;  // without dashes: "D"
  std::string help;
  Kind kind = Kind::Integer;
  long long min = 1, max = 1;                  // Integer: inclusive range; IntegerRange: the bounds of both ends
  std::vector<std::string> choices;            // Choice; PositiveRational: words that stand for "no number" (a default)
  std::string default_value;                   // empty: optional, absent unless given (ParamValues::has)
  std::string rational_min{}, rational_max{};  // PositiveRational: inclusive exact bounds ("1/1048576"); empty: none
  bool input_file = false;                     // Text: the path of a file the run reads (recheck resolves it)
  std::string metavar = "TEXT";                // Text: the kind of value --help shows ("LIST", "RATIONAL")

  std::string range_text() const;  // "an integer in [1, 64]" / "one of paper, corrected"
  // What help and `tverify list` say after the description: the range and the default ("an integer in [1, 64];
  // default 2"); a plain text's form is in its help and metavar, so not the word "text". Empty when nothing is said.
  std::string range_and_default() const;
};

// Named constructors, so that a declaration reads as what it declares. An empty default makes the parameter
// optional (absent unless given).
ParamSpec integer_param(std::string name, std::string help, long long min, long long max, std::string default_value);
ParamSpec range_param(std::string name, std::string help, long long min, long long max, std::string default_value);
ParamSpec choice_param(std::string name, std::string help, std::vector<std::string> choices, std::string default_value);
ParamSpec text_param(std::string name, std::string help, std::string default_value);
// A Text parameter of a kind --help names: "LIST" (comma-separated), "RATIONAL", ...
ParamSpec text_param(std::string name, std::string help, std::string default_value, std::string metavar);
ParamSpec flag_param(std::string name, std::string help);
// A Text parameter naming a file the run reads ("none" or empty default: no file).
ParamSpec input_file_param(std::string name, std::string help, std::string default_value);
// An exact number strictly between 0 and 1 ("1/3", "0.8"), read with ParamValues::rational.
ParamSpec probability_param(std::string name, std::string help, std::string default_value);
// A seed of seeded random draws: an integer in [0, 10^12], default 1.
ParamSpec seed_param(std::string help);

// The words and bounds of an exact positive number parameter: words stand for "no number" ("proof", "auto"); min and
// max are inclusive exact bounds ("1/1048576"), empty for none.
struct RationalBounds {
  std::vector<std::string> words{};
  std::string min{}, max{};
};
ParamSpec rational_param(std::string name, std::string help, std::string default_value, RationalBounds bounds = {});

class ParamValues {
 public:
  // Validates every given raw value against its spec and fills in defaults. Throws UsageError on the first bad one.
  static ParamValues parse(const std::vector<ParamSpec>& specs, const std::map<std::string, std::string>& raw);

  bool has(const std::string& name) const;    // false only for an optional parameter that was not given
  bool given(const std::string& name) const;  // given, not filled in from its default
  // The same values, none of them counted as given (values read back from a certificate, defaults included).
  ParamValues none_given() const;
  // The same values with the Text parameter `name` set to `value`.
  ParamValues with_text(const std::string& name, const std::string& value) const;
  long long integer(const std::string& name) const;
  int small_int(const std::string& name) const { return static_cast<int>(integer(name)); }
  const std::string& choice(const std::string& name) const;
  bool flag(const std::string& name) const;
  // A PositiveRational parameter: nullopt when it was given as one of its words (e.g. "proof"); a Probability one.
  const std::optional<Exact>& rational(const std::string& name) const;
  // An IntegerRange parameter ("0:4"): its inclusive ends, lo <= hi.
  std::pair<long long, long long> range(const std::string& name) const;
  const std::string& text(const std::string& name) const { return choice(name); }
  Json to_json() const;  // in spec order
  // Whether an accessor above (given, none_given and to_json aside) has read the parameter, through this object or
  // a copy of it: the test that walks every (verb, construction, parameter) asks it of a parameter given and not
  // refused.
  bool was_read(const std::string& name) const;

 private:
  std::vector<std::string> order_;
  std::vector<std::string> given_;
  std::map<std::string, long long> integers_;
  std::map<std::string, std::string> choices_;
  std::map<std::string, std::optional<Exact>> rationals_;
  std::map<std::string, std::pair<long long, long long>> ranges_;
  struct ReadMarks;                                             // one flag per name of order_, set by the accessors
  std::shared_ptr<ReadMarks> read_;                             // shared by copies
  std::atomic<bool>* read_mark(const std::string& name) const;  // null for a name not in order_
  void mark_read(const std::string& name) const;
};

// Parses an integer option of the CLI itself (--threads, --max-inputs) with the same one-line error.
long long parse_integer_option(const std::string& option, const std::string& text, long long min, long long max);

// The items in their first order, each once.
std::vector<std::string> without_repeats(const std::vector<std::string>& items);

// The items of a list separated by `sep` ("0,1,1"). An empty item ("0,,1", "0,1,", "") is a UsageError naming
// `option` and `what` the list must be.
std::vector<std::string> split_list(const std::string& text, char sep, const std::string& option,
                                    const std::string& what);

}  // namespace tverify
