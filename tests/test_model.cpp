// The model checker (checkers/model, constructions/model): ONNX models from tests/models (written by
// tests/models/make_fixtures.py with python3-onnx, and PyTorch models by make_attention_fixture.py and
// make_mask_fixture.py) checked against tasks whose answers are derived by hand below, or against PyTorch's own
// outputs.
#include "io/files.hpp"
#include "checkers/model/model_tally.hpp"
#include "checkers/model/tasks.hpp"
#include "model/onnx_writer.hpp"
#include "commands/recheck.hpp"
#include "checkers/registry.hpp"
#include "cli_runner.hpp"

#include <catch2/catch.hpp>

#include <array>
#include <fstream>
#include <iterator>

#include <unistd.h>

using namespace tverify;
using model::Tokens;

namespace {

std::string fixture(const std::string& name) { return std::string(TVERIFY_SOURCE_DIR) + "/tests/models/" + name; }

CheckReport check_model(std::map<std::string, std::string> raw, unsigned threads = 1) {
  const Construction& c = find_construction("model");
  RunOptions options;
  options.threads = threads;
  return c.check(ParamValues::parse(c.params(), raw), "stored", {}, options);
}

const ClaimResult& task_claim(const CheckReport& r) {
  REQUIRE(r.claims.size() == 1);
  return r.claims.front();
}

}  // namespace

TEST_CASE("model tasks: reference outputs derived by hand", "[model]") {
  using model::find_task;
  CHECK(find_task("reverse").targets({0, 1, 2}, 3) == Tokens{2, 1, 0});
  CHECK(find_task("previous").targets({2, 0, 1}, 3) == Tokens{2, 2, 0});  // y_1 = x_1, then x_1, x_2
  CHECK(find_task("sort").targets({2, 0, 1, 0}, 3) == Tokens{0, 0, 1, 2});
  CHECK(find_task("histogram").targets({2, 0, 2, 2}, 3) == Tokens{3, 1, 3, 3});
  // counts: 0 -> 1, 1 -> 2, 2 -> 1: tokens 0 and 2 share the count 1 (two tokens), token 1 alone has count 2
  CHECK(find_task("double-histogram").targets({0, 1, 2, 1}, 3) == Tokens{2, 1, 2, 1});
  // counts: 2 -> 2, 0 -> 2, 1 -> 1; 2 occurs first among the tied ones
  CHECK(find_task("most-frequent").targets({2, 0, 1, 0, 2}, 3) == Tokens{2, 0, 1});
  // ( ) ) ( : balanced, open... -> 1, 0, 2, 2 (failed stays failed)
  CHECK(find_task("dyck1").targets({0, 1, 1, 0}, 2) == Tokens{1, 0, 2, 2});
  // ( [ ] ) then ( ] : 1 1 1 0 1 2
  CHECK(find_task("dyck2").targets({0, 2, 3, 1, 0, 3}, 4) == Tokens{1, 1, 1, 0, 1, 2});
  CHECK(find_task("parity").targets({1, 0, 1, 1}, 2) == Tokens{1, 1, 0, 1});
  // prefix counts (0,1): 1,0 -> 0; 1,1 -> 0 (tie: smaller); 1,2 -> 1; 2,2 -> 0
  CHECK(find_task("majority").targets({0, 1, 1, 0}, 2) == Tokens{0, 0, 1, 0});
  // Count3 of [1], [1, 1], [1, 1, 0]: n = 1, everything is 0 mod 1; n = 2, x_j + x_k + 1 is odd for all-ones pairs,
  // none is even; n = 3, x_j + x_k + 0 = 0 (mod 3) only for j = k = 3 (1 + 1 = 2, 1 + 0 = 1): one pair.
  CHECK(find_task("count3").targets({1, 1, 0}, 2) == Tokens{0, 0, 1});

  const model::TaskCase copy = model::case_of(find_task("copy"), {1, 0}, 2);
  CHECK(copy.sequence == Tokens{2, 1, 0, 3, 1});  // BOS x_1 x_2 COPY y_1 (y_2 is never fed)
  CHECK(copy.read_from == 3);
  CHECK(copy.targets == Tokens{1, 0});
  const model::TaskCase rasp = model::case_of(find_task("sort"), {1, 0}, 2);
  CHECK(rasp.sequence == Tokens{2, 1, 0});
  CHECK(rasp.read_from == 1);

  // AR (N = 1): x_n = 0 occurs once earlier, at index 1 (0-based), so the target is x_3 = 1; 0 0 0 has two earlier
  // occurrences and 1 0 has none: neither is an instance. NAR (N = 2): the 2-gram 0 1 occurs once earlier (ending
  // at index 1), so the target is x_3 = 1.
  const model::Task& ar = find_task("ar");
  CHECK(ar.is_instance({1, 0, 1, 0}));
  CHECK(ar.targets({1, 0, 1, 0}, 2) == Tokens{1});
  CHECK_FALSE(ar.is_instance({0, 0, 0}));
  CHECK_FALSE(ar.is_instance({1, 0}));
  const model::TaskCase recall = model::case_of(ar, {1, 0, 1, 0}, 2);
  CHECK(recall.sequence == Tokens{2, 1, 0, 1, 0});
  CHECK(recall.read_from == 4);  // the last position
  CHECK(find_task("nar").is_instance({0, 1, 1, 0, 1}));
  CHECK(find_task("nar").targets({0, 1, 1, 0, 1}, 2) == Tokens{1});
  CHECK_FALSE(find_task("nar").is_instance({0, 1, 0, 1, 0, 1}));  // 0 1 occurs twice before the end
  // NAR with N = 3 on 1 0 0 0 1 0 0: the last 3-gram 1 0 0 occurs once earlier (ending at index 2), so the target is
  // x_4 = 0; with N = 2 the last 2-gram 0 0 occurs twice earlier (ending at 2 and 3): no instance.
  CHECK(find_task("nar", model::TaskOptions{.nar_n = 3}).is_instance({1, 0, 0, 0, 1, 0, 0}));
  CHECK(find_task("nar", model::TaskOptions{.nar_n = 3}).targets({1, 0, 0, 0, 1, 0, 0}, 2) == Tokens{0});
  CHECK_FALSE(find_task("nar").is_instance({1, 0, 0, 0, 1, 0, 0}));
}

TEST_CASE("model: task ar checks the valid instances only", "[model]") {
  // Over V = 2, the AR instances are: length 2, x_1 = x_2 (2 of 4); length 3, x_1 != x_2 and any x_3 (4 of 8: x_3
  // equals exactly one of them). The identity model outputs x_n, right when the token after the match is x_n: every
  // length-2 instance, and at length 3 the two whose match is x_2 (the target x_3 = x_n), not the two whose match is
  // x_1 (the target x_2 != x_n). Length 1 has no instance.
  const CheckReport r =
      check_model({{"onnx", fixture("identity.onnx")}, {"task", "ar"}, {"V", "2"}, {"lengths", "1:3"}});
  const ClaimResult& c = task_claim(r);
  CHECK(c.verdict == Verdict::Refuted);
  CHECK(c.checked == 2 + 4);
  CHECK(c.failed == 2);
  CHECK(c.counterexamples.front().input == Json::array({0, 1, 0}));
  CHECK(c.counterexamples.front().expected == Json::array({1}));
  CHECK(r.domain_description.find("checked: the valid instances") != std::string::npos);
  CHECK_THROWS_WITH(check_model({{"onnx", fixture("identity.onnx")}, {"task", "nar"}, {"V", "2"}, {"samples", "4"}}),
                    Catch::Contains("--samples draws from every sequence"));
}

TEST_CASE("model: task markov-next predicts the likelier row of the kernel [1 - p, p; q, 1 - q]", "[model]") {
  using model::find_task;
  using model::TaskOptions;
  // p = P(1 | 0), q = P(0 | 1): after 0 the next token is 1 iff p > 1/2, after 1 it is 0 iff q > 1/2.
  const Tokens x{0, 1, 1, 0};
  CHECK(find_task("markov-next", TaskOptions{.p = Exact(1, 3), .q = Exact(1, 5)}).targets(x, 2) == Tokens{0, 1, 1, 0});
  CHECK(find_task("markov-next", TaskOptions{.p = Exact(1, 3), .q = Exact(4, 5)}).targets(x, 2) == Tokens{0, 0, 0, 0});
  CHECK(find_task("markov-next", TaskOptions{.p = Exact(2, 3), .q = Exact(1, 5)}).targets(x, 2) == Tokens{1, 1, 1, 1});
  CHECK(find_task("markov-next", TaskOptions{.p = Exact(2, 3), .q = Exact(4, 5)}).targets(x, 2) == Tokens{1, 0, 0, 1});
  // The identity model predicts x_i after x_i: right for a chain that tends to stay (p, q < 1/2); for q = 4/5 it is
  // wrong at every 1, so at length 2 on the 3 strings of 4 that hold a 1.
  const std::map<std::string, std::string> stays{{"onnx", fixture("identity.onnx")},
                                                 {"task", "markov-next"},
                                                 {"V", "2"},
                                                 {"lengths", "1:3"},
                                                 {"p", "1/3"},
                                                 {"q", "0.2"}};
  CHECK(task_claim(check_model(stays)).verdict == Verdict::Verified);
  auto switches = stays;
  switches["q"] = "4/5";
  switches["lengths"] = "2:2";
  const CheckReport report = check_model(switches);
  const ClaimResult& c = task_claim(report);
  CHECK(c.verdict == Verdict::Refuted);
  CHECK(c.failed == 3);
  auto coin = stays;
  coin["p"] = "1/2";
  CHECK_THROWS_WITH(check_model(coin), Catch::Contains("--p must not be 1/2"));
  coin.erase("p");
  CHECK_THROWS_WITH(check_model(coin), Catch::Contains("task markov-next needs --p and --q"));
  auto other = stays;
  other["task"] = "sort";
  CHECK_THROWS_WITH(check_model(other), Catch::Contains("--p is a chain probability of task markov-next"));
}

TEST_CASE("model: task nar takes the n-gram length --N, and no other task does", "[model]") {
  // Over V = 2 at length 4, N = 3: the last 3-gram x_2 x_3 x_4 must occur once earlier, ending at index 2 (x_1 x_2
  // x_3), so x_1 = x_2 = x_3 = x_4: 0000 and 1111, each with target x_4, which the identity model outputs.
  const CheckReport r =
      check_model({{"onnx", fixture("identity.onnx")}, {"task", "nar"}, {"N", "3"}, {"V", "2"}, {"lengths", "4:4"}});
  const ClaimResult& c = task_claim(r);
  CHECK(c.verdict == Verdict::Verified);
  CHECK(c.checked == 2);
  CHECK(r.domain_description.find("the last 3-gram") != std::string::npos);
  CHECK_THROWS_WITH(check_model({{"onnx", fixture("identity.onnx")}, {"task", "sort"}, {"N", "3"}, {"V", "2"}}),
                    Catch::Contains("--N is the n-gram length of task nar; it does not apply to task sort"));
  CHECK_THROWS_WITH(check_model({{"onnx", fixture("identity.onnx")}, {"task", "nar"}, {"N", "1"}, {"V", "2"}}),
                    Catch::Contains("--N"));
}

TEST_CASE("model: an exact reversal by index arithmetic is verified in exact arithmetic", "[model]") {
  const CheckReport r =
      check_model({{"onnx", fixture("reverse.onnx")}, {"task", "reverse"}, {"V", "3"}, {"lengths", "1:4"}});
  const ClaimResult& c = task_claim(r);
  CHECK(c.verdict == Verdict::Verified);
  CHECK(c.checked == 3 + 9 + 27 + 81);
  CHECK(r.options["model"]["evaluation"] == "exact");
  CHECK(c.details["decided_at_bits"]["exact"] == 120);
}

TEST_CASE("model: a model that forgot to reverse is refuted on the smallest non-palindrome", "[model]") {
  // y_i = x_i is right exactly on palindromes: over V = 2, all 2 of length 1, 2 of 4 of length 2, 4 of 8 of length 3.
  const CheckReport r =
      check_model({{"onnx", fixture("identity.onnx")}, {"task", "reverse"}, {"V", "2"}, {"lengths", "1:3"}});
  const ClaimResult& c = task_claim(r);
  CHECK(c.verdict == Verdict::Refuted);
  CHECK(c.failed == 6);
  REQUIRE(!c.counterexamples.empty());
  CHECK(c.counterexamples[0].input == Json({0, 1}));
  CHECK(c.counterexamples[0].expected == Json({1, 0}));
  CHECK(c.counterexamples[0].got == Json({0, 1}));
  const Json& lengths = c.details["lengths"];
  CHECK(lengths[0]["error_rate"] == "0");
  CHECK(lengths[1]["error_rate"] == "1/2");
  CHECK(lengths[2]["error_rate"] == "1/2");
}

TEST_CASE("model: a -inf mask weighs exactly 0; exact ties fail, decided exactly through the softmax", "[model]") {
  // Position p weighs x_0..x_p (BOS = 2 included) 1/(p+1) each. At p = 1 the logits of x_1 and BOS are both 1/2,
  // points the intervals decide equal: an exact tie, a failure. For x = [0, 1] and [1, 0] at p = 2 three classes
  // have 1/3 each, which no interval decides; exact exp-log arithmetic evaluates the softmax as e^0 / (3 e^0) = 1/3
  // and decides the three-way tie.
  const CheckReport every =
      check_model({{"onnx", fixture("masked_prefix.onnx")}, {"task", "majority"}, {"V", "2"}, {"lengths", "1:2"}});
  const ClaimResult& c = task_claim(every);
  CHECK(every.options["model"]["evaluation"] == "interval");
  CHECK(c.verdict == Verdict::Refuted);
  // Read at every position, each input fails at p = 1, the tie, whatever p = 2 is: one certified wrong output
  // decides the input.
  CHECK(c.checked == 6);
  CHECK(c.failed == 6);
  CHECK(c.unknown == 0);
  CHECK(c.counterexamples[0].got == Json({"tie 0,2"}));
  const auto at_01 = std::find_if(c.counterexamples.begin(), c.counterexamples.end(), [](const Counterexample& e) {
    return e.input == Json({0, 1});
  });
  REQUIRE(at_01 != c.counterexamples.end());
  CHECK(at_01->got == Json({"tie 0,2", "undecided"}));  // the failure at p = 1 decides: p = 2 is left at doubles
  // Read at the last position only: length 1 is the tie (2 failures); at length 2, [0, 0] and [1, 1] give 2/3 to
  // the majority token (right), [0, 1] and [1, 0] are the three-way tie (2 more failures).
  const CheckReport last_only = check_model({{"onnx", fixture("masked_prefix.onnx")},
                                             {"task", "majority"},
                                             {"V", "2"},
                                             {"lengths", "1:2"},
                                             {"decode", "last"}});
  const ClaimResult& last = task_claim(last_only);
  CHECK(last.verdict == Verdict::Refuted);
  CHECK(last.failed == 4);
  CHECK(last.unknown == 0);
  CHECK(last.details["lengths"][1]["error_rate"] == "1/2");
  CHECK(last.details["decided_at_bits"]["exp-log"] == 2);
}

namespace {

// logits = f(E[x]) for one token x, E's rows given; written to `dir`, its path returned. With integer rows, E is an
// int64 table and the logits f(E[x]) cast to float.
std::string elementwise_model(const std::filesystem::path& dir, const std::string& op,
                              const std::vector<std::vector<Exact>>& rows, bool integer_rows = false) {
  model::OnnxWriter w("elementwise_" + op);
  const std::string tokens = w.token_input("tokens");
  std::vector<Exact> values;
  for (const auto& row : rows) values.insert(values.end(), row.begin(), row.end());
  const auto classes = static_cast<std::int64_t>(rows.front().size());
  const std::vector<std::int64_t> shape{static_cast<std::int64_t>(rows.size()), classes};
  std::vector<std::int64_t> whole;
  for (const Exact& v : values) whole.push_back(numerator(v).convert_to<std::int64_t>());
  const std::string embedding = integer_rows ? w.integers("E", shape, whole) : w.rationals("E", shape, values);
  const std::string x = w.node("Gather", {embedding, tokens}, {{"axis", std::int64_t{0}}});
  if (integer_rows)
    w.node("Cast", {w.node(op, {x}, {})}, {{"to", std::int64_t{1}}}, "logits");
  else
    w.node(op, {x}, {}, "logits");
  w.output("logits", classes);
  const auto path = dir / (op + (integer_rows ? "-integers" : "") + ".onnx");
  write_file_atomically(path, w.serialized());
  return path.string();
}

// An --expected file in `dir` for the one-token inputs [0], [1], [2] of elementwise_model: their expected classes.
std::string one_token_pairs(const std::filesystem::path& dir, const std::array<int, 3>& classes) {
  const std::string pairs = (dir / "pairs.jsonl").string();
  std::ofstream out(pairs);
  for (int token = 0; token < 3; ++token)
    out << "{\"input\": [" << token << "], \"output\": [" << classes[static_cast<std::size_t>(token)] << "]}\n";
  return pairs;
}

}  // namespace

TEST_CASE("model: exact exp-log arithmetic decides ties and near-ties of Exp; a tie of Tanh stays unknown", "[model]") {
  const auto dir = std::filesystem::temp_directory_path() / ("tverify-model-ties-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string pairs = one_token_pairs(dir, {1, 1, 0});
  const Exact one(1), tiny(1, BigInt(1) << 80);
  // Rows: (1, 1, 0) an exact tie of e^1 and e^1; (1, 1 + 2^-80, 0) class 1 by e^{2^-80} - 1 ~ 8e-25 of e, past the
  // double rung; (1, 0, 0) class 0.
  const std::vector<std::vector<Exact>> rows{{one, one, 0}, {one, one + tiny, 0}, {one, 0, 0}};
  const ClaimResult exp_claim =
      task_claim(check_model({{"onnx", elementwise_model(dir, "Exp", rows)}, {"expected", pairs}}));
  CHECK(exp_claim.verdict == Verdict::Refuted);
  CHECK(exp_claim.failed == 1);
  CHECK(exp_claim.unknown == 0);
  REQUIRE(exp_claim.counterexamples.size() == 1);
  CHECK(exp_claim.counterexamples[0].got == Json({"tie 0,1"}));
  CHECK(exp_claim.details["decided_at_bits"]["53"] == 1);
  CHECK(exp_claim.details["decided_at_bits"]["exp-log"] == 2);
  // Tanh is outside exact exp-log arithmetic: tanh(1) against tanh(1) is undecided up to the ladder's ceiling, and
  // 2^-80 of difference is found at 256 bits.
  const ClaimResult tanh_claim =
      task_claim(check_model({{"onnx", elementwise_model(dir, "Tanh", rows)}, {"expected", pairs}}));
  CHECK(tanh_claim.verdict == Verdict::Unknown);
  CHECK(tanh_claim.unknown == 1);
  CHECK(tanh_claim.passed == 2);
  CHECK(tanh_claim.details["decided_at_bits"]["256"] == 1);
  CHECK(tanh_claim.details["unknown_inputs"][0]["input"] == Json({0}));
  std::filesystem::remove_all(dir);
}

TEST_CASE("model: Abs is exact, on rationals and on integers", "[model]") {
  const auto dir = std::filesystem::temp_directory_path() / ("tverify-model-abs-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string pairs = one_token_pairs(dir, {0, 1, 0});
  // |(-3, 2, 0)| = (3, 2, 0): class 0, where the row itself has class 1; |(1, -5/2, 2)| = (1, 5/2, 2): class 1;
  // |(-1, 1, 0)| = (1, 1, 0): an exact tie of classes 0 and 1, a failure.
  const std::vector<std::vector<Exact>> rows{{-3, 2, 0}, {1, Exact(-5, 2), 2}, {-1, 1, 0}};
  const ClaimResult rational =
      task_claim(check_model({{"onnx", elementwise_model(dir, "Abs", rows)}, {"expected", pairs}}));
  CHECK(rational.verdict == Verdict::Refuted);
  CHECK(rational.passed == 2);
  REQUIRE(rational.counterexamples.size() == 1);
  CHECK(rational.counterexamples[0].input == Json({2}));
  CHECK(rational.counterexamples[0].got == Json({"tie 0,1"}));
  // The same with whole numbers in an int64 table: (-3, 2, 0), (1, -3, 2), (-1, 1, 0) give classes 0, 1 and a tie.
  const std::vector<std::vector<Exact>> whole{{-3, 2, 0}, {1, -3, 2}, {-1, 1, 0}};
  const ClaimResult integer =
      task_claim(check_model({{"onnx", elementwise_model(dir, "Abs", whole, true)}, {"expected", pairs}}));
  CHECK(integer.passed == 2);
  CHECK(integer.failed == 1);
  std::filesystem::remove_all(dir);
}

TEST_CASE("model: a PyTorch attention layer exported at opset 17 gives PyTorch's argmax at every position", "[model]") {
  // tests/models/make_attention_fixture.py: nn.MultiheadAttention with a symmetric ALiBi bias (Abs) under a causal
  // -inf mask, LayerNormalization, a GELU MLP; the expected file is PyTorch's float32 argmax on all 340 sequences.
  const ClaimResult agree = task_claim(
      check_model({{"onnx", fixture("attention_alibi.onnx")}, {"expected", fixture("attention_alibi.jsonl")}}));
  CHECK(agree.verdict == Verdict::Verified);
  CHECK(agree.passed == 340);
  // One expected token changed: that sequence, and only it, is refuted.
  const auto dir = std::filesystem::temp_directory_path() / ("tverify-model-mha-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::ifstream original(fixture("attention_alibi.jsonl"));
  std::string first, rest((std::istreambuf_iterator<char>(std::getline(original, first))), {});
  Json changed = Json::parse(first);
  changed["output"][0] = (changed["output"][0].get<int>() + 1) % 4;
  std::ofstream(dir / "changed.jsonl") << changed.dump() << "\n" << rest;
  const ClaimResult broken = task_claim(
      check_model({{"onnx", fixture("attention_alibi.onnx")}, {"expected", (dir / "changed.jsonl").string()}}));
  CHECK(broken.verdict == Verdict::Refuted);
  CHECK(broken.failed == 1);
  REQUIRE(broken.counterexamples.size() == 1);
  CHECK(broken.counterexamples[0].input == changed["input"]);
  std::filesystem::remove_all(dir);
}

TEST_CASE("model: softmax attention is certified through intervals; --expected reads JSON Lines", "[model]") {
  const auto dir = std::filesystem::temp_directory_path() / ("tverify-model-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string pairs = (dir / "pairs.jsonl").string();
  // The file's inputs are fed as they are (no BOS). attend_same outputs x_p at every position p (weight e^4 per
  // matching key against 1 per other key). attend_uniform weighs every key 1/seq, so its logits are the token
  // frequencies: on [1, 1, 0] class 1 has 2/3 against 1/3 (decided), on [0, 1] both classes have 1/(1 + 1) = 1/2,
  // a point every interval holds: an exact tie.
  std::ofstream(pairs) << "{\"input\": [1, 1, 0], \"output\": [1, 1, 0]}\n\n{\"input\": [0, 1], \"output\": [0, 1]}\n";
  const ClaimResult same = task_claim(check_model({{"onnx", fixture("attend_same.onnx")}, {"expected", pairs}}));
  CHECK(same.verdict == Verdict::Verified);
  CHECK(same.details["decided_at_bits"]["53"] == 2);  // both decided in double intervals, the first rung
  const ClaimResult uniform = task_claim(check_model({{"onnx", fixture("attend_uniform.onnx")}, {"expected", pairs}}));
  CHECK(uniform.verdict == Verdict::Refuted);
  CHECK(uniform.failed == 2);
  REQUIRE(uniform.counterexamples.size() == 2);  // shorter inputs first
  CHECK(uniform.counterexamples[0].got == Json({"tie 0,1", "tie 0,1"}));
  CHECK(uniform.counterexamples[1].got == Json({1, 1, 1}));
  std::filesystem::remove_all(dir);
}

TEST_CASE("model: a certificate records the model's SHA-256 and recheck reproduces it", "[model]") {
  const Construction& c = find_construction("model");
  const std::map<std::string, std::string> raw{
      {"onnx", fixture("identity.onnx")}, {"task", "reverse"}, {"V", "2"}, {"lengths", "1:3"}};
  CheckReport report = c.check(ParamValues::parse(c.params(), raw), "stored", {}, RunOptions{});
  report.options["requested_claims"] = Json::array();
  const Json cert = certificate_json(
      report, "tverify check model --onnx " + raw.at("onnx") + " --task reverse --V 2 --lengths 1:3 --variant stored");
  CHECK(cert["options"]["model"]["sha256"].get<std::string>().size() == 64);
  CHECK(recheck_certificate(cert, "m.json", RunOptions{}).differences.empty());
  Json forged = cert;
  forged["options"]["model"]["sha256"] = std::string(64, '0');
  CHECK_FALSE(recheck_certificate(forged, "m.json", RunOptions{}).differences.empty());
}

TEST_CASE("model: bad models and parameters are one line and exit 2, nothing written", "[model]") {
  const auto dir = std::filesystem::temp_directory_path() / ("tverify-model-cli-" + std::to_string(::getpid()));
  const auto capture = dir / "capture";
  std::filesystem::create_directories(capture);
  const std::string json = (dir / "c.json").string();
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases{
      {{"--onnx", fixture("not_onnx.onnx"), "--task", "reverse", "--V", "2"}, "is not an ONNX model"},
      {{"--onnx", fixture("truncated.onnx"), "--task", "reverse", "--V", "2"}, "is not an ONNX model"},
      {{"--onnx", fixture("unsupported_sin.onnx"), "--task", "reverse", "--V", "2"}, "node 'wave' (Sin)"},
      {{"--onnx", fixture("opset11.onnx"), "--task", "reverse", "--V", "2"}, "opset 11"},
      {{"--onnx", fixture("real_input.onnx"), "--task", "reverse", "--V", "2"}, "not a token sequence"},
      {{"--onnx", fixture("nan_weight.onnx"), "--task", "reverse", "--V", "2"}, "contains NaN"},
      {{"--onnx", fixture("inf_weight.onnx"), "--task", "reverse", "--V", "2"}, "infinite values"},
      {{"--onnx", fixture("three_rows.onnx"), "--task", "reverse", "--V", "3"}, "larger than the embedding"},
      {{"--onnx", fixture("identity_fixed4.onnx"), "--task", "reverse", "--V", "2", "--lengths", "1:3"},
       "fixed sequence length of 4"},
      // ar's sequence [0] has no recalled token: its length is the layout's, not a reference's
      {{"--onnx", fixture("identity_fixed4.onnx"), "--task", "ar", "--V", "2", "--lengths", "1:3"},
       "the inputs make sequences of 2 tokens"},
      {{"--onnx", fixture("reverse.onnx"), "--task", "dyck2", "--V", "3"}, "--V must be in [4, 4]"},
      {{"--onnx", fixture("reverse.onnx"), "--task", "sort", "--V", "2", "--decode", "generate"}, "--decode generate"},
      {{"--onnx", fixture("reverse.onnx"), "--task", "histogram", "--V", "2", "--lengths", "1:8"}, "classes"},
      {{"--task", "reverse", "--V", "2"}, "--onnx FILE is required"},
      {{"--onnx", fixture("reverse.onnx"), "--expected", fixture("reverse.onnx"), "--samples", "3"}, "--samples"},
      {{"--onnx", fixture("reverse.onnx"), "--task", "reverse", "--V", "2", "--samples", "0"}, "--samples"},
      // What ONNX Runtime would compute differently or not at all: refused, never approximated.
      {{"--onnx", fixture("bad_broadcast.onnx"), "--task", "reverse", "--V", "2"},
       "shapes [2] and [8] do not broadcast"},
      {{"--onnx", fixture("cast_overflow.onnx"), "--task", "reverse", "--V", "2"}, "Cast of 302 to an integer type"},
      {{"--onnx", fixture("int_overflow.onnx"), "--task", "reverse", "--V", "2"}, "int64 overflow in Add"},
      {{"--onnx", fixture("dropout_training.onnx"), "--task", "reverse", "--V", "2"}, "Dropout in training mode"},
  };
  for (const auto& [args, message] : cases) {
    std::vector<std::string> words{"check", "model", "--json", json};
    words.insert(words.end(), args.begin(), args.end());
    const testing::CliResult r = testing::run_tverify(words, dir, capture);
    INFO(r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find(message) != std::string::npos);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    CHECK_FALSE(std::filesystem::exists(json));
  }
  // eval evaluates --input with the model alone: the options only a check reads are refused, not ignored.
  for (const std::vector<std::string>& option :
       std::vector<std::vector<std::string>>{{"--task", "reverse"},
                                             {"--V", "2"},
                                             {"--N", "3"},
                                             {"--p", "1/3"},
                                             {"--expected", fixture("reverse.onnx")},
                                             {"--samples", "3"}}) {
    std::vector<std::string> words{"eval",    "model", "--onnx", fixture("reverse.onnx"),
                                   "--input", "2,0,1", "--json", json};
    words.insert(words.end(), option.begin(), option.end());
    const testing::CliResult r = testing::run_tverify(words, dir, capture);
    INFO(r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find(option.front() + " applies to check and sweep model") != std::string::npos);
    CHECK_FALSE(std::filesystem::exists(json));
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("model: the PyTorch examples: hand-set histogram and copy verified, the trained sort refuted", "[model]") {
  auto example = [](const std::string& name) { return std::string(TVERIFY_SOURCE_DIR) + "/examples/models/" + name; };
  const ClaimResult histogram = task_claim(
      check_model({{"onnx", example("histogram.onnx")}, {"task", "histogram"}, {"V", "4"}, {"lengths", "1:4"}}, 2));
  CHECK(histogram.verdict == Verdict::Verified);
  CHECK(histogram.checked == 4 + 16 + 64 + 256);
  const ClaimResult copy =
      task_claim(check_model({{"onnx", example("copy.onnx")}, {"task", "copy"}, {"V", "3"}, {"lengths", "1:4"}}, 2));
  CHECK(copy.verdict == Verdict::Verified);
  CHECK(copy.checked == 3 + 9 + 27 + 81);
  // examples/models/float_check.py, an independent float32 run of the PyTorch module, finds the sort model right on
  // every input of length <= 4 and wrong on 32 of the 1,024 of length 5, the smallest [0, 1, 1, 0, 2].
  const ClaimResult sort =
      task_claim(check_model({{"onnx", example("sort.onnx")}, {"task", "sort"}, {"V", "4"}, {"lengths", "1:5"}}, 2));
  CHECK(sort.verdict == Verdict::Refuted);
  CHECK(sort.failed == 32);
  REQUIRE(!sort.counterexamples.empty());
  CHECK(sort.counterexamples[0].input == Json({0, 1, 1, 0, 2}));
  CHECK(sort.counterexamples[0].expected == Json({0, 0, 1, 1, 2}));
  CHECK(sort.details["lengths"][3]["error_rate"] == "0");
  CHECK(sort.details["lengths"][4]["error_rate"] == "1/32");
}

TEST_CASE("model: --expected with --decode generate feeds the model its own tokens", "[model]") {
  const std::string copy = std::string(TVERIFY_SOURCE_DIR) + "/examples/models/copy.onnx";
  const auto dir = std::filesystem::temp_directory_path() / ("tverify-model-copy-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string pairs = (dir / "pairs.jsonl").string();
  // After [BOS = 3, 0, 1, COPY = 4] the copy model generates 0 then 1: the first line passes, the second (expecting
  // 1, 0) fails at its first token, where generation stops.
  std::ofstream(pairs)
      << "{\"input\": [3, 0, 1, 4], \"output\": [0, 1]}\n{\"input\": [3, 0, 1, 4], \"output\": [1, 0]}\n";
  const ClaimResult r = task_claim(check_model({{"onnx", copy}, {"expected", pairs}, {"decode", "generate"}}));
  CHECK(r.verdict == Verdict::Refuted);
  CHECK(r.passed == 1);
  CHECK(r.failed == 1);
  CHECK(r.counterexamples[0].got == Json({0}));
  std::filesystem::remove_all(dir);
}

TEST_CASE("model: --samples checks a seeded sample under its own claim, the same for any thread count", "[model]") {
  const std::map<std::string, std::string> raw{{"onnx", fixture("identity.onnx")},
                                               {"task", "reverse"},
                                               {"V", "3"},
                                               {"lengths", "1:12"},
                                               {"samples", "200"},
                                               {"seed", "7"}};
  const CheckReport one = check_model(raw, 1);
  const ClaimResult& c = task_claim(one);
  CHECK(c.id == "model.task_sample");
  CHECK(c.checked == 200);
  // A uniform sequence of length >= 2 over 3 tokens is a palindrome with probability at most 1/3, and the domain's
  // sequences are almost all long: most of the sample fails.
  CHECK(c.verdict == Verdict::Refuted);
  CHECK(c.failed > 100);
  CHECK(one.domain_inputs == 200);
  CHECK(compare_certificates(certificate_json(one, "c"), certificate_json(check_model(raw, 2), "c")).empty());
}

TEST_CASE("model: sweep --vary lengths writes the error rate per length and marks the first failing one", "[model]") {
  const auto dir = std::filesystem::temp_directory_path() / ("tverify-model-sweep-" + std::to_string(::getpid()));
  const auto capture = dir / "capture";
  std::filesystem::create_directories(capture);
  const testing::CliResult r =
      testing::run_tverify({"sweep", "model", "--vary", "lengths", "--onnx", fixture("identity.onnx"), "--task",
                            "reverse", "--V", "2", "--lengths", "1:3", "--out", "runs"},
                           dir, capture);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const Json summary = Json::parse(testing::read_all(dir / "runs" / "model-lengths.json"))["summary"];
  CHECK(summary["first_failing_length"] == 2);  // every sequence of length 1 is a palindrome
  CHECK(summary["lengths"][2]["error_rate"] == "1/2");
  CHECK(std::filesystem::exists(dir / "runs" / "model-lengths.csv"));
  CHECK(std::filesystem::exists(dir / "runs" / "model-lengths.png"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("model: an error that only the double rung's coarser enclosures make sends the input up the ladder",
          "[model]") {
  // The exponent (2 + 2^-60) - 2^-60 is exactly 2, but doubles enclose 2 + 2^-60 in an interval, so the double rung
  // sees a non-integer exponent of -3 (no real value); the next rung (exact exp-log arithmetic, as MPFI at 256 bits
  // would) holds it as the point 2, and the logits are 9 times the one-hot row of each token
  // (tests/models/make_fixtures.py).
  const auto dir = std::filesystem::temp_directory_path() / ("tverify-model-pow-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string pairs = (dir / "pairs.jsonl").string();
  std::ofstream(pairs) << "{\"input\": [0], \"output\": [0]}\n{\"input\": [1, 2], \"output\": [1, 2]}\n";
  const ClaimResult c =
      task_claim(check_model({{"onnx", fixture("exponent_exact_beyond_doubles.onnx")}, {"expected", pairs}}));
  CHECK(c.verdict == Verdict::Verified);
  CHECK(c.details["decided_at_bits"]["exp-log"] == 2);  // the next rung: exact, where e is the point 2
  std::filesystem::remove_all(dir);
}

namespace {

// A causal attention layer over the embedding E (rows for tokens 0, 1 and BOS = 2, no two alike) whose scores above
// the diagonal are masked with `mask`: -inf (a scalar of -inf) or a finite number; logits = softmax(x x^T + mask) x.
std::string masked_attention(const std::filesystem::path& dir, const std::string& name, std::optional<Exact> mask) {
  model::OnnxWriter w(name);
  const std::string tokens = w.token_input("tokens");
  const std::string E = w.rationals("E", {3, 2}, {1, Exact(1, 4), Exact(3, 10), 1, Exact(3, 5), Exact(11, 20)});
  const std::string x = w.node("Gather", {E, tokens}, {{"axis", std::int64_t{0}}});
  const std::string length = w.node("Shape", {tokens});
  const std::string square = w.node("Concat", {length, length}, {{"axis", std::int64_t{0}}});
  const std::string zero = w.scalar("zero", 0);
  const std::string ones = w.node("Add", {w.node("ConstantOfShape", {square}), w.scalar("one", 1)});
  const std::string above = w.node("Equal", {w.node("Trilu", {ones}, {{"upper", std::int64_t{0}}}), zero});
  const std::string fill = mask ? w.scalar("mask", *mask) : w.minus_infinity("mask");
  const std::string scores = w.node("MatMul", {x, w.node("Transpose", {x})});
  const std::string weights = w.node("Softmax", {w.node("Add", {scores, w.node("Where", {above, fill, zero})})});
  w.node("MatMul", {weights, x}, {}, "logits");
  w.output("logits", 2);
  const auto path = dir / (name + ".onnx");
  write_file_atomically(path, w.serialized());
  return path.string();
}

// Checks each model against the task of `params` and requires the same verdicts, counterexamples included, every
// input decided in double intervals (rung 53) and some input refuted (counterexamples to compare).
void expect_same_verdicts_in_doubles(const std::vector<std::pair<std::string, std::string>>& named_models,
                                     std::map<std::string, std::string> params) {
  std::optional<Json> first;
  for (const auto& [name, path] : named_models) {
    params["onnx"] = path;
    const CheckReport r = check_model(params);
    const ClaimResult& claim = task_claim(r);
    INFO(name << ": " << claim.summary);
    CHECK(claim.unknown == 0);
    CHECK(claim.failed > 0);
    CHECK(claim.details["decided_at_bits"] == Json{{"53", claim.checked}});
    Json verdict = {to_string(claim.verdict), claim.failed, claim.details["lengths"]};
    for (const auto& c : claim.counterexamples) verdict.push_back({c.input, c.got});
    if (!first) first = verdict;
    CHECK(verdict == *first);
  }
}

}  // namespace

TEST_CASE("model: a causal mask of -inf, -1e4, -1e9 or float32's lowest gives the same verdicts, decided in doubles",
          "[model]") {
  const auto dir = std::filesystem::temp_directory_path() / ("tverify-model-masks-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  // float32's lowest (torch.finfo(torch.float32).min), -(2 - 2^-23) 2^127, as Hugging Face code writes its masks.
  const Exact lowest = -(Exact(2) - Exact(1, BigInt(1) << 23)) * Exact(BigInt(1) << 127);
  const std::vector<std::pair<std::string, std::optional<Exact>>> masks{
      {"minus_inf", std::nullopt}, {"minus_1e4", Exact(-10000)}, {"minus_1e9", Exact(-1000000000)}, {"lowest", lowest}};
  std::vector<std::pair<std::string, std::string>> models;
  for (const auto& [name, mask] : masks) models.emplace_back(name, masked_attention(dir, name, mask));
  expect_same_verdicts_in_doubles(models, {{"task", "majority"}, {"V", "2"}, {"lengths", "1:6"}});
  std::filesystem::remove_all(dir);
}

TEST_CASE(
    "model: a PyTorch GPT-style model with its causal mask as -inf, -1e4, -1e9 or finfo.min gives the same "
    "verdicts, decided in doubles",
    "[model]") {
  // tests/models/make_mask_fixture.py: two pre-LayerNorm blocks (two heads, GELU), the scores filled above the
  // diagonal by masked_fill, as Hugging Face code writes it; the four files differ only in the fill value.
  std::vector<std::pair<std::string, std::string>> models;
  for (const char* name : {"minus_inf", "minus_1e4", "minus_1e9", "lowest"})
    models.emplace_back(name, fixture(std::string("mask_") + name + ".onnx"));
  expect_same_verdicts_in_doubles(models, {{"task", "majority"}, {"V", "3"}, {"lengths", "1:5"}});
}

namespace {

// logits = E[token]: rows 0, 1, 2 of E are the logits of tokens 0, 1, 2 exactly.
std::string embedding_logits(const std::filesystem::path& dir) {
  model::OnnxWriter w("embedding_logits");
  const std::string tokens = w.token_input("tokens");
  const std::string E = w.rationals("E", {3, 3},
                                    {Exact(1, 2), Exact(1, 3), 0,  // token 0: argmax 0, margin 1/2 - 1/3 = 1/6
                                     0, 2, 2,                      // token 1: 1 and 2 tie, margin 0
                                     -1, 0, Exact(5, 4)});         // token 2: argmax 2, margin 5/4 - 0
  w.node("Gather", {E, tokens}, {{"axis", std::int64_t{0}}}, "logits");
  w.output("logits", 3);
  const auto path = dir / "embedding_logits.onnx";
  write_file_atomically(path, w.serialized());
  return path.string();
}

Evaluation eval_model(std::map<std::string, std::string> raw, const std::string& input) {
  const Construction& c = find_construction("model");
  return c.eval(ParamValues::parse(c.params(), raw), "stored", input, false, 0);
}

}  // namespace

TEST_CASE("model: eval --logits gives every logit and each position's margin, exact on a rational graph", "[model]") {
  const auto dir = std::filesystem::temp_directory_path() / ("tverify-logits-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const Evaluation e = eval_model({{"onnx", embedding_logits(dir)}, {"logits", "true"}}, "0,1,2");
  CHECK(e.result["logits"] == Json::parse(R"([["1/2", "1/3", "0"], ["0", "2", "2"], ["-1", "0", "5/4"]])"));
  CHECK(e.result["argmax"] == Json::parse(R"([0, "tie 1,2", 2])"));
  CHECK(e.result["margins"] == Json::parse(R"(["1/6", "0", "5/4"])"));
  CHECK(e.result["decided_at"] == "exact");
  std::filesystem::remove_all(dir);
}

TEST_CASE("model: eval --logits encloses an interval model's margins: each contains its logits' difference",
          "[model]") {
  // The PyTorch attention fixture (GELU, LayerNorm, softmax): decided in double intervals.
  const Evaluation e = eval_model({{"onnx", fixture("attention_alibi.onnx")}, {"logits", "true"}}, "4,0,1,2,3");
  CHECK(e.result["decided_at"] == "53");
  for (std::size_t p = 0; p < 5; ++p) {
    const auto& row = e.result["logits"][p];
    const std::int64_t w = e.result["argmax"][p].get<std::int64_t>();
    const auto ends = [](const Json& text) {
      const std::string s = text.get<std::string>();
      const auto comma = s.find(',');
      return std::pair{parse_exact(s.substr(1, comma - 1)), parse_exact(s.substr(comma + 2, s.size() - comma - 3))};
    };
    // The margin lies between the winner's lower end minus the largest other upper end, and the winner's upper
    // end minus the largest other lower end.
    Exact others_lo = -Exact(BigInt(1) << 64), others_hi = others_lo;
    for (std::size_t k = 0; k < row.size(); ++k)
      if (static_cast<std::int64_t>(k) != w) {
        others_lo = std::max(others_lo, ends(row[k]).first);
        others_hi = std::max(others_hi, ends(row[k]).second);
      }
    const auto [m_lo, m_hi] = ends(e.result["margins"][p]);
    INFO("position " << p << ": margin " << e.result["margins"][p]);
    CHECK(m_lo > 0);
    CHECK(m_lo <= ends(row[w]).second - others_lo);
    CHECK(m_hi >= ends(row[w]).first - others_hi);
  }
}

TEST_CASE("model: check records the smallest margin of the inputs decided right, the same for any thread count",
          "[model]") {
  const auto dir = std::filesystem::temp_directory_path() / ("tverify-margin-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  // Against --expected, each input expecting its own tokens' argmaxes: [1] ties (a failure); [2] has margin 5/4,
  // [2, 0] margins 5/4 and 1/6, [0, 2] 1/6 and 5/4. The smallest, 1/6, comes first in domain order (the file's, by
  // length) at [2, 0], position 1.
  const auto pairs = dir / "pairs.jsonl";
  std::ofstream(pairs) << "{\"input\": [2], \"output\": [2]}\n{\"input\": [1], \"output\": [1]}\n"
                          "{\"input\": [2, 0], \"output\": [2, 0]}\n{\"input\": [0, 2], \"output\": [0, 2]}\n";
  const std::map<std::string, std::string> raw{{"onnx", embedding_logits(dir)}, {"expected", pairs.string()}};
  for (unsigned threads : {1u, 2u}) {
    const CheckReport report = check_model(raw, threads);
    const ClaimResult& claim = task_claim(report);
    CHECK(claim.failed == 1);
    CHECK(claim.details["smallest_margin"] == Json::parse(R"({"margin": "1/6", "input": [2, 0], "position": 1})"));
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("model: a margin that a rung cannot enclose never changes a verdict", "[model]") {
  const auto dir = std::filesystem::temp_directory_path() / ("tverify-margin-ladder-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  // logits = [c + (ln a1 == ln a2 ? 0 : 0), ln a1, ln a2, e^b] from E[token] = (c, a1, a2, b). Token 0 gives
  // [0, ln 4, ln 4, 1], an exact tie that only exp-log arithmetic decides. Token 2 gives [10, ln 4, ln 4, e], argmax
  // 0, but its comparison ln 4 == ln 4 inside the graph sends it to exp-log arithmetic too, where its margin
  // min(10 - ln 4, 10 - e) compares a sum of logarithms with an exponential, which that arithmetic does not form.
  model::OnnxWriter w("exp_log_margin");
  const std::string tokens = w.token_input("tokens");
  const std::string E = w.rationals("E", {3, 4}, {0, 4, 4, 0, 10, 2, 1, 1, 10, 4, 4, 1});
  const std::string x = w.node("Gather", {E, tokens}, {{"axis", std::int64_t{0}}});
  const std::string axis = w.integers("axis", {1}, {1});
  const auto columns = [&](std::int64_t from, std::int64_t to) {
    const std::string tag = std::to_string(from);
    return w.node("Slice", {x, w.integers("from" + tag, {1}, {from}), w.integers("to" + tag, {1}, {to}), axis});
  };
  const std::string zero = w.scalar("zero", 0);
  const std::string a1 = w.node("Log", {columns(1, 2)}), a2 = w.node("Log", {columns(2, 3)});
  const std::string c = w.node("Add", {columns(0, 1), w.node("Where", {w.node("Equal", {a1, a2}), zero, zero})});
  const std::string logits =
      w.node("Concat", {c, a1, a2, w.node("Exp", {columns(3, 4)})}, {{"axis", std::int64_t{1}}}, "logits");
  w.output(logits, 4);
  const auto path = dir / "exp_log_margin.onnx";
  write_file_atomically(path, w.serialized());
  const auto pairs = dir / "pairs.jsonl";
  std::ofstream(pairs) << "{\"input\": [0, 1], \"output\": [1, 0]}\n{\"input\": [2], \"output\": [0]}\n";
  const CheckReport report = check_model({{"onnx", path.string()}, {"expected", pairs.string()}});
  const ClaimResult& claim = task_claim(report);
  CHECK(claim.failed == 1);  // [0, 1]: the tie at position 0, decided in exp-log arithmetic
  CHECK(claim.unknown == 0);
  CHECK(claim.passed == 1);  // [2]: argmax 0, its margin not enclosed there
  CHECK(claim.details["decided_at_bits"] == Json{{"exp-log", 2}});
  CHECK(claim.details["right_without_margin"] == 1);
  CHECK_FALSE(claim.details.contains("smallest_margin"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("model: the smallest margin is the lowest lower end, the earliest input among equal ones", "[model]") {
  using model::ReadValue;
  using model::SmallestMargin;
  const auto margin = [](Exact lower, std::uint64_t index) {
    return SmallestMargin{ReadValue::printed(exact_to_string(lower), lower, 0), Json::array({index}), 0, index};
  };
  for (bool reversed : {false, true}) {  // the order in which chunks merge does not matter
    model::ModelTally t;
    std::vector<SmallestMargin> seen{margin(Exact(1, 2), 7), margin(Exact(1, 3), 9), margin(Exact(1, 3), 4),
                                     margin(Exact(2), 1)};
    if (reversed) std::reverse(seen.begin(), seen.end());
    for (const auto& m : seen) t.keep_smaller(m);
    REQUIRE(t.smallest_margin);
    CHECK(t.smallest_margin->index == 4);
    CHECK(t.smallest_margin->margin.text() == "1/3");
  }
  model::ModelTally infinite;
  infinite.keep_smaller(SmallestMargin{ReadValue::printed("inf", Exact(0), 1), Json::array(), 0, 0});
  infinite.keep_smaller(margin(Exact(1000), 5));
  CHECK(infinite.smallest_margin->index == 5);  // any finite margin is below inf
}
