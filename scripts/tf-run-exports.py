#!/usr/bin/env python3
"""Runs tfFunction exports (model.json + weights shard) in real TensorFlow.

    python scripts/tf-run-exports.py MANIFEST.json > RESULTS.json
    python scripts/tf-run-exports.py --op-defs OP... > OP-DEFS.json

test/runtime/tf-export-in-tensorflow.test.ts writes the manifest and reads the results; one process
runs every model. The manifest:

    {"models": [{"name": ..., "dir": <folder with model.json>,
                 "inputs": {<placeholder>: {"dtype", "shape", "values"}},
                 "outputs": [<output node>, ...],
                 "callbacks": [{"token", "name", "op", "Tout": [dtype, ...]}]}],
     "opDefs": [<op>, ...]}

Each model is put back together as tensorflowjs_converter took it apart: modelTopology is a
GraphDef in proto3 JSON, each Const's value is the weight of the same name in the shard. Before
import every node is checked against TensorFlow's op registry: an op it lacks, an attr its op does
not define (TensorFlow itself only logs those), a required attr missing, each is reported. The graph is imported with
tf.graph_util.import_graph_def and run in a Session. A callback node's token is registered with
the Python function of the same name below (CALLBACKS), as tf.py_function / tf.numpy_function /
tf.compat.v1.py_func register theirs.

Prints {"tensorflow": version, "models": {name: {"outputs": [{dtype, shape, values}]} or
{"error": message, "problems": [...]}}, "opDefs": {op: definition}}: NaN and infinities as the
strings "NaN", "Infinity", "-Infinity"; each op of opDefs as runtime/trace/tf-op-defs.ts writes it.
"""

import json
import math
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
from google.protobuf import json_format  # noqa: E402
from tensorflow.core.framework import graph_pb2  # noqa: E402
from tensorflow.python.framework import op_def_registry  # noqa: E402
from tensorflow.python.ops import script_ops  # noqa: E402

tf.get_logger().setLevel("ERROR")
tf.config.threading.set_intra_op_parallelism_threads(1)
tf.config.threading.set_inter_op_parallelism_threads(1)

DTYPES = {"float32": np.float32, "int32": np.int32, "bool": np.bool_}


# The JS callbacks of the test, as TensorFlow's callbacks would be written. EagerPyFunc's get
# tensors (tf.py_function), PyFunc's and PyFuncStateless's NumPy arrays (tf.numpy_function, py_func);
# a JS callback returning a typed array returns a flat one.
def cube(x):
    return x * tf.square(x)


def shift(a):
    return (a + np.float32(0.25)).astype(np.float32).reshape(-1)


def halve(a, k):
    return (a / k).astype(np.float32).reshape(-1)


def count_positive(x):
    return tf.reduce_sum(tf.cast(x > 0, tf.int32))


CALLBACKS = {"cube": cube, "shift": shift, "halve": halve, "count_positive": count_positive}


def main():
    if sys.argv[1] == "--op-defs":
        json.dump({"tensorflow": tf.__version__, "ops": {op: op_def(op) for op in sys.argv[2:]}}, sys.stdout)
        return
    with open(sys.argv[1], encoding="utf8") as f:
        manifest = json.load(f)
    keep = []  # the registry holds its functions weakly
    results = {}
    for model in manifest["models"]:
        try:
            results[model["name"]] = run_model(model, keep)
        except Exception as e:  # noqa: BLE001: every failure is a result, the next model still runs
            results[model["name"]] = {"error": f"{type(e).__name__}: {first_lines(str(e))}"}
    op_defs = {op: op_def(op) for op in manifest.get("opDefs", [])}
    json.dump({"tensorflow": tf.__version__, "models": results, "opDefs": op_defs}, sys.stdout, allow_nan=False, default=str)


def run_model(model, keep):
    folder = model["dir"]
    with open(os.path.join(folder, "model.json"), encoding="utf8") as f:
        model_json = json.load(f)
    graph_def = json_format.ParseDict(model_json["modelTopology"], graph_pb2.GraphDef())
    problems = registry_problems(graph_def)
    if problems:
        return {"error": f"{len(problems)} node(s) TensorFlow's op registry refuses", "problems": problems}
    fill_consts(graph_def, folder, model_json["weightsManifest"])
    for cb in model["callbacks"]:
        func = CALLBACKS[cb["name"]]
        if cb["op"] == "EagerPyFunc":
            func = script_ops.EagerFunc(func, [tf.as_dtype(d) for d in cb["Tout"]], False)
        keep.append(func)
        script_ops._py_funcs._funcs[cb["token"]] = func  # the token the graph's node names
    graph = tf.Graph()
    with graph.as_default():
        tf.graph_util.import_graph_def(graph_def, name="")
    feed = {
        graph.get_tensor_by_name(f"{name}:0"): np.array(spec["values"], dtype=DTYPES[spec["dtype"]]).reshape(spec["shape"])
        for name, spec in model["inputs"].items()
    }
    fetches = [graph.get_tensor_by_name(f"{name}:0") for name in model["outputs"]]
    with tf.compat.v1.Session(graph=graph) as session:
        got = session.run(fetches, feed_dict=feed)
    return {"outputs": [tensor_json(np.asarray(v)) for v in got]}


def first_lines(message):
    """The message's lines as one (TensorFlow's runtime errors say the cause after the node), cut at 1,000 characters."""
    return " ".join(line.strip() for line in message.strip().splitlines() if line.strip())[:1000]


def op_def(op):
    """An op's attrs and outputs as runtime/trace/tf-op-defs.ts writes them: `T:fi keep_dims -> T`,
    a type attr with the export's dtypes it allows (f float32, i int32, b bool; * any type), then
    the outputs: a type attr, or a fixed dtype. None for an op TensorFlow lacks."""
    found = op_def_registry.get(op)
    if found is None:
        return None
    attrs = []
    for a in found.attr:
        if a.type != "type":
            attrs.append(a.name)
        elif not a.HasField("allowed_values"):
            attrs.append(f"{a.name}:*")
        else:
            allowed = {tf.as_dtype(t).name for t in a.allowed_values.list.type}
            attrs.append(f"{a.name}:{''.join(d[0] for d in DTYPES if d in allowed)}")
    outputs = [o.type_attr or o.type_list_attr or tf.as_dtype(o.type).name for o in found.output_arg]
    return " ".join([*attrs, "->", *outputs])


def registry_problems(graph_def):
    """Ops TensorFlow lacks, attrs their op does not define, required attrs not given."""
    problems = []
    for node in graph_def.node:
        op_def = op_def_registry.get(node.op)
        if op_def is None:
            problems.append(f"{node.name}: op '{node.op}' is not registered in TensorFlow")
            continue
        defined = {a.name: a for a in op_def.attr}
        extra = sorted(set(node.attr) - set(defined))
        if extra:
            problems.append(f"{node.name} ({node.op}): attr(s) {', '.join(extra)} not defined by TensorFlow's {node.op}")
        for name, attr in defined.items():
            if name not in node.attr and not attr.HasField("default_value") and not (node.op == "Const" and name == "value"):
                problems.append(f"{node.name} ({node.op}): required attr {name} missing")
    return problems


def fill_consts(graph_def, folder, weights_manifest):
    """Each Const's `value` from the shard, as tensorflowjs_converter took it out."""
    values = {}
    for group in weights_manifest:
        data = b"".join(open(os.path.join(folder, p), "rb").read() for p in group["paths"])
        offset = 0
        for w in group["weights"]:
            dtype = np.dtype(DTYPES[w["dtype"]])
            count = int(np.prod(w["shape"], dtype=np.int64))
            values[w["name"]] = np.frombuffer(data, dtype=dtype, count=count, offset=offset).reshape(w["shape"])
            offset += count * dtype.itemsize
    for node in graph_def.node:
        if node.op == "Const":
            node.attr["value"].tensor.CopyFrom(tf.make_tensor_proto(values[node.name]))


def tensor_json(a):
    flat = a.reshape(-1)
    if a.dtype == np.bool_:
        vals = [bool(v) for v in flat]
    elif np.issubdtype(a.dtype, np.integer):
        vals = [int(v) for v in flat]
    else:
        vals = [float_json(float(v)) for v in flat]
    return {"dtype": a.dtype.name, "shape": list(a.shape), "values": vals}


def float_json(v):
    if math.isnan(v):
        return "NaN"
    if math.isinf(v):
        return "Infinity" if v > 0 else "-Infinity"
    return v


if __name__ == "__main__":
    main()
