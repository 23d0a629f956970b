// SPDX-License-Identifier: MIT
// REGAL's imitation of the long search (models/regal/imitation.h): the labelling of the oracle's
// devices closest to the policy's means by hand; the loss is 0 at the oracle's actions and above
// it elsewhere; it does not depend on how the long run happened to number the devices; training
// on it raises the oracle's likelihood. The label report's measures by hand
// (models/regal/labelreport.h), and heads that read the op's own features.
#include "common/testmain.h"
#include "models/regal/imitation.h"
#include "models/regal/labelreport.h"
#include "models/regal/network.h"

#include "core/regal/features.h"
#include "core/regal/labels.h"
#include "core/regal/oracle.h"
#include "core/regal/search.h"

#include <QTest>

#include <torch/torch.h>

#include <algorithm>

using namespace sl;
using namespace sl::regal;

namespace {

const OracleSpec kSpec{"nn", 30, 3'100'123, "adam", 3, Objective::Memory};

struct Labelled {
    OracleLabel label;
    GraphFeatures features;
};

Labelled labelled(const OracleSpec& spec) {
    Labelled l{labelEntry(spec, 600), {}};
    const Problem p = problemOf(spec);
    l.features = computeFeatures(p, search(p, {.budget = 370, .seed = 5, .keepPopulation = 100}).population);
    return l;
}

NetworkConfig smallConfig() {
    NetworkConfig c;
    c.rounds = 4;
    return c;
}

/// The policy's output replaced by the oracle's targets (what a perfect imitator would say).
regal::PolicyOutput targetsOf(const regal::Draw& d) {
    return {torch::tensor(d.affinity), torch::tensor(d.priority)};
}

} // namespace

class TestRegalImitation : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // Catches a labelling that ignores the means or moves device 0 (the symmetry op's).
    void closestLabellingByHand() {
        const std::vector<int> placement{0, 1, 2, 1};
        // ops 1 and 3 (label device 1) lean to device 2, op 2 (label device 2) to device 1
        const std::vector<float> means{5, 0, 0, /**/ 0, 0, 3, /**/ 0, 4, 0, /**/ 0, 1, 2};
        QCOMPARE(closestLabelling(placement, means, 3), (std::vector<int>{0, 2, 1}));
        const std::vector<float> flat(12, 0.0f);
        QCOMPARE(closestLabelling(placement, flat, 3)[0], 0);
    }

    // Catches a reversed sign (the loss would be lowest away from the oracle) and targets that
    // do not follow the oracle's strength, device or order.
    void lossIsZeroAtTheOraclesActionsAndAboveElsewhere() {
        const Labelled l = labelled(kSpec);
        const GraphBatch batch = makeBatch({&l.features});
        const regal::PolicyOutput zero{torch::zeros({batch.pairOffsets.back()}), torch::zeros({batch.offsets.back()})};
        const regal::Draw oracle = oracleDraws(zero, batch, {&l.label}, 8)[0];
        QCOMPARE(*std::max_element(oracle.affinity.begin(), oracle.affinity.end()), 2.0f);   // 8 steps of 1/4
        QCOMPARE(oracle.priority[static_cast<size_t>(orderOf(l.label).front())], 2.0f);
        QCOMPARE(oracle.priority[static_cast<size_t>(orderOf(l.label).back())], -2.0f);
        const double atOracle = imitationLoss(targetsOf(oracle), batch, {&l.label}, 0.5, 8).item<double>();
        QVERIFY(std::abs(atOracle) < 1e-9);
        QVERIFY(imitationLoss(zero, batch, {&l.label}, 0.5, 8).item<double>() > 0.1);
        const regal::PolicyOutput reversed{-targetsOf(oracle).affinity, -targetsOf(oracle).priority};
        QVERIFY(imitationLoss(reversed, batch, {&l.label}, 0.5, 8).item<double>() >
                imitationLoss(zero, batch, {&l.label}, 0.5, 8).item<double>());
    }

    // The rule's actions as targets (--teacher frees-first): 0 at the rule's shifts in log shape
    // units (12 steps of 1/4 = 3), above it at 0 and higher still at the reversed rule; with the
    // affinities not learned, they weigh nothing. Catches targets in steps instead of log units, a
    // reversed sign, and affinity targets leaking into a priorities-only loss.
    void ruleLossIsZeroAtTheRulesActions() {
        const Labelled l = labelled(kSpec);
        const GraphBatch batch = makeBatch({&l.features});
        const Problem p = problemOf(kSpec);
        const Actions rule = freesFirstActions(p.g(), kSpec.devices);
        std::vector<float> priority;
        for (int v = 0; v < rule.ops; ++v)
            priority.push_back(static_cast<float>(rule.shift[rule.index(v, rule.devices)] * kShiftStep));
        QCOMPARE(*std::max_element(priority.begin(), priority.end()), 3.0f);
        const torch::Tensor zeroAffinity = torch::zeros({batch.pairOffsets.back()});
        const LearnedKeys order{.placement = false, .scheduling = true};
        const regal::PolicyOutput atRule{zeroAffinity, torch::tensor(priority)};
        const regal::PolicyOutput zero{zeroAffinity, torch::zeros({batch.offsets.back()})};
        const regal::PolicyOutput reversed{zeroAffinity, -torch::tensor(priority)};
        const auto loss = [&](const regal::PolicyOutput& out, LearnedKeys keys) {
            return ruleImitationLoss(out, batch, {rule}, 0.5, keys).item<double>();
        };
        QVERIFY(std::abs(loss(atRule, order)) < 1e-9);
        QVERIFY(loss(zero, order) > 0.1);
        QVERIFY(loss(reversed, order) > loss(zero, order));
        const regal::PolicyOutput affinityOff{torch::full({batch.pairOffsets.back()}, 5.0f), torch::tensor(priority)};
        QVERIFY(std::abs(loss(affinityOff, order)) < 1e-9);
    }

    // Catches a loss that depends on which of the (d - 1)! equal labellings the long run found.
    void relabellingTheOraclesDevicesLeavesTheLossUnchanged() {
        const Labelled l = labelled(kSpec);
        const GraphBatch batch = makeBatch({&l.features});
        torch::manual_seed(3);
        const regal::PolicyOutput out{torch::randn({batch.pairOffsets.back()}), torch::randn({batch.offsets.back()})};
        OracleLabel swapped = l.label;
        for (int& q : swapped.placement) q = q == 1 ? 2 : q == 2 ? 1 : q;
        QVERIFY(swapped.placement != l.label.placement);
        QCOMPARE(imitationLoss(out, batch, {&swapped}, 0.5, 8).item<double>(),
                 imitationLoss(out, batch, {&l.label}, 0.5, 8).item<double>());
    }

    // Catches a loss whose gradient does not lead toward the oracle (sign or target bugs).
    void trainingRaisesTheOraclesLikelihood() {
        const Labelled l = labelled(kSpec);
        const GraphBatch batch = makeBatch({&l.features});
        torch::manual_seed(1);
        RegalPolicy policy(smallConfig());
        torch::optim::Adam adam(policy->parameters(), torch::optim::AdamOptions(1e-2));
        const double before = imitationLoss(policy->forward(batch), batch, {&l.label}, 0.5, 8).item<double>();
        for (int step = 0; step < 30; ++step) {
            adam.zero_grad();
            imitationLoss(policy->forward(batch), batch, {&l.label}, 0.5, 8).backward();
            adam.step();
        }
        const double after = imitationLoss(policy->forward(batch), batch, {&l.label}, 0.5, 8).item<double>();
        QVERIFY2(after < 0.8 * before, (std::to_string(before) + " -> " + std::to_string(after)).c_str());
    }

    // Catches a wrong rank formula (sign, scale, ties not broken by op id) and an edge counted
    // by the wrong ends.
    void labelReportMeasuresByHand() {
        const std::vector<double> order{0, 1, 2, 3};
        QCOMPARE(rankCorrelation(order, order), 1.0);
        QCOMPARE(rankCorrelation(order, std::vector<double>{3, 2, 1, 0}), -1.0);
        QCOMPARE(rankCorrelation(order, std::vector<double>{0, 1, 3, 2}), 0.8);   // 1 - 6 * 2 / (4 * 15)
        QCOMPARE(rankCorrelation(order, std::vector<double>{5, 5, 5, 5}), 1.0);   // ties keep the op order
        const std::vector<int> placement{0, 0, 1, 1};
        const std::vector<std::int32_t> source{0, 1, 2}, target{1, 2, 3};
        QCOMPARE(edgesKept(placement, source, target), 2.0 / 3.0);
        QCOMPARE(edgesKept(placement, {}, {}), 1.0);
    }

    // Catches heads that drop the op's features again, a flag lost in the weight file's config
    // (earlier files have none: they mean false) and a policy that no longer starts as plain BRKGA.
    void headsThatReadTheInputKeepTheirConfigAndStartAsPlainBrkga() {
        NetworkConfig c = smallConfig();
        c.headsReadInput = true;
        QVERIFY(NetworkConfig::fromJson(c.toJson()).headsReadInput);
        std::string earlier = smallConfig().toJson();
        const std::string key = "\"heads_read_input\":false,";
        earlier.replace(earlier.find(key), key.size(), "");
        QVERIFY(earlier.find("heads_read_input") == std::string::npos);
        QVERIFY(!NetworkConfig::fromJson(earlier).headsReadInput);
        const Labelled l = labelled(kSpec);
        const GraphBatch batch = makeBatch({&l.features});
        torch::manual_seed(2);
        RegalPolicy policy(c);
        const regal::PolicyOutput out = policy->forward(batch);
        QCOMPARE(out.affinity.abs().max().item<float>(), 0.0f);
        QCOMPARE(out.priority.abs().max().item<float>(), 0.0f);
        // the priority head reads state + node features: one more op feature changes its input
        QCOMPARE(policy->named_parameters()["priority_head.first.weight"].size(1), static_cast<int64_t>(c.state + kNodeWidth));
    }
};

SCHEDLAB_TEST_MAIN(regalimitation, TestRegalImitation)
#include "tst_regalimitation.moc"
