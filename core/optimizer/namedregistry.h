// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Name -> (info, factory): the storage behind OptimizerRegistry and SamplerRegistry. Thread-safe,
/// because the neural module (core/plugin/neuralmodule.h) may register its methods while a worker
/// thread creates a classic one. Entries are never removed and live in a deque, so a pointer from
/// find() stays valid; re-registering a name replaces its entry in place (registerX() functions stay
/// idempotent), which callers do only while setting up.

#include <deque>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <utility>
#include <vector>

namespace sl {

template <class Info, class Factory>
class NamedRegistry {
public:
    void add(Info info, Factory factory) {
        std::unique_lock lock(m_mutex);
        for (auto& [i, f] : m_entries)
            if (i.name == info.name) {
                i = std::move(info);
                f = std::move(factory);
                return;
            }
        m_entries.emplace_back(std::move(info), std::move(factory));
    }

    const Info* find(const std::string& name) const {
        std::shared_lock lock(m_mutex);
        for (const auto& [i, f] : m_entries)
            if (i.name == name) return &i;
        return nullptr;
    }

    /// A copy of the factory, so that it runs without the lock held.
    std::optional<Factory> factory(const std::string& name) const {
        std::shared_lock lock(m_mutex);
        for (const auto& [i, f] : m_entries)
            if (i.name == name) return f;
        return std::nullopt;
    }

    std::vector<Info> list() const {   ///< in registration order
        std::shared_lock lock(m_mutex);
        std::vector<Info> out;
        for (const auto& [i, f] : m_entries) out.push_back(i);
        return out;
    }

    std::string names() const {   ///< "a, b, c"
        std::string out;
        for (const Info& i : list()) out += (out.empty() ? "" : ", ") + i.name;
        return out;
    }

private:
    mutable std::shared_mutex m_mutex;
    std::deque<std::pair<Info, Factory>> m_entries;
};

} // namespace sl
