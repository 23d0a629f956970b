// SPDX-License-Identifier: MIT
#pragma once
// "Latest request wins", the one way the explorer says it: a view asks for background work (a
// layout, a graph read, a re-timing, a sample), the user asks again before it lands, and only the
// newest answer may land. Each request takes a ticket; an outcome whose ticket is no longer the
// latest is dropped. GUI thread only (tickets are taken and checked there).
//
//   const auto ticket = m_layouts.next();
//   runInBackground(this, work, [this, ticket](Outcome<T> out) { if (!m_layouts.isLatest(ticket)) return; ... });
#include <cstdint>

namespace sl::gui {

class LatestRequest {
public:
    struct Ticket {
        std::uint64_t value = 0;
    };
    /// A new request: every ticket given before is stale from now on.
    Ticket next() { return {++m_latest}; }
    /// No new request, but none asked before may land (e.g. a graph opened another way).
    void supersede() { ++m_latest; }
    bool isLatest(Ticket t) const { return t.value == m_latest; }

private:
    std::uint64_t m_latest = 0;
};

}   // namespace sl::gui
