// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The per-format readers behind sl::loadGraph / sl::parseGraph (private to core/io). Each
/// returns a LoadedGraph with a finalized graph or throws IoError starting with `source`.

#include "core/io/graphio.h"

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace sl::io_detail {

LoadedGraph readJobShop(std::string_view text, const std::string& source);
LoadedGraph readStg(std::string_view text, const std::string& source);
LoadedGraph readNativeJson(const nlohmann::json& doc, const std::string& source);
LoadedGraph readWfCommons(const nlohmann::json& doc, const std::string& source);
LoadedGraph readDot(std::string_view text, const std::string& source);
/// `bytes` is the serialized ModelProto.
LoadedGraph readOnnx(std::string_view bytes, const std::string& source);
LoadedGraph readHlo(std::string_view text, const std::string& source);
/// A Chakra execution trace: the protobuf `.et` stream or its JSON forms, either gzipped or not.
LoadedGraph readChakra(std::string_view bytes, const std::string& source);

/// Platform from an already parsed JSON object; `where` prefixes messages (e.g. "file: platform").
Platform platformFromJson(const nlohmann::json& j, const std::string& where);
nlohmann::ordered_json platformJsonValue(const Platform& p);

/// True when a parsed JSON document looks like a WfCommons instance rather than native graph JSON.
bool looksLikeWfCommons(const nlohmann::json& doc);
/// True when the first bytes of a JSON file hold keys or node types only Chakra traces use.
bool looksLikeChakraJson(std::string_view head);

} // namespace sl::io_detail
