// SPDX-License-Identifier: MIT
// Hand edits of a schedule on its device chains, timed and scored by the one cost model.
#include "core/edit/scheduleeditor.h"

#include "core/costmodel/cost.h"
#include "core/costmodel/sharedlinks.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

namespace sl {

namespace {

/// Throws when a device runs two ops at once in `s` (the chains could not keep its times).
void checkOneOpAtATime(const Problem& p, const Schedule& s) {
    const DeviceChains chains = deviceChains(s, p.platform.deviceCount());
    for (std::size_t d = 0; d < chains.size(); ++d)
        for (std::size_t i = 1; i < chains[d].size(); ++i) {
            const ScheduledOp& a = s.ops[static_cast<std::size_t>(chains[d][i - 1])];
            const ScheduledOp& b = s.ops[static_cast<std::size_t>(chains[d][i])];
            if (b.start < a.end && b.end > b.start && a.end > a.start)
                throw std::invalid_argument("hand edits keep one op at a time per device; this schedule runs '" +
                                            p.g().op(chains[d][i - 1]).name + "' and '" + p.g().op(chains[d][i]).name +
                                            "' at once on " + p.platform.devices[d].name);
        }
}

std::string formatNumber(double x) {
    char text[32];
    std::snprintf(text, sizeof text, "%.6g", x);
    return text;
}

std::string deviceName(const Platform& platform, int d) {
    const std::string& name = platform.devices[static_cast<std::size_t>(d)].name;
    return name.empty() ? "device " + std::to_string(d) : name;
}

} // namespace

ScheduleEditor::ScheduleEditor(std::shared_ptr<const Problem> problem, Schedule start)
    : m_problem(std::move(problem)), m_start(std::move(start)) {
    if (!m_problem) throw std::invalid_argument("ScheduleEditor: no problem");
    checkOneOpAtATime(*m_problem, m_start);
    m_startCost = scoreSchedule(*m_problem, m_start);
    m_startChains = deviceChains(m_start, m_problem->platform.deviceCount());
    m_chains = m_startChains;
    m_current = m_start;
    m_cost = m_startCost;
    m_currentKeepsPins = keepsPins(m_current);
}

bool ScheduleEditor::keepsPins(const Schedule& s) const { return pinViolation(m_problem->g(), m_problem->pins, s).empty(); }

void ScheduleEditor::setPins(const Pins& pins) {
    if (pins == m_problem->pins) return;
    auto copy = std::make_shared<Problem>(*m_problem);
    copy->pins = pins;
    m_problem = std::move(copy);
    m_currentKeepsPins = keepsPins(m_current);
}

OpPlace ScheduleEditor::placeOf(OpId v) const {
    const int d = m_current.ops[static_cast<std::size_t>(v)].device;
    const auto& chain = m_chains[static_cast<std::size_t>(d)];
    return {d, static_cast<int>(std::find(chain.begin(), chain.end(), v) - chain.begin())};
}

OpPlace ScheduleEditor::onItsDevice(OpId v, OpPlace to) const {
    // on its own device the op leaves its place first: one place fewer to go to
    if (to.device == placeOf(v).device)
        to.position = std::clamp(to.position, 0, static_cast<int>(m_chains[static_cast<std::size_t>(to.device)].size()) - 1);
    return to;
}

DeviceChains ScheduleEditor::movedChains(OpId v, OpPlace to) const {
    DeviceChains chains = m_chains;
    auto& from = chains[static_cast<std::size_t>(placeOf(v).device)];
    from.erase(std::find(from.begin(), from.end(), v));
    auto& into = chains[static_cast<std::size_t>(to.device)];
    const int at = std::clamp(to.position, 0, static_cast<int>(into.size()));
    into.insert(into.begin() + at, v);
    return chains;
}

std::string ScheduleEditor::placeRefusal(OpId v, int device) const {
    const Platform& platform = m_problem->platform;
    if (device < 0 || device >= platform.deviceCount()) return "there is no device " + std::to_string(device);
    const Op& op = m_problem->g().op(v);
    const Device& d = platform.devices[static_cast<std::size_t>(device)];
    if (d.machineType != op.machineType)
        return "'" + op.name + "' runs on machine type " + std::to_string(op.machineType) + "; " + deviceName(platform, device) +
               " is of type " + std::to_string(d.machineType);
    if (const Pin pin = m_problem->pins.of(v); pin.device >= 0 && pin.device != device)
        return "'" + op.name + "' is pinned to " + deviceName(platform, pin.device);
    if (op.resourceDemand > d.resourceCapacity)
        return "'" + op.name + "' needs " + formatNumber(op.resourceDemand) + " of " + deviceName(platform, device) + "'s " +
               formatNumber(d.resourceCapacity) + " resource units";
    return {};
}

std::string ScheduleEditor::capacityRefusal(const Schedule& after) const {
    const Platform& platform = m_problem->platform;
    const std::vector<double>& before = m_current.memory().devices;
    const std::vector<double>& peaks = after.memory().devices;
    for (int d = 0; d < platform.deviceCount() && static_cast<std::size_t>(d) < peaks.size(); ++d) {
        const double cap = platform.devices[static_cast<std::size_t>(d)].memoryCapacity;
        const double was = static_cast<std::size_t>(d) < before.size() ? before[static_cast<std::size_t>(d)] : 0;
        if (peaks[static_cast<std::size_t>(d)] > cap && was <= cap)
            return deviceName(platform, d) + " would hold " + formatNumber(peaks[static_cast<std::size_t>(d)]) +
                   " bytes at its peak, over its capacity of " + formatNumber(cap);
    }
    return {};
}

EditOutcome ScheduleEditor::outcomeOf(const DeviceChains& chains) const {
    EditOutcome o;
    try {
        o.schedule = timeChainsOnPlatform(*m_problem, chains);   // booked links when shared
    } catch (const std::invalid_argument& e) {
        o.refusal = e.what();   // a cycle through device order and data edges, naming an op
        return o;
    }
    o.schedule.method = m_start.method;
    o.schedule.seed = m_start.seed;
    o.cost = scoreSchedule(*m_problem, o.schedule);
    return o;
}

EditOutcome ScheduleEditor::preview(OpId v, OpPlace to) const {
    if (v < 0 || v >= m_problem->g().opCount()) return {.refusal = "there is no op " + std::to_string(v)};
    if (std::string why = placeRefusal(v, to.device); !why.empty()) return {.refusal = why};
    to = onItsDevice(v, to);
    if (to == placeOf(v)) return {.schedule = m_current, .cost = m_cost};
    EditOutcome o = outcomeOf(movedChains(v, to));
    if (o.allowed()) o.refusal = capacityRefusal(o.schedule);
    if (o.allowed() && m_currentKeepsPins)   // refuse what newly breaks a pin
        o.refusal = pinViolation(m_problem->g(), m_problem->pins, o.schedule);
    return o;
}

EditOutcome ScheduleEditor::move(OpId v, OpPlace to) {
    EditOutcome o = preview(v, to);
    if (!o.allowed()) return o;
    const OpPlace from = placeOf(v);
    to = onItsDevice(v, to);
    if (to == from) return o;
    m_history.resize(m_done);   // a new edit drops the undone ones
    m_history.push_back({v, from, to});
    ++m_done;
    adopt(movedChains(v, to), o);
    return o;
}

void ScheduleEditor::adopt(DeviceChains chains, EditOutcome outcome) {
    m_chains = std::move(chains);
    m_current = std::move(outcome.schedule);
    m_cost = outcome.cost;
    m_currentKeepsPins = keepsPins(m_current);
}

void ScheduleEditor::replay(OpId v, OpPlace to) {
    DeviceChains chains = movedChains(v, to);
    EditOutcome o = outcomeOf(chains);
    if (!o.allowed()) throw std::logic_error("ScheduleEditor: an edit of the history no longer applies: " + o.refusal);
    adopt(std::move(chains), std::move(o));
}

void ScheduleEditor::undo() {
    if (!canUndo()) return;
    const Edit& e = m_history[--m_done];
    if (m_done == 0) {   // the start itself, with its own times (a method's may differ from the chains' retiming)
        m_chains = m_startChains;
        m_current = m_start;
        m_cost = m_startCost;
        m_currentKeepsPins = keepsPins(m_current);
        return;
    }
    replay(e.op, e.from);
}

void ScheduleEditor::redo() {
    if (!canRedo()) return;
    const Edit& e = m_history[m_done++];
    replay(e.op, e.to);
}

std::optional<OpPlace> ScheduleEditor::earlier(OpId v) const {
    const OpPlace p = placeOf(v);
    if (p.position == 0) return std::nullopt;
    return OpPlace{p.device, p.position - 1};
}

std::optional<OpPlace> ScheduleEditor::later(OpId v) const {
    const OpPlace p = placeOf(v);
    if (p.position + 1 >= static_cast<int>(m_chains[static_cast<std::size_t>(p.device)].size())) return std::nullopt;
    return OpPlace{p.device, p.position + 1};
}

std::optional<OpPlace> ScheduleEditor::onDevice(OpId v, int step) const {
    const int devices = m_problem->platform.deviceCount();
    const double start = m_current.ops[static_cast<std::size_t>(v)].start;
    for (int d = placeOf(v).device + step; d >= 0 && d < devices; d += step) {
        if (!placeRefusal(v, d).empty()) continue;   // the nearest device of v's machine type
        const auto& chain = m_chains[static_cast<std::size_t>(d)];
        const auto at = std::count_if(chain.begin(), chain.end(), [&](OpId u) { return m_current.ops[static_cast<std::size_t>(u)].start < start; });
        return OpPlace{d, static_cast<int>(at)};
    }
    return std::nullopt;
}

} // namespace sl
