// SPDX-License-Identifier: MIT
#pragma once
/// Minimal argument parsing for schedlab-cli: positionals, `--key value`, `--key=value`, `--flag`.
/// Commands take() what they understand; finish() rejects the rest (exit code 2).

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace sl::cli {

/// Wrong command line: exit code 2.
class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Bad input file or content: exit code 1.
class InputError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class Args {
public:
    /// `flags` lists the options that take no value (e.g. "json", "greedy").
    Args(std::vector<std::string> argv, const std::vector<std::string>& flags);

    std::size_t positionalCount() const { return m_positional.size(); }
    /// The i-th positional; throws UsageError naming `what` if absent.
    std::string positional(std::size_t i, const std::string& what) const;
    std::optional<std::string> take(const std::string& key);
    std::string take(const std::string& key, const std::string& fallback);
    double takeDouble(const std::string& key, double fallback);
    std::int64_t takeInt(const std::string& key, std::int64_t fallback);
    /// takeInt, refused outside [min, max] with a message naming the range.
    std::int64_t takeIntIn(const std::string& key, std::int64_t fallback, std::int64_t min, std::int64_t max);
    /// --threads, 1 .. limits().threads.
    int takeThreads(std::int64_t fallback);
    /// A comma-separated list of whole numbers, each at least `min` (e.g. --sizes 100,1000).
    std::vector<int> takeIntList(const std::string& key, const std::string& fallback, int min = 1);
    bool takeFlag(const std::string& key);
    /// Every option not yet taken, as key -> value (for method-specific options).
    std::map<std::string, std::string> takeRest();
    /// Throws UsageError for options nobody took or surplus positionals.
    void finish(std::size_t maxPositionals) const;

private:
    std::vector<std::string> m_positional;
    std::map<std::string, std::string> m_options;
};

} // namespace sl::cli
