// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Fixes the thread counts of LibTorch's intra-op pool and of OpenBLAS for a scope.
///
/// Why: OpenBLAS splits its work by thread count, so with OPENBLAS_NUM_THREADS (or OMP_NUM_THREADS)
/// 1 or 2 the LAPACK eigenvectors of a degenerate Laplacian eigenspace (the positional encoding)
/// and the float sums of the network differ, and so do the decoded schedules. Inference runs under
/// MathThreads(1): the same weights, graph and seed give the same schedule in any environment.
///
/// \code
///   { sl::models::MathThreads pin(1); priorities = net->forward(input); }   // restored here
/// \endcode
/// The LibTorch setting is per calling thread (OpenMP) and restored by each guard. The OpenBLAS
/// setting is process-wide: it is the smallest count of the live guards (nested or on other
/// threads), and the count found before the first guard once none is left.

namespace sl::models {

class MathThreads {
public:
    explicit MathThreads(int threads);
    ~MathThreads();
    MathThreads(const MathThreads&) = delete;
    MathThreads& operator=(const MathThreads&) = delete;

private:
    int m_torchBefore = 1;
    int m_threads = 1;
};

/// OpenBLAS's current thread count, or 0 when OpenBLAS is not in the process.
int openBlasThreads();

} // namespace sl::models
