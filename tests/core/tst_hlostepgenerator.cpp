// SPDX-License-Identifier: MIT
// The hlo-step generator (core/generators/hlotrainingstep.h) on both models, both optimizers,
// tensor parallelism 1 and 2 and two seeds (bf16 matmuls in half of them): each module is read by
// the HLO reader into exactly the ops and edges the generator lists, its shapes agree when checked
// from the text alone, its aliased outputs cost no bytes, and it is reproducible. Each check names
// the generator mistake it catches.
#include "common/testmain.h"
#include "core/generators/hlotrainingstep.h"
#include "core/io/graphio.h"

#include <QTest>

#include <algorithm>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>

using namespace sl;

namespace hlostepgeneratortest {

/// One ENTRY instruction as the text spells it, read without the generator's help.
struct TextInstruction {
    std::string name, opcode, attrs;
    std::string shape;            ///< as printed, layout included
    std::string type;             ///< element type of an array result
    std::vector<long> dims;       ///< of an array result
    bool root = false;
    std::vector<std::pair<std::string, std::string>> operands;   ///< (printed shape, name)
};

std::vector<long> dimsOf(const std::string& shape) {
    std::vector<long> dims;
    const auto open = shape.find('['), close = shape.find(']');
    std::string inside = shape.substr(open + 1, close - open - 1);
    std::replace(inside.begin(), inside.end(), ',', ' ');
    std::istringstream in(inside);
    for (long d; in >> d;) dims.push_back(d);
    return dims;
}

/// Index just past the bracket closing s[open].
std::size_t closingBracket(const std::string& s, std::size_t open) {
    int depth = 0;
    for (std::size_t i = open; i < s.size(); ++i) {
        if (s[i] == '(' || s[i] == '[' || s[i] == '{') ++depth;
        if ((s[i] == ')' || s[i] == ']' || s[i] == '}') && --depth == 0) return i + 1;
    }
    return std::string::npos;
}

std::vector<std::string> splitTopLevel(const std::string& s) {
    std::vector<std::string> parts;
    int depth = 0;
    std::string part;
    for (char c : s) {
        depth += (c == '(' || c == '[' || c == '{') - (c == ')' || c == ']' || c == '}');
        if (c == ',' && depth == 0) {
            parts.push_back(part);
            part.clear();
        } else if (c != ' ' || !part.empty()) {
            part += c;
        }
    }
    if (!part.empty()) parts.push_back(part);
    return parts;
}

std::vector<TextInstruction> entryInstructions(const std::string& text) {
    std::vector<TextInstruction> out;
    std::istringstream lines(text);
    bool inEntry = false;
    for (std::string line; std::getline(lines, line);) {
        if (line.rfind("ENTRY ", 0) == 0) inEntry = true;
        if (!inEntry || line.rfind("  ", 0) != 0) continue;
        line = std::regex_replace(line, std::regex(R"(/\*index=\d+\*/)"), "");
        TextInstruction in;
        in.root = line.find("  ROOT ") == 0;
        const std::string body = line.substr(line.find('%') + 1);
        in.name = body.substr(0, body.find(" = "));
        const std::string rest = body.substr(body.find(" = ") + 3);
        const std::size_t shapeEnd = rest[0] == '(' ? closingBracket(rest, 0) : rest.find(' ');
        in.shape = rest.substr(0, shapeEnd);
        if (in.shape[0] != '(') {
            in.type = in.shape.substr(0, in.shape.find('['));
            in.dims = dimsOf(in.shape);
        }
        const std::size_t paren = rest.find('(', shapeEnd);
        in.opcode = rest.substr(shapeEnd + 1, paren - shapeEnd - 1);
        const std::size_t close = closingBracket(rest, paren);
        for (const std::string& operand : splitTopLevel(rest.substr(paren + 1, close - paren - 2))) {
            const std::size_t at = operand.rfind(" %");
            if (at == std::string::npos) in.operands.emplace_back("", operand);   // parameter(N)
            else in.operands.emplace_back(operand.substr(0, at), operand.substr(at + 2));
        }
        in.attrs = rest.substr(close);
        out.push_back(in);
    }
    return out;
}

std::vector<int> intList(const std::string& attrs, const std::string& key) {
    std::smatch m;
    std::vector<int> values;
    if (!std::regex_search(attrs, m, std::regex(key + R"(=\{([0-9,]*)\})"))) return values;
    std::string list = m[1];
    std::replace(list.begin(), list.end(), ',', ' ');
    std::istringstream in(list);
    for (int v; in >> v;) values.push_back(v);
    return values;
}

/// HLO's dot result: batch dims, then lhs's free dims, then rhs's.
std::vector<long> dotResult(const std::vector<long>& lhs, const std::vector<long>& rhs, const std::string& attrs) {
    const auto lb = intList(attrs, "lhs_batch_dims"), lc = intList(attrs, "lhs_contracting_dims");
    const auto rb = intList(attrs, "rhs_batch_dims"), rc = intList(attrs, "rhs_contracting_dims");
    std::vector<long> out;
    for (std::size_t i = 0; i < lb.size(); ++i) out.push_back(lhs[lb[i]] == rhs[rb[i]] ? lhs[lb[i]] : -1);
    for (std::size_t i = 0; i < lc.size(); ++i)
        if (lhs[lc[i]] != rhs[rc[i]]) out.push_back(-1);   // contracting sizes differ: never a match
    const auto free = [&](const std::vector<long>& dims, const std::vector<int>& batch, const std::vector<int>& contracting) {
        for (int i = 0; i < static_cast<int>(dims.size()); ++i)
            if (std::count(batch.begin(), batch.end(), i) == 0 && std::count(contracting.begin(), contracting.end(), i) == 0) out.push_back(dims[i]);
    };
    free(lhs, lb, lc);
    free(rhs, rb, rc);
    return out;
}

struct Aliases {
    std::vector<std::pair<int, int>> entries;   ///< (output index, parameter number)
};

Aliases headerAliases(const std::string& text) {
    Aliases a;
    const std::string header = text.substr(0, text.find('\n'));
    const std::regex entry(R"(\{(\d+)\}: \((\d+), \{\}, must-alias\))");
    for (auto it = std::sregex_iterator(header.begin(), header.end(), entry); it != std::sregex_iterator(); ++it)
        a.entries.emplace_back(std::stoi((*it)[1]), std::stoi((*it)[2]));
    return a;
}

HloStepSpec smallSpec(HloStepSpec::Model model, bool adam, int tensorParallel, std::uint64_t seed) {
    HloStepSpec s;
    s.model = model;
    s.adam = adam;
    s.tensorParallel = tensorParallel;
    s.seed = seed;
    s.bf16 = adam != (tensorParallel == 2);   // half the cases with bf16 matmuls
    s.layers = 2;
    s.batch = 4;
    s.sequence = 16;
    s.hidden = 64;
    s.heads = 4;
    s.vocab = 50;
    return s;
}

std::vector<HloStepSpec> everyCase() {
    std::vector<HloStepSpec> specs;
    for (auto model : {HloStepSpec::Model::Mlp, HloStepSpec::Model::Transformer})
        for (bool adam : {false, true})
            for (int tp : {1, 2})
                for (std::uint64_t seed : {1u, 2u}) specs.push_back(smallSpec(model, adam, tp, seed));
    return specs;
}

std::string label(const HloStepSpec& s) {
    return std::string(s.model == HloStepSpec::Model::Mlp ? "mlp" : "transformer") + (s.adam ? " adam" : " sgd") + " tp" +
           std::to_string(s.tensorParallel) + " seed" + std::to_string(s.seed);
}

class TestHloStepGenerator : public QObject {
    Q_OBJECT

    static LoadedGraph read(const HloStepModule& m) { return parseGraph(m.text, GraphFormat::Hlo, "gen.hlo"); }

    /// What the reader makes an op read: its listed operands, and for a folded operand
    /// (get-tuple-element, a bitcast reshape, a fused scalar broadcast) also the ops whose buffers
    /// it stands for (docs/formats.md, "Buffers and folded ops"). Which ops fold is the reader's
    /// call, taken from the graph: tst_hlofolding checks the rules themselves.
    static std::set<std::string> expectedPredecessors(const Graph& g, const std::map<std::string, std::vector<std::string>>& operands,
                                                      const std::string& op) {
        std::set<std::string> out;
        for (const std::string& o : operands.at(op)) {
            out.insert(o);
            if (g.op(g.findOp(o)).work.opClass != OpClass::Alias) continue;
            std::vector<std::string> behind = operands.at(o);
            while (!behind.empty()) {
                const std::string b = behind.back();
                behind.pop_back();
                if (g.op(g.findOp(b)).work.opClass == OpClass::Alias) behind.insert(behind.end(), operands.at(b).begin(), operands.at(b).end());
                else out.insert(b);
            }
        }
        return out;
    }

private Q_SLOTS:
    /// The graph has exactly the listed ops with exactly the expected predecessors. Catches an
    /// operand the text names but the list forgets (or the reverse), a parameter or constant
    /// listed as an op, an instruction written twice or not at all.
    void readsAsTheListedGraph() {
        for (const HloStepSpec& spec : everyCase()) {
            const HloStepModule m = generateHloTrainingStep(spec);
            const LoadedGraph loaded = read(m);
            const Graph& g = *loaded.graph;
            QVERIFY2(g.opCount() == static_cast<int>(m.ops.size()), label(spec).c_str());
            std::map<std::string, std::vector<std::string>> operands(m.ops.begin(), m.ops.end());
            QVERIFY2(operands.size() == m.ops.size(), (label(spec) + ": an op listed twice").c_str());
            for (const auto& [name, reads] : m.ops) {
                const OpId v = g.findOp(name);
                QVERIFY2(v != kNoOp, (label(spec) + ": no op " + name).c_str());
                std::set<std::string> preds;
                for (OpId p : g.predecessors(v)) preds.insert(g.op(p).name);
                QVERIFY2(preds == expectedPredecessors(g, operands, name), (label(spec) + ": predecessors of " + name).c_str());
            }
        }
    }

    /// Shapes agree when read from the text alone: each typed operand is printed with its
    /// definition's shape, element-wise ops see one shape, dots and reduces have HLO's result.
    /// Catches a wrong contracting dimension, a stale operand shape, a reduce keeping a dimension.
    void shapesAgreeInTheText() {
        static const std::set<std::string> elementwise = {"add", "subtract", "multiply", "divide", "maximum", "compare", "select",
                                                          "exponential", "log", "negate", "rsqrt", "sqrt", "tanh", "logistic", "convert"};
        for (const HloStepSpec& spec : everyCase()) {
            std::map<std::string, std::string> printed;   // name -> its shape as its definition prints it
            for (const TextInstruction& in : entryInstructions(generateHloTrainingStep(spec).text)) {
                for (const auto& [shape, name] : in.operands)
                    if (!shape.empty()) QVERIFY2(printed.at(name) == shape, (label(spec) + ": operand %" + name).c_str());
                printed[in.name] = in.shape;
                if (elementwise.count(in.opcode))
                    for (const auto& operand : in.operands) QVERIFY2(dimsOf(operand.first) == in.dims, (label(spec) + ": " + in.name).c_str());
                if (in.opcode == "dot")
                    QVERIFY2(dotResult(dimsOf(in.operands[0].first), dimsOf(in.operands[1].first), in.attrs) == in.dims,
                             (label(spec) + ": " + in.name).c_str());
                if (in.opcode == "reduce") {
                    std::vector<long> kept = dimsOf(in.operands[0].first);
                    const std::vector<int> gone = intList(in.attrs, "dimensions");
                    for (auto d = gone.rbegin(); d != gone.rend(); ++d) kept.erase(kept.begin() + *d);
                    QVERIFY2(kept == in.dims, (label(spec) + ": " + in.name).c_str());
                }
            }
        }
    }

    /// Every updated weight (and Adam state) is aliased to a parameter of its shape, and its
    /// producer owns no bytes; the loss is not aliased and keeps its 4 bytes. Catches a missing or
    /// shifted alias entry, an alias to the wrong parameter, the loss aliased.
    void aliasedOutputsCostNothing() {
        for (const HloStepSpec& spec : everyCase()) {
            const HloStepModule m = generateHloTrainingStep(spec);
            const LoadedGraph loaded = read(m);
            const Graph& g = *loaded.graph;
            const std::vector<TextInstruction> entry = entryInstructions(m.text);
            std::map<int, std::string> parameterShapes;
            for (const TextInstruction& in : entry)
                if (in.opcode == "parameter") parameterShapes[std::stoi(in.operands.at(0).second)] = in.shape;
            const TextInstruction& root = *std::find_if(entry.begin(), entry.end(), [](const TextInstruction& in) { return in.root; });
            const Aliases aliases = headerAliases(m.text);
            QVERIFY2(aliases.entries.size() + 1 == root.operands.size(), (label(spec) + ": every output but the loss is aliased").c_str());
            for (const auto& [output, parameter] : aliases.entries) {
                const auto& [shape, producer] = root.operands.at(static_cast<std::size_t>(output));
                QCOMPARE(parameterShapes.at(parameter), shape);
                QVERIFY2(g.outputBytes(g.findOp(producer)) == 0, (label(spec) + ": " + producer).c_str());
            }
            QCOMPARE(g.outputBytes(g.findOp(root.operands.back().second)), 4.0);
        }
    }

    /// Adam updates m and v in place as well: three aliased outputs per weight against SGD's one.
    /// Catches the states left out of the ROOT tuple or of the aliases.
    void adamAliasesItsStates() {
        for (auto model : {HloStepSpec::Model::Mlp, HloStepSpec::Model::Transformer}) {
            const std::size_t sgd = headerAliases(generateHloTrainingStep(smallSpec(model, false, 1, 3)).text).entries.size();
            HloStepSpec adam = smallSpec(model, true, 1, 3);
            adam.bf16 = false;
            QVERIFY(sgd > 0);
            QCOMPARE(headerAliases(generateHloTrainingStep(adam).text).entries.size(), 3 * sgd);
        }
    }

    /// Tensor parallelism adds PyTorch/XLA's tuple all-reduces over one group, chained by their
    /// token; none without it. Two layers: a transformer block all-reduces after its two
    /// row-parallel dots and the input gradients of its two column-parallel ones (4 per block);
    /// the MLP after its row-parallel classifier and the input gradient of the column-parallel
    /// layer below (2). Catches any one collective left out, or one not in the token chain.
    void tensorParallelAddsAllReduces() {
        for (const HloStepSpec& spec : everyCase()) {
            const std::string text = generateHloTrainingStep(spec).text;
            const auto count = [&](const std::string& what) {
                std::size_t n = 0;
                for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
                return n;
            };
            if (spec.tensorParallel == 1) {
                QVERIFY2(count("all-reduce(") == 0, label(spec).c_str());
                continue;
            }
            const std::size_t expected = spec.model == HloStepSpec::Model::Mlp ? 2 : 4 * static_cast<std::size_t>(spec.layers);
            QVERIFY2(count("all-reduce(") == expected, label(spec).c_str());
            QCOMPARE(count("replica_groups={{0,1}}"), count("all-reduce("));
            QCOMPARE(count("), index=1"), count("all-reduce(") - 1);   // each later one reads its predecessor's token
        }
    }

    /// The same spec gives the same text byte for byte; another seed another text. Catches an
    /// unseeded choice, iteration over an unordered container, a seed that changes nothing.
    void reproducibleAndSeeded() {
        for (const HloStepSpec& spec : everyCase()) {
            QVERIFY2(generateHloTrainingStep(spec).text == generateHloTrainingStep(spec).text, label(spec).c_str());
            HloStepSpec other = spec;
            other.seed = spec.seed + 10;
            QVERIFY2(generateHloTrainingStep(other).text != generateHloTrainingStep(spec).text, label(spec).c_str());
        }
    }

    /// Every instruction reads only earlier ones (XLA prints a computation in post-order), and the
    /// graph finalizes acyclic, each op after its predecessors in the topological order. Catches an
    /// instruction written before an operand it reads.
    void finalizesAcyclic() {
        for (const HloStepSpec& spec : everyCase()) {
            const HloStepModule m = generateHloTrainingStep(spec);
            std::set<std::string> defined;
            for (const auto& [name, reads] : m.ops) {
                for (const std::string& r : reads) QVERIFY2(defined.count(r), (label(spec) + ": " + name + " reads " + r + " before it").c_str());
                defined.insert(name);
            }
            const LoadedGraph loaded = read(m);
            const Graph& g = *loaded.graph;
            QVERIFY(g.finalized());
            QCOMPARE(static_cast<int>(g.topologicalOrder().size()), g.opCount());
            std::vector<int> position(static_cast<std::size_t>(g.opCount()));
            for (std::size_t i = 0; i < g.topologicalOrder().size(); ++i) position[static_cast<std::size_t>(g.topologicalOrder()[i])] = static_cast<int>(i);
            for (OpId v = 0; v < g.opCount(); ++v)
                for (OpId p : g.predecessors(v)) QVERIFY2(position[p] < position[v], label(spec).c_str());
        }
    }

    /// Sizes that cannot be sharded are refused by name. Catches a spec that silently rounds.
    void refusesSpecsThatDoNotDivide() {
        HloStepSpec heads = smallSpec(HloStepSpec::Model::Transformer, false, 1, 1);
        heads.heads = 3;   // 64 is not a multiple of 3
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, generateHloTrainingStep(heads));
        HloStepSpec shards = smallSpec(HloStepSpec::Model::Transformer, false, 8, 1);   // 4 heads over 8 shards
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, generateHloTrainingStep(shards));
        HloStepSpec empty = smallSpec(HloStepSpec::Model::Mlp, false, 1, 1);
        empty.layers = 0;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, generateHloTrainingStep(empty));
    }
};

} // namespace hlostepgeneratortest

SCHEDLAB_TEST_MAIN(hlostepgenerator, hlostepgeneratortest::TestHloStepGenerator)
#include "tst_hlostepgenerator.moc"
