// SPDX-License-Identifier: MIT
// REGAL's label set (core/regal/labels.h): a label's keys decode to its placement and recorded
// cost to the bit; a tampered line is refused with its file and line; an interrupted build resumes
// from its partial file and keeps what was done.
#include "common/testmain.h"

#include "core/brkga/regaldecoder.h"
#include "core/regal/labels.h"
#include "core/util/atomicfile.h"

#include <nlohmann/json.hpp>

#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <fstream>

using namespace sl;
using namespace sl::regal;

namespace {

const OracleLabelSetSize kTiny{.train = 2, .validation = 1, .guideBudget = 600, .threads = 2};

void quiet(const std::string&) {}

} // namespace

class TestRegalLabels : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // Catches keys that lose a transfer's position or an op's device (the decoded cost would move).
    void keysDecodeToTheLabelledScheduleOnEveryDeviceCount() {
        for (int i = 0; i < 8; ++i) {
            const OracleSpec spec = oracleSpec(i, false);
            const OracleLabel label = labelEntry(spec, 400);
            const Problem problem = problemOf(spec);
            RegalDecoder decoder(problem);
            QCOMPARE(decoder.decode(keysOf(label, decoder.layout())), label.cost);
            QVERIFY(std::ranges::equal(decoder.placement(), label.placement));
            QCOMPARE(std::vector<OpId>(decoder.order().begin(), decoder.order().end()), orderOf(label));
        }
    }

    // Catches a loader that trusts the recorded cost or placement.
    void aLabelThatDoesNotDecodeToItsCostIsRefusedWithItsLine() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("labels.jsonl").toStdString();
        buildOracleLabelSet(path, kTiny, quiet);
        QCOMPARE(loadOracleLabelSet(path).train.size(), size_t{2});
        std::istringstream in(readFile(path));
        std::vector<std::string> lines;
        for (std::string line; std::getline(in, line);) lines.push_back(line);
        nlohmann::json entry = nlohmann::json::parse(lines[2]);
        entry["cost"] = entry["cost"].get<double>() * 0.99;
        lines[2] = entry.dump();
        std::string text;
        for (const std::string& line : lines) text += line + "\n";
        writeFileAtomically(path, text);
        try {
            loadOracleLabelSet(path);
            QFAIL("a label whose cost was changed was accepted");
        } catch (const std::exception& e) {
            QVERIFY2(std::string(e.what()).find("labels.jsonl:3:") != std::string::npos, e.what());
        }
    }

    // Catches a build that starts over (or drops finished entries) after an interruption.
    void anInterruptedBuildResumesFromItsPartialFile() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("labels.jsonl").toStdString();
        OracleLabel done = labelEntry(oracleSpec(0, true), kTiny.guideBudget);
        nlohmann::json line = {{"part", "validation"}, {"index", 0}, {"family", done.spec.family}, {"nodes", done.spec.nodes},
                               {"seed", done.spec.seed}, {"training", done.spec.training}, {"devices", done.spec.devices},
                               {"objective", toString(done.spec.objective)}, {"ops", done.ops}, {"cost", done.cost},
                               {"plain_cost", done.plainCost}, {"placement", done.placement}, {"sequence", done.sequence},
                               {"seconds", 1234.5}};
        std::ofstream(path + ".partial") << line.dump() << "\n{\"torn";   // and a line cut short
        buildOracleLabelSet(path, kTiny, quiet);
        QVERIFY(!std::filesystem::exists(path + ".partial"));
        QVERIFY2(readFile(path).find("1234.5") != std::string::npos, "the finished entry was labelled again");
        const OracleLabelSet set = loadOracleLabelSet(path);
        QCOMPARE(set.validation.size(), size_t{1});
        QCOMPARE(set.train.size(), size_t{2});
        QCOMPARE(set.validation[0].cost, done.cost);
    }
};

SCHEDLAB_TEST_MAIN(regallabels, TestRegalLabels)
#include "tst_regallabels.moc"
