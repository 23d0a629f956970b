// SPDX-License-Identifier: MIT
// `schedlab-cli convert IN OUT`: any readable graph format to native JSON or DOT.
#include "command.h"
#include "problemargs.h"

#include "core/io/graphio.h"
#include "core/util/atomicfile.h"

#include <algorithm>
#include <cctype>
#include <iostream>
#include <optional>
#include <stdexcept>

namespace sl::cli {
namespace {

std::string lowerExtension(const std::string& path) {
    const auto slash = path.find_last_of('/');
    const auto dot = path.find_last_of('.');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return {};
    std::string ext = path.substr(dot + 1);
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return ext;
}

int runConvert(Args& args) {
    const std::string in = args.positional(0, "input graph file");
    const std::string out = args.positional(1, "output file");
    const GraphFormat format = takeGraphFormat(args);
    const std::optional<UpdateRule> training = takeTraining(args);
    std::string to = args.take("to", "");
    const auto platformPath = args.take("platform");
    args.finish(2);
    if (to.empty()) {
        const std::string ext = lowerExtension(out);
        if (ext == "json") to = "json";
        else if (ext == "dot" || ext == "gv") to = "dot";
        else throw UsageError("cannot tell the output format from '" + out + "': use .json or .dot/.gv, or --to json|dot");
    }
    if (to != "json" && to != "dot") throw UsageError("--to expects json or dot, got '" + to + "'");

    LoadedGraph lg = loadGraph(in, format);
    applyTraining(lg, training);
    std::optional<Platform> platform = lg.platform;
    if (platformPath) {
        platform = loadPlatform(*platformPath);
        try {
            platform->checkCompatible(*lg.graph);
        } catch (const GraphError& e) {
            throw IoError(*platformPath + ": does not fit " + in + ": " + e.what());
        }
    }
    if (to == "json") {
        saveGraphJson(*lg.graph, platform ? &*platform : nullptr, out);
    } else {
        writeFileAtomically(out, graphToDot(*lg.graph));
    }
    const Graph& g = *lg.graph;
    std::cout << in << (training ? " (training step, " + std::string(updateRuleName(*training)) + ")" : std::string())
              << ": " << g.opCount() << " ops, " << g.tensorCount() << " tensors, " << g.edgeCount() << " edges";
    if (platform) std::cout << ", " << platform->deviceCount() << " devices";
    std::cout << " -> " << out << " (" << (to == "json" ? "native JSON" : "DOT") << ")\n";
    for (const std::string& w : lg.warnings) std::cout << "warning: " << w << "\n";
    if (to == "dot" && platform) std::cout << "note: DOT keeps the graph only; the platform is not written\n";
    return 0;
}

SL_CLI_COMMAND({"convert", "convert a graph file (any readable format) to native JSON or DOT",
                std::string("Usage: schedlab-cli convert IN OUT [--format F] [--training sgd|adam] [--to json|dot] [--platform P.json]\n"
                "Reads IN in any format SchedLab reads and writes OUT as native graph JSON or DOT\n"
                "(docs/formats.md), or IN's training step with --training. The output is written whole\n"
                "or not at all.\n\n"
                "Options:\n"
                "  --format F            input format: json, dot, stg, jobshop, wfcommons, onnx, hlo\n"
                "                        (default: from the extension of IN)\n") +
                    trainingOptionHelp() +
                    "  --to json|dot         output format (default: from the extension of OUT: .json, .dot, .gv)\n"
                    "  --platform P.json     write this platform into the JSON output (default: the one IN\n"
                    "                        carries, e.g. job-shop machines)\n",
                {}, &runConvert});

} // namespace
} // namespace sl::cli
