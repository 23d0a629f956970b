// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The Chakra trace reader's node and the reader itself, shared by its parts: the protobuf
/// records and the graph (chakraformat.cpp), the JSON forms (chakrajson.cpp). Private to core/io.

#include "core/io/chakra/chakrasizes.h"
#include "core/io/graphio.h"

#include <nlohmann/json.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// A named namespace: core is built in unity batches, where anonymous-namespace helpers of the
// readers would meet.
namespace sl::io_detail::chakra {

using json = nlohmann::json;

// NodeType of et_def.proto.
enum NodeType : std::int64_t {
    kInvalid = 0,
    kMetadata = 1,
    kMemLoad = 2,
    kMemStore = 3,
    kComp = 4,
    kCommSend = 5,
    kCommRecv = 6,
    kCommColl = 7
};
inline constexpr std::array<std::string_view, 11> kNodeTypeNames = {
    "INVALID_NODE",   "METADATA_NODE",  "MEM_LOAD_NODE", "MEM_STORE_NODE", "COMP_NODE",      "COMM_SEND_NODE",
    "COMM_RECV_NODE", "COMM_COLL_NODE", "STORAGE_NODE",  "BATCH_NODE",     "CHECKPOINT_NODE"};
// CollectiveCommType of et_def.proto, in enum order.
inline constexpr std::array<std::string_view, 10> kCommTypeNames = {
    "ALL_REDUCE", "REDUCE",         "ALL_GATHER",           "GATHER", "SCATTER", "BROADCAST",
    "ALL_TO_ALL", "REDUCE_SCATTER", "REDUCE_SCATTER_BLOCK", "BARRIER"};

/// One attribute's value, whatever its protobuf type.
struct AttrValue {
    enum class Kind { None, Number, Bool, String, List } kind = Kind::None;
    double number = 0;
    bool flag = false;
    std::string text;
    std::size_t listSize = 0;
};

struct IoText {
    std::string shapes, types;
};

struct Node {
    std::uint64_t id = 0;
    std::string name;
    std::int64_t type = kInvalid;
    std::vector<std::uint64_t> ctrlDeps, dataDeps;
    double duration = 0;
    IoText inputs, outputs;   // cleared once sized
    Sizes inputSizes, outputSizes;
    std::optional<bool> isCpuOp;
    std::optional<std::int64_t> commType;   // CollectiveCommType
    std::optional<double> commSize;
    int groupSize = 0;
    // where it is, for messages: the byte of its record (protobuf), the line of its object (a
    // JSON stream), its index in a JSON array or in the feeder JSON's workload_graph
    enum class Place : std::uint8_t { Byte, Line, Index, Feeder } place = Place::Byte;
    std::size_t at = 0;
};

/// The attributes the mapping uses; the others (rf_id, op_schema, stream, ...) are ignored.
void applyAttr(Node& n, std::string_view name, const AttrValue& v);

class Reader {
public:
    explicit Reader(const std::string& source) : m_source(source) {}

    [[noreturn]] void nodeFail(const Node& n, const std::string& message) const;

    /// Checks a node's numbers and turns its IOInfo text into sizes.
    void finish(Node& n);

    void readProtobuf(std::string_view data);
    void readJson(std::string_view text);   // chakrajson.cpp
    LoadedGraph build();

private:
    // protobuf
    void protobufRecord(std::string_view record, std::size_t base, std::size_t index);
    // JSON (chakrajson.cpp)
    void jsonNodes(const json& nodes, std::string_view text, std::size_t offset);
    void jsonNode(const json& obj, Node::Place place, std::size_t at);
    void feederNodes(const json& nodes, std::string_view text, std::size_t offset);
    void feederNode(const json& obj, std::size_t index);
    // the graph
    std::vector<std::string> uniqueNames() const;
    void addOps(Graph& g, const std::vector<std::string>& names);
    void addWork(Op& op, const Node& n);
    void addDependencies(Graph& g, const std::vector<std::string>& names);
    std::vector<std::string> summary(const Graph& g) const;
    Platform rankPlatform(const Graph& g) const;

    const std::string& m_source;
    std::vector<Node> m_nodes;
    std::vector<std::string> m_warnings;
    int m_cpuOps = 0;
    int m_renamed = 0;
    int m_danglingData = 0, m_danglingCtrl = 0;   // dependencies on nodes not in the trace, dropped
    int m_sizelessProducers = 0;
    int m_unmodelledCollectives = 0;
    int m_sizelessCollectives = 0;
};

}   // namespace sl::io_detail::chakra
