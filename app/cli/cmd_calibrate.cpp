// SPDX-License-Identifier: MIT
// `schedlab-cli calibrate`: this machine measured with LibTorch (GEMM, element-wise and copy rates
// over sizes, the launch overhead) and written as a device entry of the catalogue
// (core/timing/devicespec.h), which `devices` lists and --device this-machine uses. The measuring
// lives in the neural module (models/timing/calibration.h); this command dispatches and writes.
#include "command.h"
#include "interrupt.h"
#include "neural.h"
#include "profiledmodels.h"

#include "core/timing/catalog.h"
#include "core/timing/devicespec.h"
#include "models/timing/tools.h"

#include <cstdio>
#include <iostream>

namespace sl::cli {
namespace {

/// `-o FILE` (Args takes it for two positionals) or --out FILE; calibrate has no other positional.
std::optional<std::string> calibrateOut(Args& args) {
    std::optional<std::string> out = args.take("out");
    const std::size_t n = args.positionalCount();
    if (n == 0) return out;
    if (n == 2 && args.positional(0, "") == "-o") return args.positional(1, "");
    throw UsageError(n == 1 && args.positional(0, "") == "-o" ? "-o expects a file name"
                                                               : "unexpected argument '" + args.positional(0, "") + "'");
}

std::string calibrateDefaultOut(const std::string& id) {
    if (DeviceCatalog::userDirectory().empty())
        throw UsageError("neither XDG_DATA_HOME nor HOME is set: give the entry's file with -o FILE");
    return DeviceCatalog::userEntryPath(id);
}

void printTerm(const std::string& key, const FitTerm& t) {
    std::printf("  %-22s %6d ops   launch %9.3f us   scale %9.4f   exponent %.2f\n", key.c_str(), t.samples, t.launchUs,
                t.scale, t.exponent);
}

/// `calibrate --from MODEL=PROFILE,...`: the base entry's roofline fitted to measured profiles.
int runFromProfiles(Args& args, const std::string& from, const std::optional<std::string>& out) {
    const std::string baseId = args.take("device", "this-machine");
    const std::string id = args.take("id", "fitted-" + baseId);
    args.finish(args.positionalCount());
    const std::vector<ProfiledModel> models = readProfiledModels(from, "from");
    const DeviceCatalog& catalog = DeviceCatalog::instance();
    if (!catalog.findDevice(baseId))
        throw UsageError(
            "--device " + baseId + ": no such catalogue entry" +
            (baseId == "this-machine" ? " (run 'schedlab-cli calibrate' first, or name another with --device)" : ""));
    const DeviceSpec learned = learnedDevice(catalog.device(baseId), models, id);
    std::printf("%s\n%s\n\nfitted: measured = launch + scale x (roofline body)^exponent, per op type, else class\n",
                learned.name.c_str(), learned.source.c_str());
    for (const auto& [type, term] : learned.fit.byType) printTerm("type " + type, term);
    for (const auto& [c, term] : learned.fit.byClass) printTerm("class " + std::string(toString(c)), term);
    const std::string outPath = out.value_or(calibrateDefaultOut(id));
    saveDeviceSpec(learned, outPath);
    std::printf("\nwrote %s (--device %s)\n", outPath.c_str(), id.c_str());
    return 0;
}

void printCalibration(const models::CalibrationRun& run) {
    std::printf("%-10s %-18s %14s %12s %-8s %10s\n", "probe", "size", "median us", "rate", "", "efficiency");
    for (const models::CalibrationRow& row : run.rows) {
        char eff[16] = "-";
        if (row.efficiency > 0) std::snprintf(eff, sizeof eff, "%.3f", row.efficiency);
        if (row.unit.empty())
            std::printf("%-10s %-18s %14.3f %12s %-8s %10s\n", row.probe.c_str(), row.size.c_str(), row.medianUs, "", "", eff);
        else
            std::printf("%-10s %-18s %14.3f %12.4g %-8s %10s\n", row.probe.c_str(), row.size.c_str(), row.medianUs, row.rate, row.unit.c_str(), eff);
    }
    const DeviceSpec& d = run.spec;
    std::printf("\n%s\n", d.name.c_str());
    for (const ComputePeak& p : d.peaks)
        std::printf("  %s %s peak   %.4g GFLOP/s\n", p.unit == ComputeUnit::Matrix ? "matrix" : "vector", std::string(toString(p.dtype)).c_str(),
                    p.flopsPerSecond / 1e9);
    std::printf("  memory bandwidth    %.4g GB/s\n  launch overhead     %.3g us\n", d.memoryBandwidth / 1e9, d.launchOverheadUs);
    for (const std::string& note : run.notes) std::printf("note: %s\n", note.c_str());
    std::printf("(efficiency: what the entry's curve keeps for that size, the time less the launch overhead against\n"
                " the peak; '-': shown, not fitted)\n");
}

int runCalibrate(Args& args) {
    const std::optional<std::string> out = calibrateOut(args);
    if (const std::optional<std::string> from = args.take("from")) return runFromProfiles(args, *from, out);
    models::CalibrateRequest request;
    request.quick = args.takeFlag("quick");
    request.threads = args.takeThreads(1);
    args.finish(args.positionalCount());
    const std::string outPath = out.value_or(calibrateDefaultOut("this-machine"));

    loadNeuralMethods();
    const models::TimingTools tools = models::timingTools();
    if (!tools.calibrate)
        throw std::runtime_error("calibrate measures with LibTorch, from the neural module, which is not loaded" + neuralUnavailableNote());
    const InterruptStop interrupt({SIGINT, SIGTERM});
    request.stop = interrupt.token();
    request.progress = [](const std::string& line) { std::cerr << line << "\n"; };
    const models::CalibrationRun run = tools.calibrate(request);
    if (run.stopped) {
        std::cerr << "calibrate: interrupted; nothing written\n";
        return 130;
    }
    printCalibration(run);
    saveDeviceSpec(run.spec, outPath);
    std::printf("\nmeasured in %.1f s\nwrote %s\n", run.measuredSeconds, outPath.c_str());
    return 0;
}

const char* const kCalibrateHelp =
    "Usage: schedlab-cli calibrate [-o OUT.json] [--quick] [--threads T]\n"
    "       schedlab-cli calibrate --from MODEL=PROFILE[,MODEL=PROFILE...] [--device BASE] [--id ID] [-o OUT.json]\n"
    "Measures this machine with LibTorch and writes it as a device of the catalogue, id\n"
    "\"this-machine\" (docs/time.md): fp32 GEMM (at::mm, square 32..2048 and skinny shapes; bf16 too\n"
    "when ATen runs it at least half as fast), element-wise add and copy over 4 KB .. 256 MB, and\n"
    "the launch overhead of a tiny op. The GEMM rate becomes the matrix fp32 peak (Matmul, Conv),\n"
    "the add rate the vector fp32 peak, the fastest copy the memory bandwidth; the rates over sizes\n"
    "become the efficiency curves. Prints every measurement. About 10 s; Ctrl-C stops it without\n"
    "writing anything (exit code 130). Needs the neural module (LibTorch).\n\n"
    "Options:\n"
    "  -o, --out FILE   the entry (default: $XDG_DATA_HOME/schedlab/devices/this-machine.json, else\n"
    "                   ~/.local/share/schedlab/devices/this-machine.json, where the catalogue reads it)\n"
    "  --quick          fewer and smaller sizes, shorter runs: about 1 s, a rougher entry\n"
    "  --threads T      LibTorch's and OpenBLAS's threads (default 1)\n\n"
    "A machine learned from your own profiles (--from; no LibTorch needed): each MODEL (ONNX) with\n"
    "its measured PROFILE (ONNX Runtime's profiling JSON or `schedlab-cli profile` output), all of\n"
    "one runtime on one machine. Per op type (else class) the measured time is fitted as launch +\n"
    "scale x body^exponent, body the BASE entry's roofline (default this-machine), and written as a new\n"
    "entry, id ID (default fitted-BASE), that --device ID uses and `devices --sources` traces back\n"
    "to its profiles (docs/time.md, \"A machine learned from profiles\").\n"
    "  --from PAIRS     MODEL=PROFILE pairs, comma-separated\n"
    "  --device BASE    the catalogue entry whose roofline is fitted (default this-machine)\n"
    "  --id ID          the new entry's id (default fitted-BASE); written to the catalogue's user folder\n";

SL_CLI_COMMAND({"calibrate", "measure this machine with LibTorch as a device of the catalogue (this-machine)", kCalibrateHelp,
                {"quick"}, &runCalibrate});

} // namespace
} // namespace sl::cli
