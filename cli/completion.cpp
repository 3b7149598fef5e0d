#include "cli/completion.hpp"

#include "io/errors.hpp"

#include <fmt/format.h>

#include <functional>
#include <vector>

namespace tverify::cli {
namespace {

// One command (`check copy`): the words that lead to it, the subcommands it takes, its options, and those of its
// options whose value is a file or a folder.
struct CommandWords {
  std::string path;
  std::vector<std::string> subcommands, options, file_options, dir_options;
};

void collect(const CLI::App& app, const std::string& path, std::vector<CommandWords>& out) {
  CommandWords words{path, {}, {}, {}, {}};
  for (const CLI::Option* o : app.get_options()) {
    if (o->get_group().empty()) continue;  // hidden from --help: an option this command never reads
    for (const auto& name : o->get_lnames()) {
      const std::string option = "--" + name;
      words.options.push_back(option);
      if (o->get_type_name() == "FILE") words.file_options.push_back(option);
      if (o->get_type_name() == "DIR") words.dir_options.push_back(option);
    }
  }
  const auto subs = app.get_subcommands([](const CLI::App*) { return true; });
  for (const CLI::App* sub : subs) words.subcommands.push_back(sub->get_name());
  out.push_back(words);
  for (const CLI::App* sub : subs) collect(*sub, path.empty() ? sub->get_name() : path + " " + sub->get_name(), out);
}

std::string joined(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : " ") + w;
  return out;
}

// A bash function `name` that prints, for a command path given as $1, the words `field` lists.
std::string case_function(const std::string& name, const std::vector<CommandWords>& commands,
                          const std::function<const std::vector<std::string>&(const CommandWords&)>& field) {
  std::string out = name + "() {\n  case \"$1\" in\n";
  for (const auto& c : commands)
    if (!field(c).empty()) out += fmt::format("    \"{}\") echo \"{}\" ;;\n", c.path, joined(field(c)));
  return out + "  esac\n}\n";
}

std::string bash_script(const CLI::App& app) {
  std::vector<CommandWords> commands;
  collect(app, "", commands);
  for (auto& c : commands)  // the shells `completion` takes, offered where a subcommand would be
    if (c.path == "completion") c.subcommands = {"bash", "zsh"};
  std::string out =
      "# tverify completion for bash: source it, or put it in ~/.local/share/bash-completion/completions/tverify\n";
  out += case_function(
      "_tverify_subcommands", commands, [](const CommandWords& c) -> const auto& { return c.subcommands; });
  out += case_function(
      "_tverify_options", commands, [](const CommandWords& c) -> const auto& { return c.options; });
  out += case_function(
      "_tverify_file_options", commands, [](const CommandWords& c) -> const auto& { return c.file_options; });
  out += case_function(
      "_tverify_dir_options", commands, [](const CommandWords& c) -> const auto& { return c.dir_options; });
  out += R"BASH(# Whether the words of list $1 include the word $2 (compared as text, not as a pattern).
_tverify_has() {
  local w
  for w in $1; do [[ $w == "$2" ]] && return 0; done
  return 1
}
# Sets COMPREPLY to the output lines of the command given, one candidate a line: no word splitting, no globbing.
_tverify_reply() {
  local line
  COMPREPLY=()
  while IFS= read -r line; do COMPREPLY+=("$line"); done < <("$@")
}
_tverify() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} command_path="" word i
  # --option=value: bash splits the word at '=', so the option is one or two words back.
  if [[ $cur == "=" ]]; then
    cur=""
  elif [[ $prev == "=" ]]; then
    prev=${COMP_WORDS[COMP_CWORD-2]}
  fi
  # The command path: the leading words that name a verb, then a construction.
  for ((i = 1; i < COMP_CWORD; i++)); do
    word=${COMP_WORDS[i]}
    if _tverify_has "$(_tverify_subcommands "$command_path")" "$word"; then
      command_path=${command_path:+$command_path }$word
    else
      break
    fi
  done
  if _tverify_has "$(_tverify_file_options "$command_path")" "$prev"; then
    _tverify_reply compgen -f -- "$cur"
  elif _tverify_has "$(_tverify_dir_options "$command_path")" "$prev"; then
    _tverify_reply compgen -d -- "$cur"
  elif [[ $cur == -* ]]; then
    _tverify_reply compgen -W "$(_tverify_options "$command_path")" -- "$cur"
  elif [[ -n $(_tverify_subcommands "$command_path") && $i -eq $COMP_CWORD ]]; then
    _tverify_reply compgen -W "$(_tverify_subcommands "$command_path")" -- "$cur"
  else
    _tverify_reply compgen -f -- "$cur"
  fi
}
complete -o filenames -F _tverify tverify
)BASH";
  return out;
}

}  // namespace

std::string completion_script(const CLI::App& app, const std::string& shell) {
  if (shell == "bash") return bash_script(app);
  if (shell == "zsh")
    return "# tverify completion for zsh (bash's, through bashcompinit): source it from ~/.zshrc\n"
           "autoload -U +X compinit && compinit\nautoload -U +X bashcompinit && bashcompinit\n" +
           bash_script(app);
  throw UsageError("completion: the shell must be bash or zsh (got '" + shell + "')");
}

}  // namespace tverify::cli
