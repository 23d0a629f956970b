// SPDX-License-Identifier: MIT
// `schedlab-cli calibrate`'s measurement (calibration.h).
//
// Why GEMM is the matrix peak on a CPU that has no matrix unit: DeviceSpec::peakFor gives Matmul
// and Conv the matrix peak of their dtype and every other op the vector one, so recording the
// GEMM rate as "matrix fp32" and the element-wise rate as "vector fp32" makes the roofline use
// each where it belongs (as resources/devices/epyc-7763.json does with its FMA peaks).
#include "models/timing/calibration.h"

#include "models/encoder/maththreads.h"
#include "models/timing/measure.h"

#include <ATen/ATen.h>
#include <c10/core/InferenceMode.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>

#include <unistd.h>

namespace sl::models::timing {

namespace {

constexpr double kGiga = 1e9;
constexpr double kMega = 1e6;
constexpr double kMinEfficiency = 0.001;
/// bf16 counts as supported when its GEMM runs at least this fraction of fp32's at the same size.
constexpr double kBf16FastEnough = 0.5;
/// A probe shorter than this many launch overheads says too little about throughput to set a peak.
constexpr double kPeakMinLaunches = 4;

using CalibrationClock = std::chrono::steady_clock;
using GemmShape = std::array<std::int64_t, 3>;   // M, K, N

struct CalibrationPlan {
    std::vector<std::int64_t> squares;
    std::vector<GemmShape> skinny;
    std::vector<std::int64_t> bf16Squares;
    std::vector<std::int64_t> operandBytes;   ///< add and copy: bytes of each operand
    std::int64_t matrixVector = 0;            ///< K = N of the GEMV probe (x[1 x K] times W[N x K]^T)
    double budgetSeconds = 0;                 ///< timed calls per probe, at least minRepeats
    int minRepeats = 0;
};

/// Full: about 10 s on a 2-core EPYC VM; quick: under 1 s. The largest operands are capped so
/// that the three buffers of an add stay within a sixth of the memory.
CalibrationPlan calibrationPlan(bool quick, double memoryBytes) {
    CalibrationPlan p;
    p.squares = quick ? std::vector<std::int64_t>{32, 64, 128, 256, 512} : std::vector<std::int64_t>{32, 64, 128, 256, 512, 1024, 2048};
    p.skinny = quick ? std::vector<GemmShape>{{1, 512, 512}, {16, 512, 512}}
                     : std::vector<GemmShape>{{1, 2048, 2048}, {16, 2048, 2048}, {128, 2048, 2048}, {2048, 64, 2048}};
    p.bf16Squares = quick ? std::vector<std::int64_t>{256} : std::vector<std::int64_t>{256, 1024, 2048};
    p.matrixVector = quick ? 1024 : 4096;   // 4 MB or 64 MB of weights: the full probe streams from memory
    const std::int64_t largest = quick ? (16 << 20) : (256 << 20);
    for (std::int64_t b = 4096; b <= largest && (memoryBytes <= 0 || 18.0 * static_cast<double>(b) <= memoryBytes); b *= 4) p.operandBytes.push_back(b);
    p.budgetSeconds = quick ? 0.02 : 0.3;
    p.minRepeats = quick ? 3 : 5;
    return p;
}

std::string sizeText(double bytes) {
    char buffer[32];
    if (bytes >= 1 << 20) std::snprintf(buffer, sizeof buffer, "%.0f MB", bytes / (1 << 20));
    else std::snprintf(buffer, sizeof buffer, "%.0f KB", bytes / 1024);
    return buffer;
}

std::string gemmText(const GemmShape& s) { return std::to_string(s[0]) + "x" + std::to_string(s[1]) + "x" + std::to_string(s[2]); }

std::string rateText(double rate, const char* unit) {
    char buffer[48];
    std::snprintf(buffer, sizeof buffer, "%.3g %s", rate, unit);
    return buffer;
}

double physicalMemoryOrPages() {
    const double fromProc = physicalMemoryBytes();
    if (fromProc > 0) return fromProc;
    return static_cast<double>(sysconf(_SC_PHYS_PAGES)) * static_cast<double>(sysconf(_SC_PAGESIZE));
}

/// A measured point of a curve: its work (GFLOP or MB), median time and table row.
struct CurvePoint {
    double work = 0;
    double us = 0;
    std::size_t row = 0;
};

/// The measurement in progress: the plan, the points, the rows written so far.
class Calibrator {
public:
    Calibrator(const CalibrateRequest& r, CalibrationRun& run)
        : m_request(r), m_run(run), m_memoryBytes(physicalMemoryOrPages()), m_plan(calibrationPlan(r.quick, m_memoryBytes)) {}

    /// False when stopped.
    bool measure() {
        return launch() && gemmSquares() && gemmSkinny() && gemmBf16() && matrixVector() && addsAndCopies();
    }

    void fit(const std::string& source);

private:
    std::optional<double> medianUs(const std::function<void()>& call, int maxRepeats = 100000) {
        std::optional<std::vector<double>> us = timeForBudget(call, m_plan.minRepeats, maxRepeats, m_plan.budgetSeconds, m_request.stop);
        if (!us) return std::nullopt;
        return medianOf(std::move(*us));
    }

    std::size_t addRow(std::string probe, std::string size, double work, double us, double rate, std::string unit) {
        m_run.rows.push_back({.probe = std::move(probe), .size = std::move(size), .work = work, .medianUs = us, .rate = rate, .unit = std::move(unit)});
        return m_run.rows.size() - 1;
    }

    void progress(const std::string& what) {
        if (!m_request.progress) return;
        const double s = std::chrono::duration<double>(CalibrationClock::now() - m_start).count();
        char buffer[32];
        std::snprintf(buffer, sizeof buffer, " (%.1f s)", s);
        m_request.progress("calibrate: " + what + buffer);
    }

    /// The rate a probe reaches beyond the launch overhead: what the roofline's compute and memory
    /// terms must give back.
    double netRate(const CurvePoint& p) const { return p.work / (std::max(p.us - m_launchUs, 1e-3) * 1e-6); }

    bool launch() {
        const at::Tensor a = at::ones({1}), b = at::ones({1});
        const std::optional<double> us = medianUs([&] { (void)at::add(a, b); }, 20000);
        if (!us) return false;
        m_launchUs = *us;
        addRow("launch", "at::add, 1 element", 0, *us, 0, "");
        progress("launch overhead");
        return true;
    }

    std::optional<double> gemmUs(const GemmShape& s, at::ScalarType type) {
        const at::Tensor a = at::randn({s[0], s[1]}).to(type), b = at::randn({s[1], s[2]}).to(type);
        return medianUs([&] { (void)at::mm(a, b); });
    }

    static double gemmGflop(const GemmShape& s) { return 2.0 * static_cast<double>(s[0]) * static_cast<double>(s[1]) * static_cast<double>(s[2]) / kGiga; }

    bool gemmSquares() {
        for (std::int64_t n : m_plan.squares) {
            const GemmShape s{n, n, n};
            const std::optional<double> us = gemmUs(s, at::kFloat);
            if (!us) return false;
            const double gflop = gemmGflop(s);
            m_squares.push_back({.work = gflop, .us = *us, .row = addRow("gemm fp32", gemmText(s), gflop, *us, gflop / (*us * 1e-6), "GFLOP/s")});
        }
        progress("GEMM fp32");
        return true;
    }

    /// Shown, not fitted: a curve over GFLOP alone cannot tell a skinny GEMM from a square one.
    bool gemmSkinny() {
        for (const GemmShape& s : m_plan.skinny) {
            const std::optional<double> us = gemmUs(s, at::kFloat);
            if (!us) return false;
            const double gflop = gemmGflop(s);
            addRow("gemm fp32", gemmText(s), gflop, *us, gflop / (*us * 1e-6), "GFLOP/s");
        }
        progress("skinny GEMM fp32");
        return true;
    }

    bool gemmBf16() {
        for (std::int64_t n : m_plan.bf16Squares) {
            const GemmShape s{n, n, n};
            std::optional<double> us;
            try {
                us = gemmUs(s, at::kBFloat16);
            } catch (const std::exception& e) {
                m_bf16Refused = std::string(e.what()).substr(0, std::string(e.what()).find('\n'));
                return true;
            }
            if (!us) return false;
            const double gflop = gemmGflop(s);
            m_bf16.push_back({.work = gflop, .us = *us, .row = addRow("gemm bf16", gemmText(s), gflop, *us, gflop / (*us * 1e-6), "GFLOP/s")});
        }
        progress("GEMM bf16");
        return true;
    }

    /// A batch-1 fully connected layer as ONNX's Gemm (transB) runs it: x[1 x K] times W[N x K]^T.
    /// Its rate is the weights' bytes over the time: GEMV streams them, far below a copy on a CPU.
    bool matrixVector() {
        const std::int64_t n = m_plan.matrixVector;
        const at::Tensor x = at::randn({1, n}), w = at::randn({n, n});
        const std::optional<double> us = medianUs([&] { (void)at::mm(x, w.t()); });
        if (!us) return false;
        const double mb = 4.0 * static_cast<double>(n) * static_cast<double>(n) / kMega;
        m_matrixVectorGBps = mb / 1e3 / (*us * 1e-6);
        addRow("gemv fp32", "1x" + std::to_string(n) + "x" + std::to_string(n), mb, *us, m_matrixVectorGBps, "GB/s");
        progress("GEMV fp32");
        return true;
    }

    /// Operands filled before timing, outputs kept: the probes measure the memory system, not
    /// the allocator's first touch of fresh pages.
    bool addsAndCopies() {
        for (std::int64_t bytes : m_plan.operandBytes) {
            const std::int64_t n = bytes / 4;
            const at::Tensor a = at::ones({n}), b = at::ones({n});
            at::Tensor out = at::zeros({n});
            const std::optional<double> addUs = medianUs([&] { (void)at::add_out(out, a, b); });
            if (!addUs) return false;
            const double gflop = static_cast<double>(n) / kGiga;
            m_adds.push_back({.work = gflop, .us = *addUs, .row = addRow("add fp32", sizeText(static_cast<double>(bytes)), gflop, *addUs, gflop / (*addUs * 1e-6), "GFLOP/s")});
            const std::optional<double> copyUs = medianUs([&] { (void)out.copy_(a); });
            if (!copyUs) return false;
            const double mb = 2.0 * static_cast<double>(bytes) / kMega;   // read + written, as OpWork counts bytes
            m_copies.push_back({.work = mb, .us = *copyUs, .row = addRow("copy", sizeText(static_cast<double>(bytes)), mb, *copyUs, mb / 1e3 / (*copyUs * 1e-6), "GB/s")});
        }
        progress("add and copy");
        return true;
    }

    /// The fastest net rate among probes long enough to say (the last point when none is).
    double peakOf(const std::vector<CurvePoint>& points, std::size_t& at) const {
        double best = 0;
        at = points.size() - 1;
        for (std::size_t i = 0; i < points.size(); ++i)
            if (points[i].us >= kPeakMinLaunches * m_launchUs && netRate(points[i]) > best) {
                best = netRate(points[i]);
                at = i;
            }
        return best > 0 ? best : netRate(points.back());
    }

    /// The curve of `points` against `peak`, writing each point's efficiency into its row;
    /// counts the points whose measured rate was above the peak (capped at 1).
    EfficiencyCurve curveOf(const std::vector<CurvePoint>& points, double peak, int& capped) {
        std::vector<std::pair<double, double>> steps;
        capped = 0;
        for (const CurvePoint& p : points) {
            const double raw = netRate(p) / peak;
            capped += raw > 1.0 + 1e-9;
            const double eff = std::clamp(raw, kMinEfficiency, 1.0);
            m_run.rows[p.row].efficiency = eff;
            steps.emplace_back(p.work, eff);
        }
        return stepCurve(std::move(steps));
    }

    void fitBf16(const std::string& source, double fp32Rate);

    const CalibrateRequest& m_request;
    CalibrationRun& m_run;
    const double m_memoryBytes;
    const CalibrationPlan m_plan;
    const CalibrationClock::time_point m_start = CalibrationClock::now();
    double m_launchUs = 0;
    double m_matrixVectorGBps = 0;
    std::vector<CurvePoint> m_squares, m_bf16, m_adds, m_copies;
    std::string m_bf16Refused;
};

void Calibrator::fitBf16(const std::string& source, double fp32Rate) {
    if (!m_bf16Refused.empty()) {
        m_run.notes.push_back("bf16: ATen refused a bf16 GEMM here (" + m_bf16Refused + "); no bf16 peak: bf16 ops fall back to the vector fp32 rate (DeviceSpec::peakFor)");
        return;
    }
    if (m_bf16.empty()) return;
    // against fp32 at the same size: the largest bf16 square
    const CurvePoint& last = m_bf16.back();
    const auto same = std::find_if(m_squares.begin(), m_squares.end(), [&](const CurvePoint& p) { return std::abs(p.work - last.work) < 1e-12; });
    const double ratio = netRate(last) / (same != m_squares.end() ? netRate(*same) : fp32Rate);
    if (ratio < kBf16FastEnough) {
        m_run.notes.push_back("bf16: at::mm ran at " + rateText(netRate(last), "GFLOP/s") + ", " + rateText(ratio * 100, "%") +
                              " of fp32 at that size, not fast enough: no bf16 peak recorded (bf16 ops fall back to the vector fp32 rate, DeviceSpec::peakFor)");
        return;
    }
    std::size_t at = 0;
    const double peak = peakOf(m_bf16, at);   // as for fp32: the fastest
    m_run.spec.peaks.push_back({.unit = ComputeUnit::Matrix, .dtype = DType::BF16, .flopsPerSecond = peak * kGiga,
                                .source = source + "; the fastest bf16 at::mm, " + m_run.rows[m_bf16[at].row].size});
    m_run.notes.push_back("bf16: at::mm ran at " + rateText(peak, "GFLOP/s") + " (" + rateText(ratio * 100, "%") +
                          " of fp32 at the same size): recorded as the matrix bf16 peak (the matrix efficiency curve, fitted on fp32, applies)");
}

void Calibrator::fit(const std::string& source) {
    if (m_squares.empty() || m_adds.empty() || m_copies.empty()) throw std::runtime_error("calibrate: no probe ran (too little memory?)");
    DeviceSpec& d = m_run.spec;
    // The peaks are the fastest probes, so that every fitted efficiency stays below 1 and the
    // roofline gives the measured rates back: for GEMM normally the largest (but one slowed by
    // a busy core must not cap all the others), for add one in cache (large adds are bound by
    // memory, which the bandwidth accounts for). The bandwidth is the fastest copy's too (one in
    // a cache): the memory curve then falls to the large copies' share of it, so the roofline
    // gives cache-sized tensors their cache rate and large ones DRAM's.
    std::size_t matrixAt = 0, vectorAt = 0, memoryAt = 0;
    const double matrixPeak = peakOf(m_squares, matrixAt);   // GFLOP per second: work is in GFLOP
    const double vectorPeak = peakOf(m_adds, vectorAt);
    const double bandwidth = peakOf(m_copies, memoryAt) * kMega;   // bytes per second: work is in MB
    int cappedMatrix = 0, cappedVector = 0, cappedMemory = 0;
    d.matrixEfficiency = curveOf(m_squares, matrixPeak, cappedMatrix);
    d.vectorEfficiency = curveOf(m_adds, vectorPeak, cappedVector);
    d.memoryEfficiency = curveOf(m_copies, bandwidth / kMega, cappedMemory);
    d.peaks.push_back({.unit = ComputeUnit::Matrix, .dtype = DType::F32, .flopsPerSecond = matrixPeak * kGiga,
                       .source = source + "; the fastest square fp32 at::mm, " + m_run.rows[m_squares[matrixAt].row].size +
                                 " (CPUs have no matrix unit: recorded as the matrix peak so that Matmul and Conv take the GEMM rate)"});
    d.peaks.push_back({.unit = ComputeUnit::Vector, .dtype = DType::F32, .flopsPerSecond = vectorPeak * kGiga,
                       .source = source + "; the fastest fp32 at::add (1 FLOP per element), " + m_run.rows[m_adds[vectorAt].row].size + " operands"});
    fitBf16(source, matrixPeak);
    d.memoryBandwidth = bandwidth;
    d.memoryBytes = m_memoryBytes;
    d.memorySource = source + "; bandwidth: the fastest copy_, " + m_run.rows[m_copies[memoryAt].row].size + " (bytes read + written); capacity: MemTotal of /proc/meminfo";
    d.matrixVectorBandwidth = m_matrixVectorGBps * kGiga;
    d.matrixVectorSource = source + "; at::mm of x[1 x K] and W[N x K]^T, K = N = " + std::to_string(m_plan.matrixVector) +
                           ": the weights' bytes over the median time";
    d.launchOverheadUs = m_launchUs;
    d.launchSource = source + "; median at::add of two 1-element tensors";
    d.efficiencySource = source + "; matrix: square fp32 at::mm, vector: at::add, memory: copy_; each the measured time less the launch "
                                  "overhead against the peak, capped at 1";
    if (cappedMatrix + cappedVector > 0)
        m_run.notes.push_back(std::to_string(cappedMatrix + cappedVector) + " GEMM or add probes took about the launch overhead or less "
                              "(measured on an allocating add; the add probes write into a kept output): efficiency capped at 1");
    if (cappedMemory > 0)
        m_run.notes.push_back(std::to_string(cappedMemory) + " copy sizes ran faster than the fastest long copy: "
                              "memory efficiency capped at 1, the catalogue's limit");
}

} // namespace

EfficiencyCurve stepCurve(std::vector<std::pair<double, double>> sizeEfficiency) {
    std::sort(sizeEfficiency.begin(), sizeEfficiency.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    EfficiencyCurve curve;
    for (std::size_t i = 0; i < sizeEfficiency.size(); ++i) {
        const bool smallest = i + 1 == sizeEfficiency.size();
        const double eff = std::round(std::clamp(sizeEfficiency[i].second, kMinEfficiency, 1.0) * 1000) / 1000;
        curve.steps.emplace_back(smallest ? 0.0 : sizeEfficiency[i].first, std::max(eff, kMinEfficiency));
    }
    return curve;
}

CalibrationRun calibrateMachine(const CalibrateRequest& r) {
    const auto start = CalibrationClock::now();
    CalibrationRun run;
    const std::string cpu = cpuModel();
    const std::string source = "measured here by schedlab-cli calibrate on " + todayText() + ", " + cpu + ", LibTorch " + libTorchVersion() +
                               ", " + threadsText(r.threads);
    {
        const MathThreads pin(r.threads);     // ATen's pool and OpenBLAS, restored after
        const c10::InferenceMode inference;   // as `profile` runs its ops
        at::manual_seed(0);
        Calibrator calibrator(r, run);
        if (!calibrator.measure()) {
            run.stopped = true;
            return run;
        }
        calibrator.fit(source);
    }
    DeviceSpec& d = run.spec;
    d.id = "this-machine";
    d.name = "This machine (" + cpu + ", " + threadsText(r.threads) + ")";
    d.kind = "cpu";
    d.source = source;
    for (const std::string& note : run.notes) d.source += "; " + note;
    run.measuredSeconds = std::chrono::duration<double>(CalibrationClock::now() - start).count();
    return run;
}

} // namespace sl::models::timing
