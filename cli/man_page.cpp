// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/man_page.h"

#include <CLI/CLI.hpp>

#include <sstream>

namespace napkin::cli {
namespace {

// One option as a tagged paragraph: ".TP" then the names and value type, then the help and default.
void writeOption(std::ostringstream& out, const CLI::Option& option) {
    out << ".TP\n\\fB" << roffEscape(option.get_name()) << "\\fR";
    if (option.get_type_size() != 0 && !option.get_type_name().empty())
        out << " \\fI" << roffEscape(option.get_type_name()) << "\\fR";
    out << '\n' << roffEscape(option.get_description());
    if (!option.get_default_str().empty())
        out << " (default: " << roffEscape(option.get_default_str()) << ')';
    out << '\n';
}

// A command's section: its path ("bench matmul"), its description, its options, then its subcommands.
void writeCommand(std::ostringstream& out, const CLI::App& command, const std::string& path) {
    out << ".SS \"" << roffEscape(path) << "\"\n" << roffEscape(command.get_description()) << '\n';
    for (const CLI::Option* option : command.get_options()) {
        // The help flag is on every command; an option in no group is hidden from --help, and here.
        if (option == command.get_help_ptr() || option->get_group().empty())
            continue;
        writeOption(out, *option);
    }
    for (const CLI::App* sub : command.get_subcommands({}))
        writeCommand(out, *sub, path + ' ' + sub->get_name());
}

} // namespace

std::string roffEscape(const std::string& text) {
    std::string escaped;
    bool lineStart = true;
    for (const char c : text) {
        if (lineStart && (c == '.' || c == '\''))
            escaped += "\\&";
        if (c == '\\')
            escaped += "\\e";
        else if (c == '-')
            escaped += "\\-";
        else
            escaped += c;
        lineStart = c == '\n';
    }
    return escaped;
}

std::string manPage(const CLI::App& app, const std::string& version) {
    std::ostringstream out;
    out << ".TH NAPKIN\\-CLI 1 \"\" \"" << roffEscape(version) << "\" \"User Commands\"\n"
        << ".SH NAME\nnapkin\\-cli \\- deep\\-learning resource accounting on the command line\n"
        << ".SH SYNOPSIS\n.B napkin\\-cli\n\\fICOMMAND\\fR [\\fIOPTIONS\\fR]\n"
        << ".SH DESCRIPTION\n" << roffEscape(app.get_description()) << '\n'
        << ".PP\nEach command prints a few lines of text, or with \\fB\\-\\-json\\fR one JSON document whose fields "
           "are a contract documented in the project's docs/cli.md.\n"
        << ".SH COMMANDS\n";
    for (const CLI::App* command : app.get_subcommands({}))
        writeCommand(out, *command, "napkin-cli " + command->get_name());
    out << ".SH EXIT STATUS\n0 success; 2 bad arguments (one line on standard error names the argument) or an "
           "unavailable device; 1 an internal failure.\n"
        << ".SH SEE ALSO\n\\fBnapkin\\fR, the desktop application.\n";
    return out.str();
}

} // namespace napkin::cli
