// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Hand edits of a schedule: move one op to a device and a place in that device's sequence, see
/// what the schedule would cost before committing, undo and redo.
///
/// A schedule is edited as its devices' op sequences (sl::DeviceChains). After an edit every op
/// starts as early as its device's sequence and its inputs allow: the chains are timed by
/// sl::timeChains and scored by sl::scoreSchedule, so an edited schedule costs here what
/// `schedlab-cli evaluate` says of its saved file, to the bit. An edit is refused, with the reason
/// and nothing changed, when the op cannot run on the device (machine type, resource demand), when
/// the sequences would contradict the graph (a cycle through device order and data edges), when
/// a device would newly exceed its memory capacity, or when a pin (Problem::pins) would newly break:
/// a pinned op leaving its device, ranked ops out of their order. Each device runs one op at a time: a schedule
/// that runs several ops at once on a device is not editable (the constructor says so).
///
/// \code
///   sl::ScheduleEditor edit(problem, result.schedule);
///   sl::EditOutcome o = edit.preview(v, {.device = 1, .position = 0});   // what it would cost
///   if (o.allowed()) edit.move(v, {.device = 1, .position = 0});          // commit
///   edit.undo();                                                           // the original, exactly
/// \endcode
/// Cost: a preview or a move retimes and rescores the whole schedule, O(V + E) (bench edit).

#include "core/costmodel/chaintiming.h"
#include "core/costmodel/problem.h"
#include "core/schedule/schedule.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace sl {

/// A device and a place in its op sequence: `position` ops of that device run before the op
/// (counted without the op itself; the sequence's length puts it last).
struct OpPlace {
    int device = 0;
    int position = 0;
    bool operator==(const OpPlace&) const = default;
};

/// What an edit gives: the refusal's reason, or the schedule it makes, timed and scored.
struct EditOutcome {
    std::string refusal;   ///< empty when the edit is allowed
    Schedule schedule;     ///< the schedule after the edit (allowed edits only)
    double cost = 0;       ///< its cost under the problem's objective
    bool allowed() const { return refusal.empty(); }
};

class ScheduleEditor {
public:
    /// Edits `start`, a valid schedule of `problem`. Throws std::invalid_argument when a device
    /// runs two ops at once in it, naming them.
    ScheduleEditor(std::shared_ptr<const Problem> problem, Schedule start);

    const Problem& problem() const { return *m_problem; }
    const std::shared_ptr<const Problem>& sharedProblem() const { return m_problem; }
    /// Checks later edits against these pins instead of the problem's (pins set after the
    /// schedule was made); the problem becomes a copy with them.
    void setPins(const Pins& pins);
    /// The schedule as edited so far (the start itself, untouched, before any edit or after
    /// undoing them all).
    const Schedule& schedule() const { return m_current; }
    double cost() const { return m_cost; }
    const DeviceChains& chains() const { return m_chains; }
    OpPlace placeOf(OpId v) const;

    /// The outcome of moving `v` to `to`; changes nothing. A place equal to v's own is allowed
    /// and gives the current schedule.
    EditOutcome preview(OpId v, OpPlace to) const;
    /// Moves `v` to `to` when allowed (a new undo step unless nothing moved); returns the outcome.
    EditOutcome move(OpId v, OpPlace to);

    /// Places for the keyboard: one place earlier or later on v's device, or the device before or
    /// after v's, where v's start time falls among its ops. Empty when there is none.
    std::optional<OpPlace> earlier(OpId v) const;
    std::optional<OpPlace> later(OpId v) const;
    std::optional<OpPlace> onDevice(OpId v, int step) const;

    bool canUndo() const { return m_done > 0; }
    bool canRedo() const { return m_done < m_history.size(); }
    void undo();
    void redo();
    /// Edits in effect (undone ones excluded).
    std::size_t editCount() const { return m_done; }

private:
    struct Edit {
        OpId op;
        OpPlace from, to;
    };
    /// `to` with its position clamped to v's own sequence when it is v's device.
    OpPlace onItsDevice(OpId v, OpPlace to) const;
    /// v's chains with v moved to `to` (positions clamped to the target sequence).
    DeviceChains movedChains(OpId v, OpPlace to) const;
    std::string placeRefusal(OpId v, int device) const;
    std::string capacityRefusal(const Schedule& after) const;
    bool keepsPins(const Schedule& s) const;
    /// Times and scores `chains`; the refusal names a cycle when they contradict the graph.
    EditOutcome outcomeOf(const DeviceChains& chains) const;
    void adopt(DeviceChains chains, EditOutcome outcome);
    void replay(OpId v, OpPlace to);

    std::shared_ptr<const Problem> m_problem;
    Schedule m_start;
    double m_startCost = 0;
    DeviceChains m_startChains;
    DeviceChains m_chains;
    Schedule m_current;
    double m_cost = 0;
    bool m_currentKeepsPins = true;   ///< m_current breaks no pin: kept up to date, so a preview does not recheck it
    std::vector<Edit> m_history;
    std::size_t m_done = 0;
};

} // namespace sl
