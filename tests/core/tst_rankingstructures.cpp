// SPDX-License-Identifier: MIT
// The list scheduler's ranking structures against std::set / std::stable_sort on random data.
#include "core/util/prioritysort.h"
#include "core/util/random.h"
#include "core/util/rankset.h"

#include <QTest>

#include <algorithm>
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
};

QTEST_GUILESS_MAIN(TestRankingStructures)
#include "tst_rankingstructures.moc"
