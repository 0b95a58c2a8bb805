// How the command line talks to people: help without CLI11's flag-value
// clutter, range checks that read as sentences, parse errors with a
// "did you mean" for misspelt commands and options.
#pragma once

#include <CLI/CLI.hpp>
#include <memory>
#include <string>
#include <vector>

namespace htpscope::cli {

// Help formatter: option names without the "{false}" CLI11 appends to
// negated flags ("!--no-graph").
std::shared_ptr<CLI::Formatter> MakeHelpFormatter();

// Value checks whose failures read "--top: must be at least 1 (got 0)".
CLI::Validator AtLeast(double minimum);           // value >= minimum
CLI::Validator GreaterThan(double bound);         // value > bound (e.g. a clock in GHz)
CLI::Validator Between(double low, double high);  // low <= value <= high

// --json into `json`: print JSON, whose schema `schema_doc` documents
// ("docs/summary-json.md").
void AddJsonFlag(CLI::App* cmd, bool& json, const std::string& schema_doc);

// --format (described by `help`, one of `choices`) into `format`, and --json
// into `json`: the same as --format json, so the two exclude each other.
void AddFormatOptions(CLI::App* cmd, std::string& format, bool& json, const std::string& help,
                      const std::vector<std::string>& choices);

// Prints a parse error of `app` (an htpscope command line) to stderr with a
// suggestion where the user probably misspelt a subcommand or an option, and
// returns the exit status: 0 for --help and --version, else 2.
int ReportParseError(CLI::App& app, const CLI::ParseError& error);

}  // namespace htpscope::cli
