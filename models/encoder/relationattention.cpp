// SPDX-License-Identifier: MIT
// Masked attention read from the compact relations, for graphs beyond the dense masks' reach.
#include "models/encoder/relationattention.h"

#include "models/encoder/config.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace sl::models {

namespace {

constexpr std::int64_t kFloatsPerBlock = 8'000'000;

bool isEdgeSet(MaskKind k) {
    return k == MaskKind::Reduction || k == MaskKind::Redundant || k == MaskKind::ReductionBack ||
           k == MaskKind::RedundantBack;
}

/// Senders receiver v hears in edge set `k`: set 1 holds (u, v) for a reduction edge u -> v, so v
/// hears its reduction predecessors; the backward sets reverse that.
const std::vector<OpId>& edgeKeys(const GraphRelations& r, MaskKind k, OpId v) {
    const auto i = static_cast<std::size_t>(v);
    switch (k) {
    case MaskKind::Reduction: return r.reductionPreds[i];
    case MaskKind::Redundant: return r.redundantPreds[i];
    case MaskKind::ReductionBack: return r.reductionSuccs[i];
    default: return r.redundantSuccs[i];
    }
}

/// One head's message to every receiver over an edge set's keys (softmax of scaled dot products).
/// `q`, `k`, `v` are that head's [N, dk] rows; `out` row v is [dk] at stride `ldOut`.
void attendEdges(const GraphRelations& r, MaskKind set, const float* q, const float* k, const float* v, std::int64_t dk,
                 float scale, float* out, std::int64_t ldOut) {
    std::vector<float> weight;
    for (OpId receiver = 0; receiver < r.ops; ++receiver) {
        const std::vector<OpId>& keys = edgeKeys(r, set, receiver);
        float* o = out + receiver * ldOut;
        std::fill(o, o + dk, 0.0f);
        if (keys.empty()) continue;   // no key: a zero message, as the dense path's row indicator gives
        const float* qr = q + receiver * dk;
        weight.resize(keys.size());
        float top = -std::numeric_limits<float>::infinity();
        for (std::size_t i = 0; i < keys.size(); ++i) {
            const float* kr = k + keys[i] * dk;
            float dot = 0;
            for (std::int64_t j = 0; j < dk; ++j) dot += qr[j] * kr[j];
            weight[i] = dot * scale;
            top = std::max(top, weight[i]);
        }
        float total = 0;
        for (float& w : weight) total += w = std::exp(w - top);
        for (std::size_t i = 0; i < keys.size(); ++i) {
            const float a = weight[i] / total;
            const float* vr = v + keys[i] * dk;
            for (std::int64_t j = 0; j < dk; ++j) o[j] += a * vr[j];
        }
    }
}

/// Bias rows [r0, r0 + rows) of a dense set (0 where the receiver hears the column, else -1e9) and
/// each row's indicator (1 if it hears anyone).
void denseBias(const GraphRelations& r, MaskKind set, OpId r0, std::int64_t rows, float* bias, float* hasKey) {
    const std::int64_t n = r.ops;
    for (std::int64_t i = 0; i < rows; ++i) {
        const OpId receiver = r0 + static_cast<OpId>(i);
        float* row = bias + i * n;
        std::fill(row, row + n, kMaskedBias);
        const std::uint64_t* anc = r.ancestorRow(receiver);
        const std::uint64_t* desc = r.descendantRow(receiver);
        std::int64_t heard = 0;
        for (std::size_t w = 0; w < r.words; ++w) {
            std::uint64_t bits = set == MaskKind::ClosureRest       ? anc[w]
                                 : set == MaskKind::ClosureRestBack ? desc[w]
                                                                    : ~(anc[w] | desc[w]);
            if (w + 1 == r.words && n % 64) bits &= (std::uint64_t{1} << (n % 64)) - 1;   // past the last op
            while (bits) {
                const auto col = static_cast<std::int64_t>(w * 64) + std::countr_zero(bits);
                bits &= bits - 1;
                if (col == receiver) continue;   // incomparable pairs are of distinct ops
                row[col] = 0;
                ++heard;
            }
        }
        // The closure sets leave out direct edges (they are sets 1, 2 and their reverses).
        if (set != MaskKind::Incomparable) {
            const bool forward = set == MaskKind::ClosureRest;
            for (const auto* list : {forward ? &r.reductionPreds : &r.reductionSuccs, forward ? &r.redundantPreds : &r.redundantSuccs})
                for (OpId u : (*list)[static_cast<std::size_t>(receiver)]) {
                    row[u] = kMaskedBias;
                    --heard;
                }
        }
        hasKey[i] = heard > 0 ? 1.0f : 0.0f;
    }
}

} // namespace

at::Tensor attendByRelations(const at::Tensor& qkv, const GraphRelations& relations,
                             const std::vector<std::int64_t>& headMask, std::int64_t dk, double scale,
                             std::int64_t blockRows) {
    const std::int64_t n = relations.ops;
    const auto heads = static_cast<std::int64_t>(headMask.size());
    if (qkv.dim() != 2 || qkv.size(0) != n || qkv.size(1) != 3 * heads * dk || qkv.scalar_type() != at::kFloat)
        throw std::invalid_argument("attendByRelations: qkv must be [ops, 3 * heads * dk] float");
    // [3, H, N, dk]: each head's q, k and v rows contiguous.
    const at::Tensor parts = qkv.view({n, 3, heads, dk}).permute({1, 2, 0, 3}).contiguous();
    at::Tensor messages = at::empty({n, heads * dk}, qkv.options());
    const auto fscale = static_cast<float>(scale);
    for (std::int64_t h = 0; h < heads; ++h) {
        const auto set = static_cast<MaskKind>(headMask[static_cast<std::size_t>(h)]);
        if (isEdgeSet(set))
            attendEdges(relations, set, parts[0][h].data_ptr<float>(), parts[1][h].data_ptr<float>(),
                        parts[2][h].data_ptr<float>(), dk, fscale, messages.data_ptr<float>() + h * dk, heads * dk);
    }
    const std::int64_t rows = blockRows > 0 ? blockRows : std::clamp<std::int64_t>(kFloatsPerBlock / std::max<std::int64_t>(n, 1), 1, n);
    // Buffers reused by every block: fresh ones would cost a page fault per 4 KB each time.
    at::Tensor bias = at::empty({rows, n}, qkv.options()), scores = at::empty({rows, n}, qkv.options());
    at::Tensor attn = at::empty({rows, n}, qkv.options()), hasKey = at::empty({rows, 1}, qkv.options());
    at::Tensor message = at::empty({rows, dk}, qkv.options());
    for (std::int64_t r0 = 0; r0 < n; r0 += rows) {
        const std::int64_t b = std::min(rows, n - r0);
        for (const MaskKind set : {MaskKind::ClosureRest, MaskKind::ClosureRestBack, MaskKind::Incomparable}) {
            if (std::find(headMask.begin(), headMask.end(), static_cast<std::int64_t>(set)) == headMask.end()) continue;
            denseBias(relations, set, static_cast<OpId>(r0), b, bias.data_ptr<float>(), hasKey.data_ptr<float>());
            const at::Tensor blockBias = bias.narrow(0, 0, b), blockKey = hasKey.narrow(0, 0, b);
            at::Tensor blockScores = scores.narrow(0, 0, b), blockAttn = attn.narrow(0, 0, b), blockMessage = message.narrow(0, 0, b);
            for (std::int64_t h = 0; h < heads; ++h) {
                if (headMask[static_cast<std::size_t>(h)] != static_cast<std::int64_t>(set)) continue;
                at::addmm_out(blockScores, blockBias, parts[0][h].narrow(0, r0, b), parts[1][h].t(), 1.0, scale);
                at::_softmax_out(blockAttn, blockScores, -1, false).mul_(blockKey);
                at::mm_out(blockMessage, blockAttn, parts[2][h]);
                messages.narrow(0, r0, b).narrow(1, h * dk, dk).copy_(blockMessage);
            }
        }
    }
    return messages;
}

} // namespace sl::models
