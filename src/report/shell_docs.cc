#include "report/shell_docs.h"

#include <fmt/format.h>

#include <cctype>
#include <string_view>
#include <utility>

namespace htpscope {
namespace {

// The first sentence of a help text, for one-line descriptions.
std::string FirstSentence(const std::string& help) {
  std::string s = help.substr(0, help.find('\n'));
  size_t stop = s.find(". ");
  if (stop != std::string::npos) s = s.substr(0, stop);
  stop = s.find(": ");
  if (stop != std::string::npos && stop > 20) s = s.substr(0, stop);
  if (s.size() > 90) s = s.substr(0, 87) + "...";
  return s;
}

// Inside single quotes for bash, zsh and fish: ' becomes '\''.
std::string SingleQuoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// A word list for bash's compgen -W, space-separated.
std::string Words(const std::vector<std::string>& words) {
  return fmt::format("{}", fmt::join(words, " "));
}

std::vector<std::string> OptionWords(const std::vector<CliOptionDoc>& options) {
  std::vector<std::string> words;
  for (const auto& o : options)
    for (const auto& n : o.names) words.push_back(n);
  return words;
}

// zsh _arguments description text: brackets and colons escaped.
std::string ZshDescription(const std::string& help) {
  std::string out;
  for (char c : FirstSentence(help)) {
    if (c == '[' || c == ']' || c == ':' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

// roff text: backslashes and hyphens escaped, no line starting with a
// control character.
std::string Roff(const std::string& text) {
  // Non-ASCII characters the help texts use, as roff escapes: plain troff
  // reads bytes, not UTF-8.
  static constexpr std::pair<std::string_view, std::string_view> kGlyphs[] = {
      {"µ", "\\(mc"}, {"÷", "\\(di"}, {"−", "\\-"},   {"×", "\\(mu"}, {"…", "..."},
      {"≥", "\\(>="}, {"≤", "\\(<="}, {"→", "\\(->"}, {"—", "\\(em"}, {"–", "\\(en"},
      {"·", "\\(pc"}, {"Σ", "\\(*S"}, {"±", "\\(+-"}};
  std::string out;
  bool line_start = true;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (static_cast<unsigned char>(c) >= 0x80) {
      bool replaced = false;
      for (const auto& [glyph, escape] : kGlyphs)
        if (text.compare(i, glyph.size(), glyph) == 0) {
          out += escape;
          i += glyph.size() - 1;
          replaced = true;
          break;
        }
      if (!replaced) out += c;
      line_start = false;
      continue;
    }
    if (line_start && (c == '.' || c == '\'')) out += "\\&";
    if (c == '\\')
      out += "\\e";
    else if (c == '-')
      out += "\\-";
    else
      out += c;
    line_start = c == '\n';
  }
  return out;
}

std::string ManOptions(const std::vector<CliOptionDoc>& options) {
  std::string out;
  for (const auto& o : options) {
    std::vector<std::string> names;
    for (const auto& n : o.names) names.push_back("\\fB" + Roff(n) + "\\fR");
    out += ".TP\n" + fmt::format("{}", fmt::join(names, ", "));
    if (!o.value_name.empty()) out += " \\fI" + Roff(o.value_name) + "\\fR";
    out += "\n" + Roff(o.help);
    if (!o.choices.empty()) out += " (one of: " + Roff(Words(o.choices)) + ")";
    out += "\n";
  }
  return out;
}

}  // namespace

std::string RenderBashCompletion(const CliDoc& doc) {
  const std::string fn = "_" + doc.program;
  std::vector<std::string> commands;
  for (const auto& c : doc.commands) commands.push_back(c.name);
  std::string out = fmt::format("# bash completion for {} ({})\n", doc.program, doc.version);
  out += fn + "() {\n";
  out += "  local cur=\"${COMP_WORDS[COMP_CWORD]}\" prev=\"\" cmd=\"\" i\n";
  out += "  (( COMP_CWORD > 0 )) && prev=\"${COMP_WORDS[COMP_CWORD-1]}\"\n";
  out += "  for (( i = 1; i < COMP_CWORD; i++ )); do\n";
  out += fmt::format(
      "    case \"${{COMP_WORDS[i]}}\" in {}) cmd=\"${{COMP_WORDS[i]}}\"; break;; esac\n",
      fmt::join(commands, "|"));
  out += "  done\n";
  // Values from a fixed set.
  out += "  case \"$prev\" in\n";
  for (const auto& o : doc.global_options)
    if (!o.choices.empty())
      out += fmt::format("    {}) COMPREPLY=($(compgen -W {} -- \"$cur\")); return;;\n",
                         fmt::join(o.names, "|"), SingleQuoted(Words(o.choices)));
  out += "  esac\n";
  out += "  case \"$cmd:$prev\" in\n";
  for (const auto& c : doc.commands)
    for (const auto& o : c.options)
      if (!o.choices.empty())
        for (const auto& n : o.names)
          out += fmt::format("    {}:{}) COMPREPLY=($(compgen -W {} -- \"$cur\")); return;;\n",
                             c.name, n, SingleQuoted(Words(o.choices)));
  out += "  esac\n";
  out += "  case \"$cmd\" in\n";
  std::vector<std::string> top = commands;
  for (const auto& w : OptionWords(doc.global_options)) top.push_back(w);
  out += fmt::format("    \"\") COMPREPLY=($(compgen -W {} -- \"$cur\"));;\n",
                     SingleQuoted(Words(top)));
  for (const auto& c : doc.commands) {
    std::vector<std::string> words = OptionWords(c.options);
    for (const auto& w : OptionWords(doc.global_options)) words.push_back(w);
    out += fmt::format(
        "    {}) if [[ \"$cur\" == -* ]]; then COMPREPLY=($(compgen -W {} -- \"$cur\")); "
        "else COMPREPLY=($(compgen -f -- \"$cur\")); fi;;\n",
        c.name, SingleQuoted(Words(words)));
  }
  out += "  esac\n}\n";
  out += fmt::format("complete -o filenames -F {} {}\n", fn, doc.program);
  return out;
}

std::string RenderZshCompletion(const CliDoc& doc) {
  std::string out = fmt::format("#compdef {}\n# zsh completion for {} ({})\n\n", doc.program,
                                doc.program, doc.version);
  auto option_specs = [](const std::vector<CliOptionDoc>& options) {
    std::string specs;
    for (const auto& o : options)
      for (const auto& n : o.names) {
        std::string spec = "*" + n + "[" + ZshDescription(o.help) + "]";
        if (!o.value_name.empty()) {
          spec += ":" + o.value_name + ":";
          spec += o.choices.empty() ? "_files" : "(" + Words(o.choices) + ")";
        }
        specs += " \\\n      " + SingleQuoted(spec);
      }
    return specs;
  };
  out += "_" + doc.program + "() {\n  local -a commands\n  commands=(\n";
  for (const auto& c : doc.commands)
    out += "    " + SingleQuoted(c.name + ":" + ZshDescription(c.help)) + "\n";
  out += "  )\n";
  out += "  if (( CURRENT == 2 )); then\n    _describe 'command' commands\n    return\n  fi\n";
  out += "  local cmd=$words[2]\n  shift words\n  (( CURRENT-- ))\n  case $cmd in\n";
  for (const auto& c : doc.commands)
    out += "    " + c.name + ")\n      _arguments" + option_specs(c.options) +
           option_specs(doc.global_options) + " \\\n      '*:file:_files'\n      ;;\n";
  out += "  esac\n}\n\n_" + doc.program + " \"$@\"\n";
  return out;
}

std::string RenderFishCompletion(const CliDoc& doc) {
  std::string out = fmt::format("# fish completion for {} ({})\n", doc.program, doc.version);
  auto option_line = [&](const CliOptionDoc& o, const std::string& condition) {
    std::string line = "complete -c " + doc.program;
    if (!condition.empty()) line += " -n " + SingleQuoted(condition);
    for (const auto& n : o.names) {
      if (n.rfind("--", 0) == 0)
        line += " -l " + n.substr(2);
      else if (n.size() == 2 && n[0] == '-')
        line += " -s " + n.substr(1);
    }
    if (!o.choices.empty())
      line += " -x -a " + SingleQuoted(Words(o.choices));
    else if (!o.value_name.empty())
      line += " -r";
    return line + " -d " + SingleQuoted(FirstSentence(o.help)) + "\n";
  };
  for (const auto& c : doc.commands)
    out += fmt::format("complete -c {} -f -n __fish_use_subcommand -a {} -d {}\n", doc.program,
                       c.name, SingleQuoted(FirstSentence(c.help)));
  for (const auto& o : doc.global_options) out += option_line(o, "");
  for (const auto& c : doc.commands)
    for (const auto& o : c.options) out += option_line(o, "__fish_seen_subcommand_from " + c.name);
  return out;
}

std::string RenderManPage(const CliDoc& doc) {
  std::string out;
  std::string upper;
  for (char c : doc.program)
    upper += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  out += fmt::format(".TH {} 1 \"\" \"{}\" \"User Commands\"\n", upper, Roff(doc.version));
  out += ".SH NAME\n" + Roff(doc.program) + " \\- " + Roff(doc.description) + "\n";
  out += ".SH SYNOPSIS\n.B " + Roff(doc.program) +
         "\n[\\fIOPTIONS\\fR] \\fICOMMAND\\fR [\\fIARGS\\fR]\n";
  out += ".SH DESCRIPTION\n" + Roff(doc.description) +
         ".\nEach command reads the artifacts of a profiled run (a directory or files) and prints "
         "a report; \\fB" +
         Roff(doc.program) + " \\fICOMMAND\\fB \\-\\-help\\fR prints its help.\n";
  out += ".SH OPTIONS\n" + ManOptions(doc.global_options);
  out += ".SH COMMANDS\n";
  for (const auto& c : doc.commands) {
    out += ".SS \"" + Roff(doc.program + " " + c.name) + "\"\n";
    if (!c.positionals.empty())
      out += ".B " + Roff(doc.program + " " + c.name) + "\n[\\fIOPTIONS\\fR] \\fI" +
             Roff(Words(c.positionals)) + "\\fR\n.PP\n";
    out += Roff(c.help) + "\n";
    out += ManOptions(c.options);
    if (!c.footer.empty()) out += ".PP\n.nf\n" + Roff(c.footer) + "\n.fi\n";
  }
  out +=
      ".SH EXIT STATUS\n.TP\n0\nSuccess.\n.TP\n1\nA gate failed (\\fB\\-\\-fail\\-on\\fR, "
      "\\fBgraph \\-\\-expect\\fR).\n.TP\n2\nBad input or usage.\n.TP\n3\nAn output could not be "
      "written.\n.TP\n70\nAn internal error (a bug).\n";
  out +=
      ".SH ENVIRONMENT\n.TP\n.B NO_COLOR\nWhen set and not empty, no colour (unless "
      "\\fB\\-\\-color always\\fR).\n.TP\n.B TERM\n\\fBdumb\\fR turns colour off.\n";
  return out;
}

}  // namespace htpscope
