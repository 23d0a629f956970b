// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// A stable fingerprint of a graph's content, so that a schedule file can say which graph it was
/// made for and a reader can tell "another graph" from "the same graph, opened again".
///
/// The fingerprint is FNV-1a/64 over a canonical serialisation, in op-id order, of every op (name,
/// type, duration, parameter bytes, resource demand, machine type, per-device durations) and
/// every tensor (name, producer, consumers, bytes). Numbers enter as their IEEE-754 bits (-0 as
/// 0), so a JSON round trip, which keeps doubles exact, keeps the fingerprint. The time unit and
/// the layout are not part of it. O(ops + tensors + consumers); thread-safe on a finalized graph.
///
/// The model fingerprint (modelFingerprint) hashes only what the model is, not how long its ops
/// take: op names and types in op-id order and every tensor (name, producer, consumers, bytes).
/// Durations, per-device durations, the time source, parameter bytes, resource demands and
/// machine types are left out, so re-deriving durations for another device (core/timing) or
/// applying a profile keeps it: a profile (core/profile/profile.h) records it to recognise the
/// model it was measured on. Its text form has its own prefix, "model-fnv1a64:", so that it is
/// never mistaken for a graph fingerprint.
///
/// \code
///   const std::uint64_t fp = sl::graphFingerprint(graph);
///   std::string text = sl::fingerprintText(fp);   // "fnv1a64:0123456789abcdef"
///   std::string model = sl::modelFingerprintText(sl::modelFingerprint(graph));   // "model-fnv1a64:..."
/// \endcode

#include "core/graph/graph.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace sl {

std::uint64_t graphFingerprint(const Graph& g);
/// "fnv1a64:" + 16 lower-case hex digits: the schedule JSON's "graph.fingerprint".
std::string fingerprintText(std::uint64_t fingerprint);
/// Inverse of fingerprintText; nullopt for any other text.
std::optional<std::uint64_t> parseFingerprint(std::string_view text);

/// Op names and types and the tensors only (see above): unchanged by new durations.
std::uint64_t modelFingerprint(const Graph& g);
/// "model-fnv1a64:" + 16 lower-case hex digits: a profile's "fingerprint".
std::string modelFingerprintText(std::uint64_t fingerprint);
/// Inverse of modelFingerprintText; nullopt for any other text (a graph fingerprint included).
std::optional<std::uint64_t> parseModelFingerprint(std::string_view text);

} // namespace sl
