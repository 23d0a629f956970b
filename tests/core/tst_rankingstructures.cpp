// SPDX-License-Identifier: MIT
// The list scheduler's ranking structures against std::set / std::stable_sort on random data.
#include "common/testmain.h"
#include "core/util/priorityqueue.h"
#include "core/util/prioritysort.h"
#include "core/util/random.h"
#include "core/util/rankset.h"

#include <QTest>

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <set>

using namespace sl;

class TestRankingStructures : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void rankSetMatchesStdSet_data() {
        QTest::addColumn<int>("size");
        for (int n : {1, 63, 64, 65, 4095, 4096, 4097, 300000}) QTest::addRow("n=%d", n) << n;
    }
    void rankSetMatchesStdSet() {
        QFETCH(int, size);
        RankSet rs;
        rs.resize(size);
        std::set<int> ref;
        Rng rng(size);
        for (int step = 0; step < 20000; ++step) {
            const int i = static_cast<int>(rng.integer(0, size - 1));
            if (rng.uniform() < 0.6) { rs.insert(i); ref.insert(i); }
            else { rs.erase(i); ref.erase(i); }
            const int q = static_cast<int>(rng.integer(0, size - 1));
            auto it = ref.lower_bound(q);
            QCOMPARE(rs.next(q), it == ref.end() ? RankSet::npos : *it);
            QCOMPARE(rs.empty(), ref.empty());
        }
    }

    void prioritySortIsStableDescending_data() {
        QTest::addColumn<int>("size");
        QTest::addColumn<int>("distinct");   // 0: continuous keys; k: k distinct values (many ties)
        QTest::addRow("uniform 1000") << 1000 << 0;
        QTest::addRow("ties 1000") << 1000 << 7;
        QTest::addRow("one value") << 500 << 1;
        QTest::addRow("single") << 1 << 0;
    }
    void prioritySortIsStableDescending() {
        QFETCH(int, size);
        QFETCH(int, distinct);
        Rng rng(42);
        std::vector<double> keys(static_cast<size_t>(size));
        for (auto& k : keys) k = distinct ? double(rng.integer(0, distinct - 1)) - 3.5 : rng.normal() * 1e3;
        if (size > 10) keys[3] = keys[4] + 1e-12;   // differs only in low mantissa bits
        PrioritySort ps;
        ps.sort(keys);
        std::vector<int> ref(static_cast<size_t>(size));
        std::iota(ref.begin(), ref.end(), 0);
        std::stable_sort(ref.begin(), ref.end(), [&](int a, int b) { return keys[size_t(a)] > keys[size_t(b)]; });
        for (int r = 0; r < size; ++r) {
            QCOMPARE(ps.order()[size_t(r)], ref[size_t(r)]);
            QCOMPARE(ps.rankOf()[size_t(ref[size_t(r)])], r);
        }
    }

    // The queue must take items exactly in PrioritySort's order (higher key, then smaller item,
    // NaN last) whatever the keys: spread (bucket lists), bunched (the exact-rank fallback),
    // outliers and non-finite keys (the clamped end buckets). Catches a bucket map that is not
    // monotone, a list insert that ignores the item tie-break, and a fallback that never triggers.
    void priorityQueueTakesInRankOrder_data() {
        QTest::addColumn<int>("size");
        QTest::addColumn<QString>("keys");
        for (int n : {1, 5, 1000, 5000})
            for (const char* k : {"uniform", "ties", "outlier", "nonfinite", "fewties"}) QTest::addRow("%s %d", k, n) << n << QString(k);
    }
    void priorityQueueTakesInRankOrder() {
        QFETCH(int, size);
        QFETCH(QString, keys);
        Rng rng(static_cast<std::uint64_t>(size) * 7 + static_cast<std::uint64_t>(keys.size()));
        std::vector<double> key(static_cast<size_t>(size));
        for (size_t i = 0; i < key.size(); ++i) {
            double k = rng.uniform();
            if (keys == "ties") k = double(rng.integer(0, 4));
            if (keys == "fewties") k = double(rng.integer(0, std::max(size / 3, 1)));   // ~3 per key: ties in bucket lists
            if (keys == "outlier" && i % 97 == 3) k = 1e300;
            if (keys == "nonfinite" && i % 331 == 1) k = std::array{std::nan(""), -std::nan(""), 1.0 / 0.0, -1.0 / 0.0}[i % 4];
            key[i] = k;
        }
        PrioritySort ps;
        ps.sort(key);
        PriorityQueue q;
        for (int round = 0; round < 2; ++round) {   // a second round reuses the workspace
            q.assign(key);
            // Push everything in a random order, interleaved with takes, against a std::set by rank.
            std::vector<int> items(key.size());
            std::iota(items.begin(), items.end(), 0);
            for (size_t i = items.size(); i > 1; --i) std::swap(items[i - 1], items[static_cast<size_t>(rng.integer(0, static_cast<std::int64_t>(i) - 1))]);
            std::set<int> byRank;
            for (int item : items) {
                q.push(item);
                byRank.insert(ps.rankOf()[static_cast<size_t>(item)]);
                if (rng.uniform() < 0.4) {
                    QCOMPARE(q.take(), ps.order()[static_cast<size_t>(*byRank.begin())]);
                    byRank.erase(byRank.begin());
                }
            }
            while (!byRank.empty()) {
                QCOMPARE(q.take(), ps.order()[static_cast<size_t>(*byRank.begin())]);
                byRank.erase(byRank.begin());
            }
            QVERIFY(q.empty());
        }
    }
};

SCHEDLAB_TEST_MAIN(rankingstructures, TestRankingStructures)
#include "tst_rankingstructures.moc"
