// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Reading and writing graphs and platforms. Formats: docs/formats.md.
///
/// Every loader returns a finalized graph or throws IoError whose message starts with the file
/// name (and the line or node at fault when known): never a crash, a hang or a partial graph.

#include "core/graph/graph.h"
#include "core/platform/platform.h"

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sl {

enum class GraphFormat { Auto, Json, Dot, Stg, JobShop, WfCommons, Onnx, Hlo, Chakra };

/// "json", "dot", "stg", "jobshop", "wfcommons", "onnx", "hlo", "chakra"; throws std::invalid_argument.
GraphFormat graphFormatFromString(const std::string& s);
/// By extension: .json (native, WfCommons or Chakra, sniffed), .dot/.gv, .stg, .onnx, .hlo, .txt/.jss
/// (job-shop), .et/.et.gz (Chakra).
GraphFormat graphFormatFromPath(const std::string& path);

struct LoadedGraph {
    std::shared_ptr<Graph> graph;          ///< finalized
    std::optional<Platform> platform;      ///< when the file defines the machine (job-shop, native JSON)
    std::string sourcePath;
    GraphFormat format = GraphFormat::Auto;
    std::vector<std::string> warnings;     ///< non-fatal remarks (e.g. "3 ops had no duration; 0 used")
};

/// Loads a graph file. Throws IoError.
LoadedGraph loadGraph(const std::string& path, GraphFormat format = GraphFormat::Auto);
/// Parses text of a text format (not ONNX; Chakra in any of its forms); `sourceName` is used in error messages.
LoadedGraph parseGraph(std::string_view text, GraphFormat format, const std::string& sourceName);

/// Native graph JSON (docs/formats.md), with the platform when given. Written atomically.
void saveGraphJson(const Graph& g, const Platform* platform, const std::string& path);
std::string graphToJson(const Graph& g, const Platform* platform);
/// The graph as DOT that loadGraph reads back to the same graph (ops with their attributes, one
/// edge per tensor consumer with `tensor` and `bytes`). Tensors without consumers are not written.
std::string graphToDot(const Graph& g);

/// Platform JSON: {"devices": [{"name", "machine_type", "memory_bytes", "resource_capacity"}],
/// "interconnect": {"latency", "bandwidth"}}. Throws IoError.
Platform loadPlatform(const std::string& path);
Platform parsePlatform(std::string_view json, const std::string& sourceName);
std::string platformToJson(const Platform& p);

} // namespace sl
