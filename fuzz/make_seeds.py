#!/usr/bin/env python3
"""Writes the small hand-made fuzz seeds under fuzz/seeds/<target>/.

Each seed is a minimal but complete artifact of its kind, so that the fuzzer
starts from inputs that reach deep into the reader (real files are large and
slow to mutate).  Run again after changing it; the output is deterministic.
"""
import gzip
import io
import json
import os
import shutil
import struct
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def header(kind):
    return {"header_version": {"major": 1, "minor": 0, "patch": 0},
            "version": {"major": 1, "minor": 1, "patch": 0}, "artifact_type": kind}


def op_args(op_id, start, dur, qnn_name="conv_0", flags=("uses_hmx",)):
    return {"ID": op_id, "HTP Op Type": "ConvLayer.opt", "Dims": [1, 8, 8, 16],
            "Data Type": "QUInt8", "Rank": 4, "Step Size": 0.5, "Zero Offset": 0,
            "Inputs Ops": ["0x0000000000000011"], "Flags": list(flags),
            "Cycles per Packet": 2.5, "QNN Op Type": "Conv2d", "QNN Op Name": qnn_name,
            "Start Cycle": start, "Duration (cycles)": dur, "Dominant Path Cycles": dur}


def optrace():
    origin = 1000000
    events = [
        {"cat": "__metadata", "pid": 0, "ph": "M", "name": "process_name",
         "args": {"name": "Core 0 Overview"}},
        {"cat": "__metadata", "pid": 2, "ph": "M", "name": "process_name",
         "args": {"name": "QNN::conv_0", "opid": "0x0000000000000002"}},
        {"cat": "__metadata", "pid": 2, "ph": "M", "name": "process_sort_index",
         "args": {"sort_index": 2}},
        {"cat": "__metadata", "pid": 0, "tid": 256, "ph": "M", "name": "thread_name",
         "args": {"name": "Type: HMX"}},
        {"name": "ConvLayer.opt", "ph": "X", "tid": 256, "pid": 0, "ts": 10, "dur": 300,
         "args": op_args("0x0000104900000002", origin + 10, 300)},
        {"name": "ConvLayer.opt", "ph": "X", "tid": 256, "pid": 2, "ts": 10, "dur": 300,
         "args": op_args("0x0000104900000002", origin + 10, 300)},
        {"name": "Relu", "ph": "X", "tid": 512, "pid": 0, "ts": 320, "dur": 50,
         "args": op_args("0x0000105000000003", origin + 320, 90, "relu_1", ("uses_hvx",))},
        {"name": "Relu", "ph": "X", "tid": 513, "pid": 0, "ts": 330, "dur": 80,
         "args": op_args("0x0000105000000003", origin + 320, 90, "relu_1", ("uses_hvx",))},
        {"name": "DmaCheckpointWait", "ph": "X", "tid": 256, "pid": 0, "ts": 420, "dur": 5,
         "args": op_args("0x0000109900000002", origin + 420, 5, "conv_0", ("dma_wait",))},
        {"name": "$Const", "ph": "X", "tid": 1, "pid": 0, "ts": 5, "dur": 5,
         "args": {"ID": "0x0000000000000011", "HTP Op Type": "$Const", "Dims": [16],
                  "Data Type": "QUInt8", "Rank": 1, "Step Size": 1, "Zero Offset": 0}},
        {"name": "VTCM alloc", "ph": "C", "tid": 0, "pid": 0, "ts": 10, "args": {"": 65536}},
        {"name": "VTCM alloc", "ph": "C", "tid": 0, "pid": 0, "ts": 425, "args": {"": 0}},
        {"cat": "input_output", "name": "InputOutputFlowEvents", "tid": 1, "pid": 0, "ts": 8,
         "ph": "s", "id": 0},
        {"cat": "input_output", "name": "InputOutputFlowEvents", "tid": 256, "pid": 0, "ts": 10,
         "ph": "f", "bp": "e", "id": 0},
    ]
    return json.dumps({"header": header("OP_TRACE"), "traceEvents": events}, indent=1)


def runtrace():
    def phase(name, t0, t1, c0, c1):
        return {"name": name, "ph": "X", "tid": 0, "pid": 0, "ts": t0 - 1000, "dur": t1 - t0,
                "args": {"graph_name": "model", "stat_start_ticks": t0, "stat_end_ticks": t1,
                         "stat_start_cycles": c0, "stat_end_cycles": c1,
                         "summary_htp_frequency_ghz": 1.0, "summary_inf/s": 1000.0,
                         "summary_time_us": (t1 - t0) / 19.2}}
    events = [
        {"cat": "__metadata", "pid": 0, "tid": 0, "ph": "M", "name": "thread_name",
         "args": {"name": "Run"}},
        phase("QNN DSP Execute", 1000, 3000, 500000, 600000),
        phase("VTCM Acquire", 1100, 1200, 505000, 510000),
        phase("Graph Execute", 1300, 2900, 515000, 595000),
        phase("QNN DSP Execute", 4000, 5000, 700000, 750000),
        phase("Graph Execute", 4100, 4900, 705000, 745000),
    ]
    return json.dumps({"header": header("RUN_TRACE"), "traceEvents": events}, indent=1)


def htp_graph():
    graph = {
        "header": header("HTP_GRAPH"), "model.cpp": "htp_graph",
        "op_types": ["ConvLayer.opt", "Relu"],
        "graph": {
            "tensors": {
                "0x0000000000000011": {"id": 0, "type": 4, "data_type": 1032, "dims": [16]},
                "0x0000104900000002": {"id": 1, "type": 3, "data_type": 1032,
                                       "dims": [1, 8, 8, 16]},
            },
            "nodes": {
                "0x0000104900000002": {
                    "type": "ConvLayer.opt", "grouping": "conv_0",
                    "input_names": ["0x0000000000000011"],
                    "output_names": ["0x0000104900000002"],
                    "scalar_params": {"cycles": {"100": 300}, "cycles_per_packet": {"100": 2.5},
                                      "name": {"0": "conv"}, "flag": {"1": True}}},
                "0x0000105000000003": {
                    "type": "Relu", "grouping": "relu_1",
                    "input_names": ["0x0000104900000002"],
                    "output_names": ["0x0000105000000003"], "scalar_params": {}},
            },
        },
    }
    return json.dumps(graph, indent=1)


def qhas():
    traffic = {"dram_read": 1024, "dram_write": 0, "vtcm_read": 2048, "vtcm_write": 4096}
    data = {
        "htp_overall_summary": {"data": [dict({
            "htp": 0, "percent_idle": 10.5, "percent_utilization": 89.5, "time_us": 12.5,
            "graph_execute_us": 20.0, "inf_per_s": 50000.0, "timeline_cycles": 425,
            "total_dram_read": 1024, "total_dram_write": 0, "total_dram": 1024,
            "total_vtcm_read": 2048, "total_vtcm_write": 4096, "total_vtcm": 6144,
            "peak_vtcm_alloc": 65536, "unique_qnn_ops": 2, "qnn_nodes": 2,
            "unique_htp_ops": 3, "htp_nodes": 3,
            "htp_resources": {"data": [
                dict({"type": "HMX", "tid": 256, "start_cycle": 1000010, "end_cycle": 1000425,
                      "timeline_cycles": 415, "cycles_used": 305, "utilization": 73.5}, **traffic),
                dict({"type": "HVX", "tid": 512, "start_cycle": 1000320, "end_cycle": 1000370,
                      "timeline_cycles": 50, "cycles_used": 50, "utilization": 12.0}, **traffic),
            ]}})]},
        "qnn_op_types": {"data": [dict({"qnn_op_type": "Conv2d", "cycles": 300,
                                        "percent_active_cycles": 70.0,
                                        "num_dominant_path_cycles": 300,
                                        "percent_dominant_path_cycles": 70.0,
                                        "instances": 1}, **traffic)]},
        "qnn_op_instances_nodes": {"data": [dict({"qnn_op": "conv_0", "qnn_op_type": "Conv2d",
                                                  "cycles": 300, "num_dominant_path_cycles": 300,
                                                  "num_htp_ops": 1, "format_change": False,
                                                  "reference_op": False}, **traffic)]},
        "htp_op_types": {"data": [dict({"op": "ConvLayer.opt", "cycles": 300,
                                        "num_dominant_path_cycles_htp_0": 300,
                                        "instances": 1}, **traffic)]},
        "htp_op_instances": {"data": [dict({
            "htp": 0, "tid": 256, "op_id": "0x0000104900000002", "htp_op": "ConvLayer.opt",
            "qnn_op": "conv_0", "qnn_op_type": "Conv2d", "dtype": "QUInt8", "rank": 4,
            "dims": [1, 8, 8, 16], "step_size": 0.5, "zero_offset": 0,
            "input_nodes": ["0x0000000000000011"], "start_cycle": 1000010, "cycles": 300,
            "num_dominant_path_cycles": 300, "percent_dominant_path_cycles": 70.0,
            "cycles_per_packet": 2.5, "fmt_change": False, "ref_op": False, "hmx": True,
            "hvx": False, "dma_wait": False, "dma_set": False, "dma": False, "sync": False},
            **traffic)]},
        "dominant_path_htp_0": {"data": [
            {"op_id": "0x0000104900000002", "htp_op": "ConvLayer.opt", "qnn_op": "conv_0",
             "start_cycle": 1000010, "end_cycle": 1000310, "partial": False, "dp_cycles": 300,
             "cycles": 300},
            {"op_id": "0x0000000000000000", "htp_op": "Accumulated Idle", "qnn_op": "",
             "start_cycle": 1000310, "end_cycle": 1000320, "partial": True, "dp_cycles": 10,
             "cycles": 10}]},
    }
    return json.dumps({"header": header("QHAS"), "model_id": "model", "data": data}, indent=1)


def npy(descr, shape, payload, version=1):
    text = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (
        descr, "(" + "".join("%d, " % d for d in shape) + ")" if len(shape) != 1
        else "(%d,)" % shape[0])
    length_bytes = 2 if version == 1 else 4
    total = 8 + length_bytes + len(text) + 1
    text += " " * ((64 - total % 64) % 64) + "\n"
    length = struct.pack("<H" if version == 1 else "<I", len(text))
    return b"\x93NUMPY" + bytes([version, 0]) + length + text.encode("latin1") + payload


def manifest():
    return json.dumps({"version": 1, "tensors": [
        {"name": "raw_a", "file": "a.raw", "dtype": "uint8", "shape": [1, 4, 4],
         "layout": "NCW", "quantization": {"scale": 0.5, "offset": 3}, "debug_handle": 3,
         "output_index": 0, "ops": ["conv_0"]},
        {"name": "raw_a16", "file": "a.raw", "dtype": "int16", "shape": [2, 4],
         "byte_order": "big", "quantization": {"scale": [0.1, 0.2], "qnn_offset": [1, 2],
                                               "axis": 0}, "ops": "relu_1"},
        {"name": "b", "file": "b.npy", "shape": [2, 2], "dtype": "float32", "layout": None},
    ]}, indent=1)


PROFILE_TEXT = """qnn-profile-viewer: v2.45.0.250101

Init Stats:
-----------
    NetRun: 21345 us
    Backend (DSP:before_context_created): 928212  bytes

Compose Graphs Stats:
--------------
    NetRun: 45 us

Execute Stats (Average):
------------------------
Total Inference Time:
---------------------
   NetRun:  9120 us
   Backend (RPC (execute) time): 8800  us
   Backend (QNN accelerator (execute) time): 8105  us
   Backend (Num times yield occured): 0  count
   Backend (Accelerator (critical path execute) time (cycles)): 1000000  cycles
      Input OpId_2 (cycles): 0  cycles
            Wait (Scheduler) time: 0  cycles
            Overlap time: 0  cycles
            Overlap (wait) time: 0  cycles
            Resources:
      net_conv1_Conv2D:OpId_20 (cycles): 300000  cycles
            Wait (Scheduler) time: 40  cycles
            Overlap time: 150000  cycles
               net_mul_mul:OpId_30
               Output OpId_3
            Overlap (wait) time: 40  cycles
               net_conv1_Conv2D:OpId_20
            Resources: HVX, HMX, DMA

De-Init Stats:
--------------
    NetRun: 120 us
    Backend (DSP:after_context_freed): 928212  bytes
"""

RAW_DUMP = """Create From Binary Stats:
-------------------------
    QNN (create from binary) time : 12000  us

Execute Stats:
--------------
Execute Stat 1
--------------
    QNN accelerator (execute) time : 1100  us
    Accelerator (execute) time : 900  us
    Accelerator (execute) time (cycles) : 1800000  cycles
        Input OpId_2 (cycles) : 3030  cycles
        conv_0:OpId_19 (cycles) : 87938  cycles
    Unknown event type :   object
Execute Stat 2
--------------
    QNN accelerator (execute) time : 1005  us
    Accelerator (execute) time : 880  us
    Accelerator (execute) time (cycles) : 1750000  cycles
        conv_0:OpId_19 (cycles) : 86000  cycles
"""

SNPE_LINT = """Per-Graph Execution Times:
---------------
HTP Subnet 0: 4327266 cycles

Layer Times:
---------------
  2: model_convStart_Conv2D:OpId_21 (cycles) : 147075 cycles : DSP
    Wait (Scheduler) time: 32 cycles
    Overlap time: 85292 cycles
      model_sub_sub:OpId_57
      Output OpId_3
    Overlap (wait) time: 32 cycles
      model_convStart_Conv2D:OpId_21
    Resources: HVX, HMX, DMA
"""

PROFILE_CSV = """Msg Timestamp,Message,Time,Unit of Measurement,Timing Source,Event Level,Event Identifier
UNKNOWN,INIT,928212,BYTES,BACKEND,ROOT,DSP:before_context_created
UNKNOWN,EXECUTE,3100,US,BACKEND,ROOT,QNN accelerator (execute) time
UNKNOWN,EXECUTE,2500,US,BACKEND,ROOT,Accelerator (execute) time
UNKNOWN,EXECUTE,4800000,CYCLES,BACKEND,ROOT,Accelerator (execute) time (cycles)
UNKNOWN,NODE,87938,CYCLES,BACKEND,SUB-EVENT,conv,with,commas:OpId_19 (cycles)
UNKNOWN,EXECUTE,3000,US,BACKEND,ROOT,QNN accelerator (execute) time
UNKNOWN,EXECUTE,2400,US,BACKEND,ROOT,Accelerator (execute) time
UNKNOWN,DE-INIT,928212,BYTES,BACKEND,ROOT,DSP:after_context_freed
"""

# QAIRT 2.47 viewer CSV at linting level: preamble, ", " header, two graphs,
# quoted Time values, sub-events three levels deep, a BOM.
QAIRT_CSV = ("\ufeffinput log file location, ./qnn-profiling-data.log\n"
             "qnn-profile-viewer version, v2.47.0.260601114230\n"
             "Backend version, v2.47.0.260601114230\n"
             "Msg Timestamp, Message, Time, Unit of Measurement, Timing Source, Event Level, "
             "Event Identifier\n"
             "0,INIT,0,US,NETRUN,ROOT,null\n"
             "81234567,EXECUTE,1500000,US,NETRUN,ROOT,Graph 0: model.prefill\n"
             "81234567,EXECUTE,4,COUNT,BACKEND,ROOT,Number of HVX threads used\n"
             "81234567,EXECUTE,20000,CYCLES,BACKEND,ROOT,"
             "Accelerator (critical path execute) time (cycles)\n"
             "81234567,EXECUTE,5000,CYCLES,BACKEND,SUB-EVENT,blocks.0.norm:OpId_31 (cycles)\n"
             "81234567,EXECUTE,20,CYCLES,BACKEND,SUB-SUB-EVENT,Wait (Scheduler) time\n"
             "81234567,EXECUTE,4000,CYCLES,BACKEND,SUB-SUB-EVENT,Overlap time\n"
             "81234567,EXECUTE,\"\",CYCLES,BACKEND,SUB-SUB-SUB-EVENT,blocks.0.attn.q_proj:OpId_40 \n"
             "81234567,EXECUTE,15,CYCLES,BACKEND,SUB-SUB-EVENT,Overlap (wait) time\n"
             "81234567,EXECUTE,\"HVX, DMA\",CYCLES,BACKEND,SUB-SUB-EVENT,Resources\n"
             "81234567,EXECUTE,\"1,000\",US,BACKEND,ROOT,\"QNN accelerator (execute) time\"\n"
             "81236100,EXECUTE,31000,US,NETRUN,ROOT,Graph 1: model.decode\n"
             "81236100,EXECUTE,4000,CYCLES,BACKEND,ROOT,"
             "Accelerator (critical path execute) time (cycles)\n"
             "81236100,EXECUTE,4000,CYCLES,BACKEND,SUB-EVENT,\"q_proj, \"\"fused\"\":OpId_40 (cycles)\"\n"
             "81240000,DE-INIT,900,US,BACKEND,ROOT,RPC (deinit) time\n")

# ONNX Runtime's flat layout: linting rows and overlapping op names as SUB-EVENT.
ORT_LINT_CSV = """Msg Timestamp,Message,Time,Unit of Measurement,Timing Source,Event Level,Event Identifier
UNKNOWN,BACKEND,1000,CYCLES,BACKEND,ROOT,Accelerator (critical path execute) time (cycles)
UNKNOWN,NODE,600,CYCLES,BACKEND,SUB-EVENT,a_div:OpId_5 (cycles)
UNKNOWN,BACKEND,10,CYCLES,BACKEND,SUB-EVENT,Wait (Scheduler) time
UNKNOWN,BACKEND,100,CYCLES,BACKEND,SUB-EVENT,Overlap time
UNKNOWN,BACKEND,,CYCLES,BACKEND,SUB-EVENT,b:OpId_6
UNKNOWN,BACKEND,HVX,CYCLES,BACKEND,SUB-EVENT,Resources
UNKNOWN,NODE,390,CYCLES,BACKEND,SUB-EVENT,b:OpId_6 (cycles)
"""

# The raw dump of two graphs, named by NETRUN lines, at linting level.
RAW_GRAPHS = """qnn-profile-viewer: v2.47.0.260601114230
qnn-net-run: v2.47.0.260601114230
Backend: v2.47.0.260601114230
Execute Stats (Average):
Graph 0 (model.prefill):
    NetRun:  1460000 us
Printing All Data Received From Back End
Execute Stats: 
Graph 0 (model.prefill):
Execute Stat 1
Graph 0: model.prefill : 1500000  us
Accelerator (critical path execute) time (cycles) : 20000  cycles
    blocks.0.norm:OpId_31 (cycles) : 5000  cycles
        Wait (Scheduler) time : 20  cycles
        Overlap time : 4000  cycles
            blocks.0.attn.q_proj:OpId_40  :   cycles
        Resources : HVX, DMA  cycles
Graph 1 (model.decode):
Execute Stat 1
Accelerator (execute) time (cycles) : 11000  cycles
    Output OpId_3 (cycles) : 11000  cycles
"""

HEAP_FILE = """DSP:before_context_created (bytes), 928212
DSP:after_context_freed (bytes), 928212
"""


def qnn_profile():
    def event(identifier, unit, typ, value, subs=()):
        return {"identifier": identifier, "unit": unit, "type": typ, "value": value,
                "sub-events": list(subs)}
    return json.dumps({
        "header": {"artifact_type": "QNN_PROFILE"},
        "metadata": {"appName": "qnn-net-run", "appVersion": "2.49.0",
                     "backendVersion": "2.49.0", "qnnProfileViewerVersion": "2.49.0"},
        "messages": [
            {"method": "BACKEND_CREATE_FROM_BINARY", "profilingEvents": [
                event("DSP:before_context_created", "BYTES", "INIT", 928212)]},
            {"method": "BACKEND_EXECUTE", "profilingEvents": [
                event("QNN accelerator (execute) time", "MICROSEC", "EXECUTE", 1100),
                event("Accelerator (execute) time (cycles)", "CYCLES", "EXECUTE", 1800000, [
                    event("conv_0:OpId_19 (cycles)", "CYCLES", "NODE", 87938)])]},
            {"method": "BACKEND_DEINIT", "profilingEvents": [
                event("DSP:after_context_freed", "BYTES", "DEINIT", 928212)]},
        ]}, indent=1)


def speedscope_sampled():
    frames = [{"name": "<module>", "file": "lower.py", "line": 1},
              {"name": "prepare_pt2e", "file": "torchao/quantization/pt2e/quantize_pt2e.py",
               "line": 88},
              {"name": "define_node", "file": "executorch/backends/qualcomm/builders/node_visitor.py",
               "line": 184},
              {"name": "gc_collect_main", "file": "Python/gcmodule.c"}]
    profile = {"type": "sampled", "name": "MainThread", "unit": "seconds", "startValue": 0,
               "endValue": 0.05, "samples": [[0, 1], [0, 2], [0, 2, 3]],
               "weights": [0.01, 0.03, 0.01]}
    return json.dumps({"$schema": "https://www.speedscope.app/file-format-schema.json",
                       "exporter": "py-spy@0.3.14", "profiles": [profile],
                       "shared": {"frames": frames}}, indent=1)


def speedscope_evented():
    events = [{"type": "O", "frame": 0, "at": 0}, {"type": "O", "frame": 1, "at": 2},
              {"type": "C", "frame": 1, "at": 5}, {"type": "C", "frame": 0, "at": 9}]
    return json.dumps({"shared": {"frames": [{"name": "main"}, {"name": "compile"}]},
                       "profiles": [{"type": "evented", "name": "t", "unit": "microseconds",
                                     "startValue": 0, "endValue": 9, "events": events}]})


# py-spy --format raw --threads, austin 3 (header, full mode) and austin 1.
PYSPY_RAW = ("thread (0x7F1E2D3C4B40): MainThread;<module> (lower.py:40);prepare_pt2e "
             "(torch/ao/quantization/quantize_pt2e.py:120) 30\n"
             "process 12:\"python lower.py\";<module> (lower.py:40);main (lower.py:35) 8\n")
AUSTIN3 = ("# austin: 3.6.0\n# interval: 100\n# mode: full\n# memory: 16000000\n\n"
           "P4242;T0:7f1e2d3c4b40;/src/lower.py:<module>:40;/src/lower.py:main:33 150,0,4096\n"
           "P4242;T0:7f1e2d3c4b40;/src/lower.py:main:35;:GC: 100,1,-4096\n\n"
           "# duration: 600\n# gc: 100\n")
AUSTIN1 = ("Thread 556798751e40;<module> (w.py);L16;main (w.py);L13 1064\n"
           "Thread 556798751e40;Bad sample 12\n")


def etdump_seeds():
    """ETDumps written by Debian's flatc from JSON against the reader's schema
    (src/formats/etdump_schema.fbs, ExecuTorch's field ids); none without flatc."""
    schema = os.path.join(HERE, "..", "src", "formats", "etdump_schema.fbs")
    if shutil.which("flatc") is None:
        return {}
    tensor = {"scalar_type": "FLOAT", "sizes": [2, 3], "strides": [3, 1], "offset": 64}
    documents = {
        "profile.etdp": {"version": 0, "run_data": [
            {"name": "Default", "allocators": [{"name": "planned"}], "events": [
                {"allocation_event": {"allocator_id": 0, "allocation_size": 4096}},
                {"profile_event": {"name": "Method::init", "start_time": 10, "end_time": 30}}]},
            {"name": "Execute", "events": [
                {"profile_event": {"name": "native_call_convolution.out", "instruction_id": 0,
                                   "start_time": 100, "end_time": 900}},
                {"profile_event": {"delegate_debug_id_str": "conv_0__debugID_1",
                                   "delegate_debug_metadata": [1, 2], "start_time": 0,
                                   "end_time": 5000}},
                {"profile_event": {"delegate_debug_id_int": 3, "start_time": 0,
                                   "end_time": 70}}]}]},
        # As ExecuTorch's QNN delegate writes its per-node events: two
        # executions, two delegate calls (formats/etdump_profile.h).
        "qnn_delegate.etdp": {"version": 0, "run_data": [
            {"name": "Default", "events": [
                {"profile_event": {"name": "Method::init", "start_time": 1, "end_time": 2}}]}] + [
            {"name": "Execute", "events": [
                {"profile_event": {"delegate_debug_id_str": "QNN accelerator (execute) time (us)",
                                   "instruction_id": 3, "start_time": 0, "end_time": 40}},
                {"profile_event": {"delegate_debug_id_str": "Accelerator (execute) time (cycles)",
                                   "instruction_id": 3, "start_time": 0, "end_time": cycles}},
                {"profile_event": {"delegate_debug_id_str": "conv:OpId_7 (cycles)",
                                   "instruction_id": 3, "start_time": 0, "end_time": cycles}},
                {"profile_event": {"delegate_debug_id_str": "Input OpId_2 (cycles)",
                                   "instruction_id": 5, "start_time": 0, "end_time": 0}},
                {"profile_event": {"name": "DELEGATE_CALL", "instruction_id": 3,
                                   "start_time": 10, "end_time": 90}},
                {"profile_event": {"name": "Method::execute", "start_time": 5,
                                   "end_time": 95}}]} for cycles in (500, 210)]},
        "debug.etdp": {"run_data": [{"name": "Execute", "events": [
            {"debug_event": {"delegate_debug_id_int": 1, "debug_entry": {
                "val": "Tensor", "tensor": tensor}}},
            {"debug_event": {"name": "aten.add", "debug_entry": {
                "val": "TensorList", "output": {"bool_val": True},
                "tensor_list": {"tensors": [tensor, dict(tensor, scalar_type="BFLOAT16")]}}}},
            {"debug_event": {"delegate_debug_id_str": "relu", "debug_entry": {
                "val": "Double", "double_value": {"double_val": 0.5}}}}]}]},
    }
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, document in documents.items():
            source = os.path.join(tmp, name.replace(".etdp", ".json"))
            with open(source, "w") as f:
                json.dump(document, f)
            subprocess.run(["flatc", "-b", "--size-prefixed", "-o", tmp, schema, source],
                           check=True)
            with open(os.path.join(tmp, name), "rb") as f:
                out[name] = f.read()
    return out


def gz(data, mtime=0):
    out = io.BytesIO()
    with gzip.GzipFile(fileobj=out, mode="wb", mtime=mtime) as f:
        f.write(data)
    return out.getvalue()


def json_keys(value, out):
    if isinstance(value, dict):
        for key, inner in value.items():
            out.add(key)
            json_keys(inner, out)
    elif isinstance(value, list):
        for inner in value:
            json_keys(inner, out)


def write_dict(target, *seed_texts):
    """A libFuzzer dictionary: the keys the reader looks for, JSON tokens, and
    numbers at the edges of int64 and uint32 (overflow in later arithmetic)."""
    keys = set()
    for text in seed_texts:
        json_keys(json.loads(text), keys)
    tokens = ['"{"', '"}"', '"["', '"]"', '","', '":"', '"true"', '"false"', '"null"', '"-"',
              '"1e309"', '"9223372036854775808"', '"-9223372036854775809"', '"0x"', '"\\\\u0000"',
              '"NaN"', '"Infinity"', '"\\xff"', '"9223372036854775807"',
              '"-9223372036854775807"', '"-9223372036854775808"', '"4294967296"', '"2147483648"',
              '"-1"', '"1e18"', '"0.5"']
    lines = ["# libFuzzer dictionary for %s_fuzz, written by fuzz/make_seeds.py" % target]
    lines += ["kw%d=%s" % (i, t) for i, t in enumerate(tokens)]
    lines += ['key_%d="\\"%s\\""' % (i, k.replace("\\", "\\\\").replace('"', '\\"'))
              for i, k in enumerate(sorted(keys))]
    os.makedirs(os.path.join(HERE, "dicts"), exist_ok=True)
    with open(os.path.join(HERE, "dicts", target + ".dict"), "w") as f:
        f.write("\n".join(lines) + "\n")


def write_text_dict(target, tokens):
    """A libFuzzer dictionary of the keywords a line-oriented reader looks for."""
    def quote(t):
        out = ""
        for ch in t.encode():
            if ch == 0x22 or ch == 0x5c:
                out += "\\" + chr(ch)
            elif 0x20 <= ch < 0x7f:
                out += chr(ch)
            else:
                out += "\\x%02x" % ch
        return '"' + out + '"'
    lines = ["# libFuzzer dictionary for %s_fuzz, written by fuzz/make_seeds.py" % target]
    lines += ["kw%d=%s" % (i, quote(t)) for i, t in enumerate(tokens)]
    os.makedirs(os.path.join(HERE, "dicts"), exist_ok=True)
    with open(os.path.join(HERE, "dicts", target + ".dict"), "w") as f:
        f.write("\n".join(lines) + "\n")


def main():
    seeds = {
        "optrace": {"minimal.json": optrace()},
        "runtrace": {"minimal.json": runtrace()},
        "htp_graph": {"minimal.json": htp_graph()},
        "qhas": {"minimal.json": qhas()},
        "tensor_manifest": {"manifest.json": manifest()},
        "profile_text": {"linting.txt": PROFILE_TEXT, "raw_dump.txt": RAW_DUMP,
                         "snpe_lint.txt": SNPE_LINT, "raw_graphs.txt": RAW_GRAPHS},
        "profile_csv": {"profile.csv": PROFILE_CSV, "qairt247.csv": QAIRT_CSV.encode(),
                        "ort_lint.csv": ORT_LINT_CSV},
        "heap_profile": {"htp_heap_usage.txt": HEAP_FILE, "qnn_profile.json": qnn_profile()},
        # summary_fuzz: optrace, then the runtrace and QHAS after their marks
        "summary": {"run.txt": optrace() + "\n@@runtrace@@\n" + runtrace() + "\n@@qhas@@\n" +
                    qhas()},
        "sampling_profile": {"speedscope.json": speedscope_sampled(),
                             "evented.json": speedscope_evented(), "pyspy_raw.txt": PYSPY_RAW,
                             "austin3.txt": AUSTIN3, "austin1.txt": AUSTIN1},
        "npy": {
            "f4_2x3.npy": npy("<f4", [2, 3], struct.pack("<6f", 1, -2, 3.5, 0, 1e30, -0.0)),
            "be_i2_4.npy": npy(">i2", [4], struct.pack(">4h", 1, -1, 32767, -32768)),
            "f2_v2.npy": npy("<f2", [2, 2], struct.pack("<4H", 0x3c00, 0x7c00, 0x7e00, 0x0001),
                             version=2),
            "u8_scalar.npy": npy("|u1", [], b"\x07"),
            "b1_v3.npy": npy("|b1", [3, 1], b"\x00\x01\x02", version=3),
            "i8_0.npy": npy("<i8", [0, 5], b""),
        },
    }
    # AI Hub and Genie profiles: the unit tests' inputs, written from their definitions.
    testdata = os.path.join(HERE, "..", "src", "formats", "testdata")

    def testdata_file(name):
        with open(os.path.join(testdata, name)) as f:
            return f.read()
    seeds["aihub_profile"] = {name: testdata_file("aihub_profile%s.json" % suffix)
                              for name, suffix in (("v1_2.json", ""), ("v0.json", "_v0"),
                                                   ("tetra.json", "_tetra"))}
    seeds["genie_profile"] = {"genie.json": testdata_file("genie_profile.json")}
    # ExecuTorch LLM runner logs: the unit tests' example, an older runner's
    # fields, a CUDA build's GPU fields with CRLF, PyTorch's benchmark observer.
    seeds["llm_runner_stats"] = {
        "example.log": testdata_file("llm_runner_stats.log"),
        "older.log": 'loading\nPyTorchObserver {"prompt_tokens":5,"generated_tokens":9,'
                     '"inference_start_ms":100,"prompt_eval_end_ms":130}\n',
        "gpu_crlf.log": 'I/ExecuTorch: x PyTorchObserver {"prompt_tokens":3,"generated_tokens":4,'
                        '"model_load_start_ms":1,"model_load_end_ms":2,"inference_start_ms":3,'
                        '"inference_end_ms":9,"prompt_eval_end_ms":5,"first_token_ms":5,'
                        '"aggregate_sampling_time_ms":0,"gpu_total_bytes":25769803776,'
                        '"gpu_free_before_load_bytes":25000000000,'
                        '"gpu_free_after_load_bytes":21000000000,'
                        '"gpu_free_after_generate_bytes":20500000000,'
                        '"gpu_peak_usage_mb":5004.25,"SCALING_FACTOR_UNITS_PER_SECOND":1000}\r\n',
        "benchmark.log": 'PyTorchObserver {"type": "NET", "unit": "us", "metric": "latency", '
                         '"value": "5123"}\nPyTorchObserver {"prompt_tokens":1,'
                         '"generated_tokens":2}\n',
    }
    etdumps = etdump_seeds()
    if etdumps:
        seeds["etdump"] = etdumps
    # csv_writer_fuzz: cells split at NUL, rows at 0x01.
    seeds["csv_writer"] = {
        "cells.bin": b"name\x00=HYPERLINK(\"x\")\x01-1.5\x00@SUM(1)\x00a,b\x00\"q\"\x01\tx\x00\r\n",
    }
    gz_seeds = {}
    for target, files in seeds.items():
        if target in ("optrace", "runtrace", "htp_graph", "qhas"):
            gz_seeds["%s.json.gz" % target] = gz(files["minimal.json"].encode())
    plain = b"qnn-profile-viewer: v2.45.0\nExecute Stats (Average):\n  NetRun: 9120 us\n"
    gz_seeds["two_members.gz"] = gz(b'{"header": {"artifact_type": "QHAS"}, ') + gz(b'"data": {}}')
    gz_seeds["profile.txt.gz"] = gz(plain)
    gz_seeds["empty_member.gz"] = gz(b"")
    gz_seeds["plain.txt"] = plain
    # The input layer's edge cases: a byte order mark before JSON, gzip with
    # trailing garbage, zero padding, a member cut short after a whole one.
    bom_qhas = b"\xef\xbb\xbf" + qhas().encode()
    gz_seeds["bom.json"] = bom_qhas
    gz_seeds["bom.json.gz"] = gz(bom_qhas)
    gz_seeds["trailing_garbage.gz"] = gz(plain) + b"\n"
    gz_seeds["zero_padding.gz"] = gz(plain) + bytes(512)
    gz_seeds["cut_second_member.gz"] = gz(plain) + gz(plain)[:14]
    seeds["byte_source"] = gz_seeds
    # html_report_fuzz: title, run label, a key and a value, NUL-separated.
    seeds["html_report"] = {
        "placeholders.txt": b"{{DATA}}\0/*{{JS}}*/ {{TITLE}}\0op\0/*{{CSS}}*/",
        "markup.txt": b"</script><b>&amp;\0run \xe2\x80\xa8\0</title>\0\xff\xfe",
    }
    # text_sanitize_fuzz: any bytes; names with terminal controls.
    seeds["text_sanitize"] = {
        "osc.txt": b"soft\x1b]0;pwned\x07max\r\nFAKE ROW\x1b[2J",
        "c1_bidi.txt": b"\xc2\x9b31m\xe2\x80\xaecba\x9b\xff\xc0\xaf",
    }
    for target in ("optrace", "runtrace", "htp_graph", "qhas", "tensor_manifest"):
        write_dict(target, next(iter(seeds[target].values())))
    write_dict("summary", optrace(), runtrace(), qhas())
    write_dict("aihub_profile", *seeds["aihub_profile"].values())
    write_dict("genie_profile", *seeds["genie_profile"].values())
    write_dict("sampling_profile", speedscope_sampled(), speedscope_evented())
    write_text_dict("profile_csv", [
        "Msg Timestamp", ", ", ",", "\"", "\"\"", "\n", "\r\n", "\ufeff", "ROOT", "SUB-EVENT",
        "SUB-SUB-EVENT", "SUB-SUB-SUB-EVENT", "SUB-", "EXECUTE", "NODE", "INIT", "DE-INIT",
        "COMPOSE GRAPHS", "BACKEND", "NETRUN", "UNKNOWN", "null", "US", "CYCLES", "COUNT",
        "BYTES", "OBJECT", "INF/SEC", "Graph 0: ", "Graph 1: model.decode", " version, ",
        "Accelerator (critical path execute) time (cycles)",
        "Accelerator (execute) time (cycles)", "Wait (Scheduler) time", "Overlap time",
        "Overlap (wait) time", "Resources", "HVX, DMA", ":OpId_", " (cycles)", "1,000",
        "9223372036854775808", "ONNX Source Ops", "DSP:before_context_created"])
    write_text_dict("llm_runner_stats", [
        "PyTorchObserver {", "PyTorchObserver ", "\n", "\r\n", "{", "}", "[", "]", ",", ":",
        "\"", "\\", "-", "1e3", "0.5", "9223372036854775808", "9300000000000000",
        "\"prompt_tokens\":", "\"generated_tokens\":", "\"model_load_start_ms\":",
        "\"model_load_end_ms\":", "\"inference_start_ms\":", "\"inference_end_ms\":",
        "\"prompt_eval_end_ms\":", "\"first_token_ms\":", "\"aggregate_sampling_time_ms\":",
        "\"gpu_total_bytes\":", "\"gpu_free_before_load_bytes\":",
        "\"gpu_free_after_load_bytes\":", "\"gpu_free_after_generate_bytes\":",
        "\"gpu_peak_usage_mb\":", "\"SCALING_FACTOR_UNITS_PER_SECOND\":", "\"metric\":"])
    write_text_dict("profile_text", [
        "qnn-profile-viewer: ", "qnn-net-run: ", "Backend: ", "Execute Stats (Average):",
        "Execute Stats:", "Execute Stat ", "Printing All Data Received From Back End",
        "Total Inference Time:", "Graph 0 (", "Graph 1: ", " : ", "  us", "  cycles", "Backend (",
        "NetRun: ", "Wait (Scheduler) time", "Overlap time", "Overlap (wait) time", "Resources",
        "    ", "\n", ":OpId_", " (cycles)", "Layer Times:", "9223372036854775808"])
    for target, files in seeds.items():
        d = os.path.join(HERE, "seeds", target)
        os.makedirs(d, exist_ok=True)
        for name, content in files.items():
            mode = "wb" if isinstance(content, bytes) else "w"
            with open(os.path.join(d, name), mode) as f:
                f.write(content)


if __name__ == "__main__":
    main()
