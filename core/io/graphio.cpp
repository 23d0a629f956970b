// SPDX-License-Identifier: MIT
// Format names and detection, and the loadGraph / parseGraph dispatch. The readers themselves live
// in one file per format (jobshopformat.cpp, stgformat.cpp, jsongraph.cpp, ...).
#include "core/io/graphio.h"

#include "core/io/importers.h"
#include "core/io/ioutil.h"
#include "core/util/atomicfile.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace sl {

using namespace io_detail;

namespace {

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

bool startsWithWord(std::string_view text, std::string_view word) {
    if (text.size() < word.size()) return false;
    for (std::size_t i = 0; i < word.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(text[i])) != word[i]) return false;
    return text.size() == word.size() || !std::isalnum(static_cast<unsigned char>(text[word.size()]));
}

/// Native graph JSON, WfCommons or a Chakra trace, from the first bytes of a JSON document.
GraphFormat sniffJsonHead(std::string_view head) {
    if (head.find("\"schedlab-graph\"") != std::string_view::npos) return GraphFormat::Json;
    if (head.find("\"workflow\"") != std::string_view::npos || head.find("\"schemaVersion\"") != std::string_view::npos)
        return GraphFormat::WfCommons;
    if (looksLikeChakraJson(head)) return GraphFormat::Chakra;
    return GraphFormat::Json;
}

/// The format of a file's content, or Auto when it cannot be told.
GraphFormat sniffContent(std::string_view head) {
    if (head.find('\0') != std::string_view::npos) return GraphFormat::Onnx;   // binary protobuf
    std::size_t i = 0;
    if (head.substr(0, 3) == "\xEF\xBB\xBF") i = 3;
    while (i < head.size() && std::isspace(static_cast<unsigned char>(head[i]))) ++i;
    const std::string_view rest = head.substr(i);
    if (rest.empty()) return GraphFormat::Auto;
    if (rest.front() == '{' || rest.front() == '[') return sniffJsonHead(rest);
    if (startsWithWord(rest, "digraph") || startsWithWord(rest, "graph") || startsWithWord(rest, "strict"))
        return GraphFormat::Dot;
    if (rest.substr(0, 9) == "HloModule") return GraphFormat::Hlo;
    // Numbers: "jobs machines" on line 1 is job-shop, a lone task count is STG.
    const std::string_view firstLine = rest.substr(0, rest.find('\n'));
    TokenReader tokens(firstLine);
    int count = 0;
    while (auto t = tokens.next()) {
        if (!parseInteger(*t)) return GraphFormat::Auto;
        ++count;
    }
    if (count == 2) return GraphFormat::JobShop;
    if (count == 1) return GraphFormat::Stg;
    return GraphFormat::Auto;
}

std::string readHead(const std::string& path, std::size_t n) {
    std::ifstream in(path, std::ios::binary);
    std::string head(n, '\0');
    in.read(head.data(), static_cast<std::streamsize>(n));
    head.resize(static_cast<std::size_t>(std::max<std::streamsize>(in.gcount(), 0)));
    return head;
}

} // namespace

GraphFormat graphFormatFromString(const std::string& s) {
    const std::string k = lower(s);
    if (k == "auto" || k.empty()) return GraphFormat::Auto;
    if (k == "json") return GraphFormat::Json;
    if (k == "dot" || k == "gv") return GraphFormat::Dot;
    if (k == "stg") return GraphFormat::Stg;
    if (k == "jobshop" || k == "job-shop" || k == "jss") return GraphFormat::JobShop;
    if (k == "wfcommons") return GraphFormat::WfCommons;
    if (k == "onnx") return GraphFormat::Onnx;
    if (k == "hlo") return GraphFormat::Hlo;
    if (k == "chakra") return GraphFormat::Chakra;
    throw std::invalid_argument("unknown graph format '" + s + "' (json, dot, stg, jobshop, wfcommons, onnx, hlo, chakra)");
}

GraphFormat graphFormatFromPath(const std::string& path) {
    const std::string ext = lower(std::filesystem::path(path).extension().string());
    if (ext == ".dot" || ext == ".gv") return GraphFormat::Dot;
    if (ext == ".stg") return GraphFormat::Stg;
    if (ext == ".onnx") return GraphFormat::Onnx;
    if (ext == ".hlo") return GraphFormat::Hlo;
    if (ext == ".et" || (ext == ".gz" && lower(path).ends_with(".et.gz"))) return GraphFormat::Chakra;   // binary: not sniffed
    if (ext == ".jss") return GraphFormat::JobShop;
    if (ext == ".txt")   // job-shop instances, and HLO text dumps (*.hlo.txt) from XLA's dump flags
        return std::filesystem::exists(path) && sniffContent(readHead(path, 4096)) == GraphFormat::Hlo ? GraphFormat::Hlo
                                                                                                        : GraphFormat::JobShop;
    if (ext == ".json") return sniffJsonHead(readHead(path, 4096));
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) throw IoError(path + ": is a folder, not a file");
    if (!std::filesystem::exists(path, ec)) throw IoError(path + ": cannot open: no such file");
    const GraphFormat sniffed = sniffContent(readHead(path, 4096));
    if (sniffed == GraphFormat::Auto)
        throw IoError(path + ": cannot tell the graph format from the name or the content; give it explicitly "
                             "(json, dot, stg, jobshop, wfcommons, onnx, hlo, chakra)");
    return sniffed;
}

LoadedGraph parseGraph(std::string_view text, GraphFormat format, const std::string& sourceName) {
    if (format == GraphFormat::Auto) {
        format = sniffContent(text.substr(0, 4096));
        if (format == GraphFormat::Auto)
            fail(sourceName, "cannot tell the graph format from the content; give it explicitly");
    }
    LoadedGraph out;
    switch (format) {
    case GraphFormat::JobShop: out = readJobShop(text, sourceName); break;
    case GraphFormat::Stg: out = readStg(text, sourceName); break;
    case GraphFormat::Dot: out = readDot(text, sourceName); break;
    case GraphFormat::Onnx: out = readOnnx(text, sourceName); break;
    case GraphFormat::Hlo: out = readHlo(text, sourceName); break;
    case GraphFormat::Chakra: out = readChakra(text, sourceName); break;
    case GraphFormat::Json:
    case GraphFormat::WfCommons: {
        const nlohmann::json doc = parseJson(text, sourceName);
        // A .json file is either kind: trust the content over the caller's guess.
        if (looksLikeWfCommons(doc)) {
            out = readWfCommons(doc, sourceName);
            format = GraphFormat::WfCommons;
        } else {
            if (format == GraphFormat::WfCommons)
                fail(sourceName, "not a WfCommons instance (no \"workflow\" object with tasks)");
            out = readNativeJson(doc, sourceName);
        }
        break;
    }
    case GraphFormat::Auto: break;
    }
    if (!out.graph || !out.graph->finalized()) fail(sourceName, "internal error: the reader returned no finalized graph");
    requireUtf8Names(out, sourceName);   // DOT, HLO and ONNX pass name bytes through; the writers need UTF-8
    out.format = format;
    out.sourcePath = sourceName;
    return out;
}

LoadedGraph loadGraph(const std::string& path, GraphFormat format) {
    if (format == GraphFormat::Auto) format = graphFormatFromPath(path);
    // ONNX files carry their weights at most 2 GiB (protobuf's limit); text formats and Chakra traces
    // (also once decompressed) are capped at 1 GiB.
    const std::string data = readFile(path, format == GraphFormat::Onnx ? (std::size_t(2) << 30) - 1 : static_cast<std::size_t>(limits().textBytes));
    return parseGraph(data, format, path);
}

} // namespace sl
