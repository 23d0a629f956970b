// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The ready actions of a GFlowNet state and their features, kept up to date as ops are placed:
/// the state of the encode-once policy (docs/gflownet.md, "Two architectures"). Torch-free.
///
/// A forward action (op, device) is valid when the op is ready (every predecessor placed) and may
/// run on the device. Its features (kActionFeatures, times divided by the ideal makespan
/// work / m) are:
///   0 delay:  its start minus the op's earliest start over the devices;
///   1 idle:   its start minus the device's free time (the gap it would leave);
///   2 empty:  1 if the device has no op yet;
///   3 ahead:  the op's bottom level (its duration plus the longest path after it);
///   4 bound:  start plus bottom level (a lower bound on the makespan through this action).
/// An action's features depend only on its op's input arrivals (fixed once the op is ready), its
/// device's free time and the op's earliest start, so placing an op on device d changes the
/// actions on d, and all of an op's actions only when its earliest start moved. place() redoes
/// just those; every other action keeps its features and its logit.
///
/// \code
///   ReadyActions table(env, scorer);       // the empty state's actions, scored
///   while (!table.complete()) {
///       const int a = table.draw(rng.uniform());     // an action index, by its probability
///       table.place(a);                              // the state and the changed actions
///   }
/// \endcode

#include "core/gflownet/environment.h"

#include <array>
#include <cstdint>
#include <functional>
#include <vector>

namespace sl::gfn {

inline constexpr int kActionFeatures = 5;
using ActionFeatures = std::array<float, kActionFeatures>;

/// Per graph: the mean duration over allowed devices (rho) and the bottom level of each op, and
/// the time scale work / m.
struct GraphTimes {
    std::vector<double> bottomLevel;
    double timeScale = 1;
    explicit GraphTimes(const ScheduleEnv& env);
};

/// Scores an action: its logit from the op and the features. Must be a pure function.
using ActionScorer = std::function<float(OpId op, const ActionFeatures& features)>;

class ReadyActions {
public:
    /// `env` and `times` must outlive the table.
    ReadyActions(const ScheduleEnv& env, const GraphTimes& times, ActionScorer scorer);

    const PartialSchedule& state() const { return m_state; }
    bool complete() const { return m_state.complete(); }
    /// Action slots: ready ops times devices (a slot is valid when the op may run on the device).
    int slots() const { return static_cast<int>(m_ready.size()) * m_devices; }
    bool valid(int slot) const { return m_valid[static_cast<size_t>(slot)] != 0; }
    OpId op(int slot) const { return m_ready[static_cast<size_t>(slot / m_devices)]; }
    int device(int slot) const { return slot % m_devices; }
    const ActionFeatures& features(int slot) const { return m_features[static_cast<size_t>(slot)]; }
    float logit(int slot) const { return m_logit[static_cast<size_t>(slot)]; }
    /// log P_F(slot | state): the logit minus the log-sum-exp over the valid slots.
    double logProbability(int slot) const;
    /// The slot whose cumulative probability first passes u in [0, 1).
    int draw(double u) const;
    /// Places the slot's op on its device and updates the actions.
    void place(int slot);
    /// Removable ops of the current state (for a uniform backward policy): chain tails with no
    /// placed successor.
    int removableCount() const;

private:
    void addReady(OpId v);
    void removeReady(OpId v);
    void refresh(int row);                 ///< every slot of a ready op
    void refreshSlot(int row, int device);
    double startOn(int row, int device) const;

    const ScheduleEnv& m_env;
    const GraphTimes& m_times;
    ActionScorer m_score;
    PartialSchedule m_state;
    int m_devices;
    std::vector<OpId> m_ready;               ///< ready ops, in rows
    std::vector<int> m_row;                  ///< op -> row, -1 when not ready
    std::vector<double> m_arrival;           ///< [row * m + d]: when the op's inputs are all on d
    std::vector<double> m_earliest;          ///< [row]: earliest start over the allowed devices
    std::vector<std::uint8_t> m_valid;       ///< [slot]
    std::vector<ActionFeatures> m_features;  ///< [slot]
    std::vector<float> m_logit;              ///< [slot]
    std::vector<int> m_missing;              ///< unplaced predecessors per op
    mutable std::vector<double> m_weights;   ///< draw()'s scratch: exp(logit - max) per slot
};

/// The features of every valid action of `state`, computed from scratch (the tests' reference):
/// (op, device, features) in op order, then device order.
struct ScratchAction {
    OpId op;
    int device;
    ActionFeatures features;
};
std::vector<ScratchAction> scratchActions(const PartialSchedule& state, const GraphTimes& times);

} // namespace sl::gfn
