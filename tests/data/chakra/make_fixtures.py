#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the Chakra execution-trace fixtures of tests/core/tst_chakraformat.cpp:

  small.et      the protobuf stream: a varint-length-prefixed GlobalMetadata, then one Node per record
  small.et.gz   the same bytes gzipped (mtime 0, so the file is reproducible)
  small.json    the same trace as chakra_jsonizer writes it: one JSON object per record, concatenated,
                with protobuf's JSON names (lowerCamelCase, 64-bit integers as strings, enum names)

The wire format is encoded by hand (field numbers from schema/protobuf/et_def.proto of
mlcommons/chakra), with the standard library only. Run from anywhere:
  python3 tests/data/chakra/make_fixtures.py

The trace (ids are not contiguous on purpose; durations in microseconds):

  id  name                                         type            lane  us   deps
  10  aten::linear                                 COMP_NODE       CPU   15   -
  11  aten::linear                                 COMP_NODE       CPU   12   ctrl 10
  20  ampere_sgemm_128x64_tn                       COMP_NODE       GPU   120  data 10, ctrl 10
  21  void at::native::vectorized_elementwise_...  COMP_NODE       GPU   30   data 20
  30  ncclDevKernel_AllReduce_Sum_f32_RING_LL      COMM_COLL_NODE  GPU   250  data 21
  22  Memcpy DtoH (Device -> Pinned)               COMP_NODE       GPU   8    data 30, ctrl 11 (unpacked)

Two more shapes of real files:

  dangling.et   as chakra_converter leaves a trace whose nodes it dropped: node 216
                'aten::flatten_dense_tensors(0)' has ctrl_deps [3] (node 3 is not in the trace) and
                node 217 has data_deps [216, 5] (node 5 is not either); the reader drops the two
                dependencies and counts them
  feeder.json   the JSON that Chakra's feeder reads (src/feeder/json_node.h): {"workload_graph": [...]}
                with Id, Name, NodeType (a number), runtime (microseconds), data_deps, is_cpu_op, and
                comm_type / comm_size on a communication node:
                  Id 1 'aten::embedding' CPU 318 us; Id 2 'sm90_gemm' GPU 90 us, data 1;
                  Id 3 'allreduce' COMM_COLL_NODE GPU 40 us, data 2, ALL_REDUCE, 1 MiB

Outputs: 10 float[8, 1024] (32768 bytes), 20 and 21 bf16[8, 4096] (65536 bytes), 30 float[1048576]
(4 MiB). The all-reduce has comm_type ALL_REDUCE (0), comm_size 4194304 and pg_ranks [0, 1, 2, 3].
"""

import gzip
import json
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))

COMP_NODE, COMM_COLL_NODE = 4, 7
NODE_TYPE_NAMES = {4: "COMP_NODE", 7: "COMM_COLL_NODE"}

# ---------------------------------------------------------------- protobuf wire format


def varint(value):
    value &= (1 << 64) - 1  # negative numbers as protobuf writes int64: ten bytes of two's complement
    out = bytearray()
    while True:
        low = value & 0x7F
        value >>= 7
        if value:
            out.append(low | 0x80)
        else:
            out.append(low)
            return bytes(out)


def key(number, wire_type):
    return varint((number << 3) | wire_type)


def field_varint(number, value):
    return key(number, 0) + varint(value)


def field_bytes(number, data):
    if isinstance(data, str):
        data = data.encode("utf-8")
    return key(number, 2) + varint(len(data)) + data


def field_double(number, value):
    return key(number, 1) + struct.pack("<d", value)


def field_float(number, value):
    return key(number, 5) + struct.pack("<f", value)


def field_packed(number, values):
    return field_bytes(number, b"".join(varint(v) for v in values))


# AttributeProto: name = 1, then one of the typed values (double_val = 3, float_val = 5,
# int64_val = 9, int64_list = 10, uint64_val = 13, bool_val = 27, string_val = 29).
def attr(name, kind, value):
    body = field_bytes(1, name)
    if kind == "bool":
        body += field_varint(27, 1 if value else 0)
    elif kind == "int64":
        body += field_varint(9, value)
    elif kind == "uint64":
        body += field_varint(13, value)
    elif kind == "string":
        body += field_bytes(29, value)
    elif kind == "double":
        body += field_double(3, value)
    elif kind == "float":
        body += field_float(5, value)
    elif kind == "int64_list":
        body += field_bytes(10, field_packed(1, value))  # Int64List { repeated int64 values = 1; } packed
    else:
        raise ValueError(kind)
    return body


def io_info(values, shapes, types):
    return field_bytes(1, values) + field_bytes(2, shapes) + field_bytes(3, types)


# ---------------------------------------------------------------- the trace


def node(id, name, type, duration, start, ctrl=(), data=(), inputs=None, outputs=None, attrs=(),
         unpacked=False):
    return dict(id=id, name=name, type=type, duration=duration, start=start, ctrl=list(ctrl), data=list(data),
                inputs=inputs, outputs=outputs, attrs=list(attrs), unpacked=unpacked)


def common_attrs(is_cpu):
    return [("rf_id", "int64", 7), ("op_schema", "string", ""), ("is_cpu_op", "bool", is_cpu)]


FLOAT_8x1024 = ("[[0, 1, 0, 8192, 4, 'cpu']]", "[[8, 1024]]", "['Tensor(float)']")
BF16_8x4096 = ("[[2, 3, 0, 32768, 2, 'cuda:0']]", "[[8, 4096]]", "['Tensor(c10::BFloat16)']")
FLOAT_4MIB = ("[[4, 5, 0, 1048576, 4, 'cuda:0']]", "[[1048576]]", "['Tensor(float)']")

METADATA = dict(version="0.0.4", attrs=[("schema", "string", "1.1.0-chakra.0.0.4"), ("pid", "uint64", 4242)])

NODES = [
    node(10, "aten::linear", COMP_NODE, 15, 1000, outputs=FLOAT_8x1024, attrs=common_attrs(True)),
    node(11, "aten::linear", COMP_NODE, 12, 1015, ctrl=[10], attrs=common_attrs(True)),
    node(20, "ampere_sgemm_128x64_tn", COMP_NODE, 120, 1020, ctrl=[10], data=[10], inputs=FLOAT_8x1024,
         outputs=BF16_8x4096, attrs=common_attrs(False) + [("stream", "int64", 7), ("flops", "double", 6.7e7)]),
    node(21, "void at::native::vectorized_elementwise_kernel<4, at::native::GeluCUDAKernelImpl>(int, float)",
         COMP_NODE, 30, 1140, data=[20], inputs=BF16_8x4096, outputs=BF16_8x4096,
         attrs=common_attrs(False) + [("occupancy", "float", 0.5)]),
    node(30, "ncclDevKernel_AllReduce_Sum_f32_RING_LL", COMM_COLL_NODE, 250, 1170, data=[21], inputs=FLOAT_4MIB,
         outputs=FLOAT_4MIB,
         attrs=common_attrs(False) + [("comm_type", "int64", 0), ("comm_size", "int64", 4194304),
                                      ("pg_name", "string", "0"), ("pg_ranks", "int64_list", [0, 1, 2, 3])]),
    node(22, "Memcpy DtoH (Device -> Pinned)", COMP_NODE, 8, 1420, ctrl=[11], data=[30], inputs=FLOAT_4MIB,
         attrs=common_attrs(False), unpacked=True),
]


def encode_metadata(m):
    return field_bytes(1, m["version"]) + b"".join(field_bytes(2, attr(*a)) for a in m["attrs"])


def encode_node(n):
    body = field_varint(1, n["id"]) + field_bytes(2, n["name"]) + field_varint(3, n["type"])
    for number, deps in ((4, n["ctrl"]), (5, n["data"])):
        if not deps:
            continue
        if n["unpacked"]:  # parsers must accept both encodings of a repeated scalar
            body += b"".join(field_varint(number, d) for d in deps)
        else:
            body += field_packed(number, deps)
    body += field_varint(6, n["start"]) + field_varint(7, n["duration"])
    if n["inputs"]:
        body += field_bytes(8, io_info(*n["inputs"]))
    if n["outputs"]:
        body += field_bytes(9, io_info(*n["outputs"]))
    body += b"".join(field_bytes(10, attr(*a)) for a in n["attrs"])
    return body


def record(message):
    return varint(len(message)) + message


def protobuf_trace():
    return record(encode_metadata(METADATA)) + b"".join(record(encode_node(n)) for n in NODES)


# ---------------------------------------------------------------- JSON, as MessageToJson writes it


def attr_json(name, kind, value):
    out = {"name": name}
    if kind == "bool":
        out["boolVal"] = value
    elif kind in ("int64", "uint64"):
        out[kind + "Val"] = str(value)
    elif kind == "string":
        out["stringVal"] = value
    elif kind in ("double", "float"):
        out[kind + "Val"] = value
    elif kind == "int64_list":
        out["int64List"] = {"values": [str(v) for v in value]}
    return out


def io_json(info):
    return {"values": info[0], "shapes": info[1], "types": info[2]}


def node_json(n):
    out = {"id": str(n["id"]), "name": n["name"], "type": NODE_TYPE_NAMES[n["type"]]}
    if n["ctrl"]:
        out["ctrlDeps"] = [str(d) for d in n["ctrl"]]
    if n["data"]:
        out["dataDeps"] = [str(d) for d in n["data"]]
    out["startTimeMicros"] = str(n["start"])
    out["durationMicros"] = str(n["duration"])
    if n["inputs"]:
        out["inputs"] = io_json(n["inputs"])
    if n["outputs"]:
        out["outputs"] = io_json(n["outputs"])
    out["attr"] = [attr_json(*a) for a in n["attrs"]]
    return out


def json_trace():
    metadata = {"version": METADATA["version"], "attr": [attr_json(*a) for a in METADATA["attrs"]]}
    # chakra_jsonizer writes each message with MessageToJson (indent 2) and nothing between them
    return "".join(json.dumps(o, indent=2) for o in [metadata] + [node_json(n) for n in NODES])


DANGLING_NODES = [
    node(216, "aten::flatten_dense_tensors(0)", COMP_NODE, 21, 500, ctrl=[3], attrs=common_attrs(True)),
    node(217, "aten::copy_", COMP_NODE, 9, 530, data=[216, 5], attrs=common_attrs(True)),
]


def dangling_trace():
    return record(encode_metadata(METADATA)) + b"".join(record(encode_node(n)) for n in DANGLING_NODES)


def feeder_trace():
    nodes = [
        {"Id": 1, "Name": "aten::embedding", "NodeType": COMP_NODE, "runtime": 318, "data_deps": [], "is_cpu_op": True},
        {"Id": 2, "Name": "sm90_gemm", "NodeType": COMP_NODE, "runtime": 90, "data_deps": [1], "is_cpu_op": False},
        {"Id": 3, "Name": "allreduce", "NodeType": COMM_COLL_NODE, "runtime": 40, "data_deps": [2], "is_cpu_op": False,
         "comm_type": 0, "comm_size": 1048576},
    ]
    return json.dumps({"workload_graph": nodes}, indent=2)


def main():
    with open(os.path.join(HERE, "dangling.et"), "wb") as f:
        f.write(dangling_trace())
    with open(os.path.join(HERE, "feeder.json"), "w", encoding="utf-8") as f:
        f.write(feeder_trace())
    data = protobuf_trace()
    with open(os.path.join(HERE, "small.et"), "wb") as f:
        f.write(data)
    with open(os.path.join(HERE, "small.et.gz"), "wb") as f:
        f.write(gzip.compress(data, mtime=0))
    with open(os.path.join(HERE, "small.json"), "w", encoding="utf-8") as f:
        f.write(json_trace())


if __name__ == "__main__":
    main()
