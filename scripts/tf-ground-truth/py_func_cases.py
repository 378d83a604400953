#!/usr/bin/env python3
"""Ground truth from real TensorFlow for tf.py_function / tf.numpy_function /
tf.compat.v1.py_func.

Run from the repository root (NOT part of CI):

    TF_CPP_MIN_LOG_LEVEL=3 /root/tf-venv/bin/python scripts/tf-ground-truth/py_func_cases.py

It replays the essence of every test method in TensorFlow's
  tensorflow/python/kernel_tests/control_flow/py_func_test.py   (py_func_test.py)
  tensorflow/python/ops/script_ops_test.py                       (script_ops_test.py)
in TF2 (eager and/or inside a tf.function), measures a list of extra
semantic questions, and writes everything to
  test/fixtures/tf-ground-truth/py-func-cases.json
(pretty-printed, sorted keys, no addresses, no timestamps).

Important fact to keep in mind when reading the output: in TF2 *eager* mode
`tf.numpy_function` and `tf.compat.v1.py_func` do NOT run the PyFunc kernel;
script_ops.py_func_common calls `func(*[np.array(x) for x in inp])`, then
`nest.flatten`s the result, converts each element with
`ops.convert_to_tensor(x)` (no dtype: Tout is ignored) and unwraps a
1-element list.  Inside a tf.function the PyFunc kernel runs and checks every
returned value against Tout strictly.  `tf.py_function` always runs the
EagerPyFunc kernel and converts each returned value with
`convert_to_tensor(value, dtype=Tout[i])`.
"""

import gc
import json
import os
import queue
import re
import sys
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
from tensorflow.python.ops import gen_script_ops  # noqa: E402
from tensorflow.python.ops import script_ops  # noqa: E402
from tensorflow.python.framework import ops as tf_ops  # noqa: E402

tf.get_logger().setLevel("ERROR")
# Keep the load light, but allow two inter-op threads (PyFuncTest.testParallel).
tf.config.threading.set_intra_op_parallelism_threads(1)
tf.config.threading.set_inter_op_parallelism_threads(2)

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT_PATH = os.path.join(REPO_ROOT, "test", "fixtures", "tf-ground-truth", "py-func-cases.json")

PY_FUNC_TEST = "py_func_test.py"
SCRIPT_OPS_TEST = "script_ops_test.py"
EAGER = "eager"
TF_FUNCTION = "tf.function"
BOTH = (EAGER, TF_FUNCTION)

py_func = tf.compat.v1.py_func
numpy_function = tf.numpy_function
py_function = tf.py_function  # == script_ops.eager_py_func
WRAPPERS = {"py_func": py_func, "numpy_function": numpy_function, "py_function": py_function}

# --------------------------------------------------------------------------
# Normalisation and JSON description helpers
# --------------------------------------------------------------------------

_SCRIPT_PATH = os.path.abspath(__file__)
_SITE_PACKAGES = os.path.dirname(os.path.dirname(os.path.abspath(tf.__file__)))
_STDLIB = os.path.dirname(os.path.abspath(os.__file__))

NORMALIZATION_RULES = [
    "absolute path of this script -> 'py_func_cases.py'",
    "site-packages directory -> '<site-packages>'",
    "python stdlib directory -> '<stdlib>'",
    "hex addresses 0x + 8 or more hex digits -> '0x…'",
    "py_func registry tokens pyfunc_<digits> -> 'pyfunc_<N>' (the number is a process-wide counter)",
    "traced function names __inference_<name>_<digits> -> '__inference_<name>_<N>' (process-wide counter)",
]


def normalize(msg):
    msg = msg.replace(_SCRIPT_PATH, "py_func_cases.py")
    msg = msg.replace(_SITE_PACKAGES + os.sep, "<site-packages>/")
    msg = msg.replace(_STDLIB + os.sep, "<stdlib>/")
    msg = re.sub(r"0x[0-9a-fA-F]{8,}", "0x…", msg)
    msg = re.sub(r"\bpyfunc_\d+", "pyfunc_<N>", msg)
    msg = re.sub(r"(__inference_[^\s\]}]+?)_\d+\b", r"\1_<N>", msg)
    return msg


def key_line(msg):
    """First informative line: skips 'Graph execution error:' / 'Detected at
    node' stack blocks and strips a leading '{{function_node ...}} ' prefix.
    For autograph 'in user code:' errors it is the last non-empty line."""
    if msg.startswith("in user code:"):
        return [line.strip() for line in msg.split("\n") if line.strip()][-1]
    for line in msg.split("\n"):
        s = line.strip()
        if not s or s == "Graph execution error:" or s.startswith("Detected at node"):
            continue
        if line.startswith(" ") or line.startswith("\t"):
            continue
        return re.sub(r"^\{\{function_node [^}]*\}\}\s*", "", s)
    return ""


def tensor_tolist(t):
    """EagerTensor/Variable -> nested Python lists (scalar string -> bytes)."""
    return np.asarray(t.numpy()).tolist()


def jsonable(v):
    if isinstance(v, (list, tuple)):
        return [jsonable(i) for i in v]
    if isinstance(v, dict):
        return {str(k): jsonable(i) for k, i in v.items()}
    if isinstance(v, bytes):
        return v.decode("utf-8", "backslashreplace")
    if isinstance(v, (bool, np.bool_)):
        return bool(v)
    if isinstance(v, (int, np.integer)):
        return int(v)
    if isinstance(v, (complex, np.complexfloating)):
        return {"re": jsonable(float(v.real)), "im": jsonable(float(v.imag))}
    if isinstance(v, (float, np.floating)):
        f = float(v)
        if f != f:
            return "NaN"
        if f in (float("inf"), float("-inf")):
            return "Infinity" if f > 0 else "-Infinity"
        return f
    if v is None or isinstance(v, str):
        return v
    if isinstance(v, tf.DType):
        return v.name
    return normalize(repr(v))


def describe(v):
    """JSON description of a value returned by TF or received by a callback."""
    if isinstance(v, tf.RaggedTensor):
        return {"kind": "RaggedTensor", "dtype": v.dtype.name, "shape": str(v.shape),
                "value": jsonable(v.to_list())}
    if isinstance(v, tf.Variable):
        return {"kind": "Variable", "dtype": v.dtype.name, "shape": v.shape.as_list(),
                "value": jsonable(tensor_tolist(v))}
    if isinstance(v, tf.Operation):
        return {"kind": "Operation", "opType": v.type}
    if isinstance(v, tf.Tensor):
        if hasattr(v, "numpy"):
            return {"kind": "Tensor", "dtype": v.dtype.name, "shape": v.shape.as_list(),
                    "value": jsonable(tensor_tolist(v))}
        return {"kind": "SymbolicTensor", "dtype": v.dtype.name, "shape": str(v.shape)}
    if isinstance(v, np.ndarray):
        return {"kind": "ndarray", "dtype": str(v.dtype), "shape": list(v.shape),
                "value": jsonable(v.tolist())}
    if isinstance(v, np.generic):
        return {"kind": "numpy-scalar", "type": type(v).__name__, "dtype": str(v.dtype),
                "value": jsonable(v.item())}
    if isinstance(v, (list, tuple)):
        return {"kind": type(v).__name__, "length": len(v), "items": [describe(i) for i in v]}
    if isinstance(v, dict):
        return {"kind": "dict", "items": {str(k): describe(i) for k, i in v.items()}}
    if v is None:
        return {"kind": "None"}
    if isinstance(v, tf.DType):
        return {"kind": "DType", "value": v.name}
    return {"kind": "python", "type": type(v).__name__, "value": jsonable(v)}


def describe_tout(t):
    if isinstance(t, list):
        return [describe_tout(i) for i in t]
    if isinstance(t, tuple):
        return {"tuple": [describe_tout(i) for i in t]}
    if isinstance(t, tf.DType):
        return t.name
    return normalize(repr(t))


def describe_error(e, phase):
    msg = normalize(str(e))
    return {"class": type(e).__name__, "module": type(e).__module__, "phase": phase,
            "firstLine": msg.split("\n", 1)[0], "keyLine": key_line(msg), "message": msg}


class Outcome:
    """Either a value or an exception, plus where the exception surfaced
    ('call' for eager, 'trace' / 'run' for tf.function)."""

    def __init__(self, value=None, error=None, phase=None):
        self.value, self.error, self.phase = value, error, phase

    @property
    def ok(self):
        return self.error is None

    def json(self):
        if self.ok:
            return {"result": describe(self.value)}
        return {"error": describe_error(self.error, self.phase)}


def capture(thunk, phase="call"):
    try:
        return Outcome(value=thunk())
    except Exception as e:  # pylint: disable=broad-except
        return Outcome(error=e, phase=phase)


def run_mode(mode, build, args=()):
    """Runs build(*args) eagerly, or traces+runs it as a tf.function."""
    if mode == EAGER:
        return capture(lambda: build(*args))
    fn = tf.function(build)
    traced = capture(lambda: fn.get_concrete_function(*args), phase="trace")
    if not traced.ok:
        return traced
    return capture(lambda: fn(*args), phase="run")


def first(res):
    """Eager py_func/numpy_function unwrap a 1-element list; the kernel path
    returns a list when Tout is a list.  Used where a test does `z, = ...`."""
    return res[0] if isinstance(res, (list, tuple)) else res


def values_of(outcome):
    if not outcome.ok:
        return None
    v = outcome.value
    if isinstance(v, (list, tuple)):
        return [tensor_tolist(i) if hasattr(i, "numpy") else i for i in v]
    return tensor_tolist(v) if hasattr(v, "numpy") else v


# --------------------------------------------------------------------------
# Case registry
# --------------------------------------------------------------------------

CASES = []


def case(case_id, source, wrapper, what, modes=(EAGER,), params=(None,), mode_note=None):
    """Registers a test-case function fn(mode, param) -> dict with keys
    inputs, Tout, outcome (Outcome) and optionally assertion, holds, extra,
    notes, result (a JSON result overriding outcome)."""

    def register(fn):
        for param in params:
            for mode in modes:
                CASES.append(dict(case_id=case_id if param is None else f"{case_id}[{param}]",
                                  source=source, wrapper=wrapper, what=what, mode=mode,
                                  mode_note=mode_note, fn=fn, param=param))
        return fn

    return register


def run_case(c):
    out = c["fn"](c["mode"], c["param"])
    entry = {"id": c["case_id"], "key": f"{c['case_id']}@{c['mode']}", "source": c["source"],
             "wrapper": c["wrapper"], "what": c["what"], "mode": c["mode"],
             "inputs": [describe(i) for i in out.get("inputs", [])],
             "Tout": describe_tout(out.get("Tout", []))}
    entry["jsCounterpart"] = c["case_id"].split("[")[0] not in NO_JS_COUNTERPART
    if c["mode_note"]:
        entry["modeNote"] = c["mode_note"]
    if "result" in out:
        entry["result"] = out["result"]
    elif "outcome" in out:
        entry.update(out["outcome"].json())
    for k in ("assertion", "holds", "extra", "notes"):
        if k in out:
            entry[k] = jsonable(out[k]) if k != "extra" else out[k]
    return entry


# ==========================================================================
# py_func_test.py :: PyFuncTestBase.verifyExceptionHandling (shared helper)
# ==========================================================================

TEST_EXCEPTION_REGEX = r": blah.*in raise_exception.*in inner_exception.*: blah"


class WeirdError(Exception):
    pass


EXCEPTION_SUBCASES = {
    "ValueError": (ValueError, "InvalidArgumentError"),
    "TypeError": (TypeError, "InvalidArgumentError"),
    "StopIteration": (StopIteration, "OutOfRangeError"),
    "MemoryError": (MemoryError, "ResourceExhaustedError"),
    "NotImplementedError": (NotImplementedError, "UnimplementedError"),
    "WeirdError": (WeirdError, "UnknownError"),
}


def verify_exception_handling(mode, py_exp_name, wrapper):
    py_exp, tf_exp_name = EXCEPTION_SUBCASES[py_exp_name]

    def inner_exception():
        raise py_exp("blah")

    def raise_exception():
        inner_exception()

    def build():
        wrapper(raise_exception, [], [])
        return None  # Tout=[]: nothing to return (graph mode gives an Operation)

    outcome = run_mode(mode, build)
    holds = (not outcome.ok and type(outcome.error).__name__ == tf_exp_name
             and re.search(TEST_EXCEPTION_REGEX, str(outcome.error), re.DOTALL) is not None)
    return dict(inputs=[], Tout=[], outcome=outcome,
                assertion=f"raises {tf_exp_name} whose message matches {TEST_EXCEPTION_REGEX!r}",
                holds=holds,
                extra={"matchesTestRegex": (not outcome.ok) and re.search(
                    TEST_EXCEPTION_REGEX, str(outcome.error), re.DOTALL) is not None})


def np_func(x, y):
    return np.sinh(x) + np.cosh(y)


def matmul(x, y):
    return tf.linalg.matmul(x, y)


# ==========================================================================
# py_func_test.py :: class PyFuncTest  (wrapper: tf.compat.v1.py_func)
# ==========================================================================

REAL_DTYPES = ["float16", "float32", "float64", "uint8", "int8", "uint16", "int16", "int32", "int64"]


# TF test: PyFuncTest.testRealDataTypes
@case("PyFuncTest.testRealDataTypes", PY_FUNC_TEST, "py_func",
      "x + y for scalar tensors 1 and 2 of each real dtype, Tout = that dtype.",
      modes=BOTH, params=REAL_DTYPES)
def test_real_data_types(mode, dtype_name):
    dtype = tf.as_dtype(dtype_name)
    x, y = tf.constant(1, dtype=dtype), tf.constant(2, dtype=dtype)
    outcome = run_mode(mode, lambda a, b: py_func(lambda p, q: p + q, [a, b], dtype), (x, y))
    return dict(inputs=[x, y], Tout=dtype, outcome=outcome, assertion="z == 3",
                holds=outcome.ok and values_of(outcome) == 3)


# TF test: PyFuncTest.testComplexDataTypes
@case("PyFuncTest.testComplexDataTypes", PY_FUNC_TEST, "py_func",
      "x - y for (1+1j) and (2-2j) as complex64/complex128, Tout = that dtype.",
      modes=BOTH, params=["complex64", "complex128"])
def test_complex_data_types(mode, dtype_name):
    dtype = tf.as_dtype(dtype_name)
    x, y = tf.constant(1 + 1j, dtype=dtype), tf.constant(2 - 2j, dtype=dtype)
    outcome = run_mode(mode, lambda a, b: py_func(lambda p, q: p - q, [a, b], dtype), (x, y))
    return dict(inputs=[x, y], Tout=dtype, outcome=outcome, assertion="z == -1 + 3j",
                holds=outcome.ok and values_of(outcome) == -1 + 3j)


# TF test: PyFuncTest.testBoolDataTypes
@case("PyFuncTest.testBoolDataTypes", PY_FUNC_TEST, "py_func",
      "Python `x and y` on two bool scalars (True, False), Tout = bool.", modes=BOTH)
def test_bool_data_types(mode, _):
    x, y = tf.constant(True), tf.constant(False)
    outcome = run_mode(mode, lambda a, b: py_func(lambda p, q: p and q, [a, b], tf.bool), (x, y))
    return dict(inputs=[x, y], Tout=tf.bool, outcome=outcome, assertion="z == False",
                holds=outcome.ok and values_of(outcome) is False)


# TF test: PyFuncTest.testSingleType
@case("PyFuncTest.testSingleType", PY_FUNC_TEST, "py_func",
      "np.sinh(x) + np.cosh(y) on float32 scalars 1.0, 2.0 with a single (non-list) Tout.",
      modes=BOTH)
def test_single_type(mode, _):
    x, y = tf.constant(1.0), tf.constant(2.0)
    outcome = run_mode(mode, lambda a, b: py_func(np_func, [a, b], tf.float32), (x, y))
    expected = float(np_func(1.0, 2.0).astype(np.float32))
    return dict(inputs=[x, y], Tout=tf.float32, outcome=outcome,
                assertion=f"z == np_func(1.0, 2.0).astype(float32) == {expected!r}",
                holds=outcome.ok and values_of(outcome) == expected)


# TF test: PyFuncTest.testScalar  (uses eager_py_func)
@case("PyFuncTest.testScalar", PY_FUNC_TEST, "py_function",
      "eager_py_func(np_func, [1.0, 2.0], [float32]) returns a 1-element list.", modes=BOTH)
def test_scalar(mode, _):
    x, y = tf.constant(1.0), tf.constant(2.0)
    outcome = run_mode(mode, lambda a, b: py_function(np_func, [a, b], [tf.float32]), (x, y))
    expected = float(np_func(1.0, 2.0).astype(np.float32))
    return dict(inputs=[x, y], Tout=[tf.float32], outcome=outcome,
                assertion=f"z[0] == {expected!r}",
                holds=outcome.ok and values_of(outcome)[0] == expected)


# TF test: PyFuncTest.testArray  (run_v1_only)
@case("PyFuncTest.testArray", PY_FUNC_TEST, "py_func",
      "np_func on float64 vectors [1,2],[2,3] with list Tout [float64].", modes=BOTH,
      mode_note="v1-only in TF; eager unwraps the 1-element result list, tf.function returns a list.")
def test_array(mode, _):
    x = tf.constant([1.0, 2.0], tf.float64)
    y = tf.constant([2.0, 3.0], tf.float64)
    outcome = run_mode(mode, lambda a, b: py_func(np_func, [a, b], [tf.float64]), (x, y))
    expected = np_func([1.0, 2.0], [2.0, 3.0]).tolist()
    return dict(inputs=[x, y], Tout=[tf.float64], outcome=outcome,
                assertion=f"z[0] == {expected!r}",
                holds=outcome.ok and isinstance(outcome.value, list)
                and values_of(outcome)[0] == expected)


# TF test: PyFuncTest.testComplexType
@case("PyFuncTest.testComplexType", PY_FUNC_TEST, "py_func",
      "np_func on complex64 scalars 1+2j, 3+4j, Tout complex64.", modes=BOTH)
def test_complex_type(mode, _):
    x = tf.constant(1 + 2j, tf.complex64)
    y = tf.constant(3 + 4j, tf.complex64)
    outcome = run_mode(mode, lambda a, b: py_func(np_func, [a, b], tf.complex64), (x, y))
    expected = complex(np_func(1 + 2j, 3 + 4j))
    return dict(inputs=[x, y], Tout=tf.complex64, outcome=outcome,
                assertion=f"allclose(z, {expected!r})",
                holds=outcome.ok and bool(np.allclose(values_of(outcome), expected)))


# TF test: PyFuncTest.testRFFT
@case("PyFuncTest.testRFFT", PY_FUNC_TEST, "py_func",
      "np.fft.rfft([1,2,3,4]).astype(complex64) with Tout complex64.", modes=BOTH)
def test_rfft(mode, _):
    x = tf.constant([1.0, 2.0, 3.0, 4.0], tf.float32)

    def rfft(v):
        return np.fft.rfft(v).astype(np.complex64)

    outcome = run_mode(mode, lambda a: py_func(rfft, [a], tf.complex64), (x,))
    expected = np.fft.rfft([1.0, 2.0, 3.0, 4.0])
    return dict(inputs=[x], Tout=tf.complex64, outcome=outcome,
                assertion="allclose(y, np.fft.rfft([1,2,3,4]))",
                holds=outcome.ok and bool(np.allclose(values_of(outcome), expected)))


# TF test: PyFuncTest.testPythonLiteral
@case("PyFuncTest.testPythonLiteral", PY_FUNC_TEST, "py_func",
      "func returns the Python float 1.0 with Tout float64 (input float64 0.0).", modes=BOTH)
def test_python_literal(mode, _):
    x = tf.constant(0.0, tf.float64)

    def literal(v):
        return 1.0 if float(v) == 0.0 else 0.0

    outcome = run_mode(mode, lambda a: py_func(literal, [a], tf.float64), (x,))
    return dict(inputs=[x], Tout=tf.float64, outcome=outcome, assertion="allclose(y, 1.0)",
                holds=outcome.ok and values_of(outcome) == 1.0,
                notes="dtype is not asserted by the TF test; compare result.dtype between modes")


# TF test: PyFuncTest.testList
@case("PyFuncTest.testList", PY_FUNC_TEST, "py_func",
      "func returns a Python list [x, x + 1] with Tout [float64, float64].", modes=BOTH)
def test_list(mode, _):
    x = tf.constant(0.0, tf.float64)
    outcome = run_mode(mode, lambda a: py_func(lambda v: [v, v + 1], [a], [tf.float64] * 2), (x,))
    return dict(inputs=[x], Tout=[tf.float64] * 2, outcome=outcome, assertion="y == [0.0, 1.0]",
                holds=outcome.ok and values_of(outcome) == [0.0, 1.0])


# TF test: PyFuncTest.testTuple
@case("PyFuncTest.testTuple", PY_FUNC_TEST, "py_func",
      "func returns a tuple (x, x + 1); sub-case 'tupleToutAndInp' passes inp and Tout as tuples.",
      modes=BOTH, params=["listToutAndInp", "tupleToutAndInp"])
def test_tuple(mode, variant):
    x = tf.constant(0.0, tf.float64)
    tout = [tf.float64] * 2 if variant == "listToutAndInp" else (tf.float64, tf.float64)

    def tuple_func(v):
        return v, v + 1

    if variant == "listToutAndInp":
        outcome = run_mode(mode, lambda a: py_func(tuple_func, [a], tout), (x,))
    else:
        outcome = run_mode(mode, lambda a: py_func(tuple_func, (a,), tout), (x,))
    return dict(inputs=[x], Tout=tout, outcome=outcome, assertion="y == [0.0, 1.0]",
                holds=outcome.ok and values_of(outcome) == [0.0, 1.0])


# TF test: PyFuncTest.testStrings  (run_v1_only)
@case("PyFuncTest.testStrings", PY_FUNC_TEST, "py_func",
      "func returns np.array([b' there']) (Tout string); a second py_func concatenates "
      "[b'hello', b'hi'] + that result elementwise.", modes=BOTH)
def test_strings(mode, _):
    x = tf.constant([b"hello", b"hi"], tf.string)

    def build(a):
        y = py_func(lambda: np.array([b" there"]), [], tf.string)
        return py_func(lambda p, q: p + q, [a, y], tf.string)

    outcome = run_mode(mode, build, (x,))
    return dict(inputs=[x], Tout=tf.string, outcome=outcome,
                assertion="z == [b'hello there', b'hi there']",
                holds=outcome.ok and values_of(outcome) == [b"hello there", b"hi there"])


# TF test: PyFuncTest.testStringsAreConvertedToBytes  (run_v1_only)
@case("PyFuncTest.testStringsAreConvertedToBytes", PY_FUNC_TEST, "py_func",
      "like testStrings but the first func returns a unicode numpy array np.array([' there']).",
      modes=BOTH)
def test_strings_are_converted_to_bytes(mode, _):
    x = tf.constant(["hello", "hi"], tf.string)

    def build(a):
        y = py_func(lambda: np.array([" there"]), [], tf.string)
        return py_func(lambda p, q: p + q, [a, y], tf.string)

    outcome = run_mode(mode, build, (x,))
    return dict(inputs=[x], Tout=tf.string, outcome=outcome,
                assertion="z == [b'hello there', b'hi there']",
                holds=outcome.ok and values_of(outcome) == [b"hello there", b"hi there"])


# TF test: PyFuncTest.testObjectArraysAreConvertedToBytes  (run_v1_only)
@case("PyFuncTest.testObjectArraysAreConvertedToBytes", PY_FUNC_TEST, "py_func",
      "first func returns an object array [b' there', ' ya'] (mixed bytes/str), Tout [string]; "
      "second concatenates with ['hello', 'hi'].", modes=BOTH)
def test_object_arrays_are_converted_to_bytes(mode, _):
    x = tf.constant(["hello", "hi"], tf.string)

    def build(a):
        y = first(py_func(lambda: np.array([b" there", " ya"], dtype=np.object_), [], [tf.string]))
        return first(py_func(lambda p, q: p + q, [a, y], [tf.string]))

    outcome = run_mode(mode, build, (x,))
    return dict(inputs=[x], Tout=[tf.string], outcome=outcome,
                assertion="list(z) == [b'hello there', b'hi ya']",
                holds=outcome.ok and values_of(outcome) == [b"hello there", b"hi ya"])


# TF test: PyFuncTest.testStringPadding  (run_v1_only)
@case("PyFuncTest.testStringPadding", PY_FUNC_TEST, "py_func",
      "func returns [[b'this', b'is', b'a', b'test']] (list wrapping a list of bytes), Tout [string].",
      modes=BOTH,
      mode_note="Eager nest.flatten()s the nested list into 4 scalar string tensors; the kernel "
                "returns one string vector.")
def test_string_padding(mode, _):
    correct = [b"this", b"is", b"a", b"test"]
    outcome = run_mode(mode, lambda: py_func(lambda: [correct], [], [tf.string]))
    return dict(inputs=[], Tout=[tf.string], outcome=outcome,
                assertion="s == [b'this', b'is', b'a', b'test'] (s, = result)",
                holds=outcome.ok and isinstance(outcome.value, list) and len(outcome.value) == 1
                and values_of(outcome)[0] == correct)


# TF test: PyFuncTest.testStringPaddingAreConvertedToBytes  (run_v1_only)
@case("PyFuncTest.testStringPaddingAreConvertedToBytes", PY_FUNC_TEST, "py_func",
      "func returns [['this', 'is', 'a', 'test']] (unicode str), Tout [string].", modes=BOTH)
def test_string_padding_are_converted_to_bytes(mode, _):
    inp = ["this", "is", "a", "test"]
    correct = [b"this", b"is", b"a", b"test"]
    outcome = run_mode(mode, lambda: py_func(lambda: [inp], [], [tf.string]))
    return dict(inputs=[], Tout=[tf.string], outcome=outcome,
                assertion="s == [b'this', b'is', b'a', b'test'] (s, = result)",
                holds=outcome.ok and isinstance(outcome.value, list) and len(outcome.value) == 1
                and values_of(outcome)[0] == correct)


# TF test: PyFuncTest.testNulTerminatedStrings  (run_v1_only)
@case("PyFuncTest.testNulTerminatedStrings", PY_FUNC_TEST, "py_func",
      "func returns [np.array(['this\\0', 'is\\0\\0', 'a\\0', 'test\\0\\0'], dtype=np.str_)], "
      "Tout [string]; trailing NULs must be dropped.", modes=BOTH)
def test_nul_terminated_strings(mode, _):
    inp = np.array(["this\0", "is\0\0", "a\0", "test\0\0"], dtype=np.str_)
    correct = [b"this", b"is", b"a", b"test"]
    outcome = run_mode(mode, lambda: py_func(lambda: [inp], [], [tf.string]))
    return dict(inputs=[], Tout=[tf.string], outcome=outcome,
                assertion="s == [b'this', b'is', b'a', b'test']",
                holds=outcome.ok and values_of(outcome) in (correct, [correct]))


# TF test: PyFuncTest.testLarge  (run_v1_only)
@case("PyFuncTest.testLarge", PY_FUNC_TEST, "py_func",
      "two py_funcs (x + 1, x * 2) on a 1,000,000-element float32 zeros tensor, run 100 times.",
      modes=BOTH)
def test_large(mode, _):
    x = tf.zeros([1000000], dtype=tf.float32)

    def build(a):
        y = py_func(lambda v: v + 1, [a], [tf.float32])
        z = py_func(lambda v: v * 2, [a], [tf.float32])
        return first(y), first(z)

    fn = build if mode == EAGER else tf.function(build)
    outcome = capture(lambda: [fn(x) for _ in range(100)][-1])
    if not outcome.ok:
        return dict(inputs=[], Tout=[tf.float32], outcome=outcome)
    y, z = outcome.value
    summary = {"y": {"dtype": y.dtype.name, "shape": y.shape.as_list(), "sum": float(tf.reduce_sum(y))},
               "z": {"dtype": z.dtype.name, "shape": z.shape.as_list(), "sum": float(tf.reduce_sum(z))},
               "runs": 100}
    return dict(inputs=[{"kind": "Tensor", "dtype": "float32", "shape": [1000000], "value": "zeros"}],
                Tout=[tf.float32], result=summary, assertion="100 runs complete without error",
                holds=True)


# TF test: PyFuncTest.testNoInput
@case("PyFuncTest.testNoInput", PY_FUNC_TEST, "py_func",
      "no inputs; func returns the Python float 42.0 with Tout float64.", modes=BOTH)
def test_no_input(mode, _):
    outcome = run_mode(mode, lambda: py_func(lambda: 42.0, [], tf.float64))
    return dict(inputs=[], Tout=tf.float64, outcome=outcome, assertion="allclose(x, 42.0)",
                holds=outcome.ok and values_of(outcome) == 42.0)


# TF test: PyFuncTest.testAlias  (run_v1_only)
@case("PyFuncTest.testAlias", PY_FUNC_TEST, "py_func",
      "func returns a captured numpy array; adding [2, 3] to the result must not mutate it.",
      modes=BOTH)
def test_alias(mode, _):
    np_array = np.array([1.0, 2.0], dtype=np.float32)

    def build():
        tf_array = py_func(lambda: np_array, [], [tf.float32])
        return tf_array + tf.constant([2.0, 3.0], dtype=tf.float32)

    outcome = run_mode(mode, build)
    return dict(inputs=[], Tout=[tf.float32], outcome=outcome,
                assertion="np_array still == [1.0, 2.0]", holds=np_array.tolist() == [1.0, 2.0],
                extra={"npArrayAfter": np_array.tolist()})


# TF test: PyFuncTest.testReturnUnicodeString  (run_v1_only)
@case("PyFuncTest.testReturnUnicodeString", PY_FUNC_TEST, "py_func",
      "func returns the Python str '你好 世界' with Tout [string]; result is its UTF-8 bytes.",
      modes=BOTH)
def test_return_unicode_string(mode, _):
    correct = "你好 世界"
    outcome = run_mode(mode, lambda: first(py_func(lambda: correct, [], [tf.string])))
    return dict(inputs=[], Tout=[tf.string], outcome=outcome,
                assertion="z == '你好 世界'.encode('utf8')",
                holds=outcome.ok and values_of(outcome) == correct.encode("utf8"),
                extra={"utf8Bytes": list(correct.encode("utf8"))})


# TF test: PyFuncTest.testBadNumpyReturnType  (run_v1_only)
@case("PyFuncTest.testBadNumpyReturnType", PY_FUNC_TEST, "py_func",
      "func returns a structured numpy array (dtype [('foo', float32)]), Tout [float32].",
      modes=BOTH)
def test_bad_numpy_return_type(mode, _):
    outcome = run_mode(mode, lambda: first(py_func(
        lambda: np.array([], dtype=[("foo", np.float32)]), [], [tf.float32])))
    return dict(inputs=[], Tout=[tf.float32], outcome=outcome,
                assertion="raises InternalError matching 'Unsupported numpy data type'",
                holds=not outcome.ok and type(outcome.error).__name__ == "InternalError"
                and "Unsupported numpy data type" in str(outcome.error))


# TF test: PyFuncTest.testBadReturnType  (run_v1_only)
@case("PyFuncTest.testBadReturnType", PY_FUNC_TEST, "py_func",
      "func returns a dict {'foo': tf.float32}, Tout [int64].", modes=BOTH)
def test_bad_return_type(mode, _):
    outcome = run_mode(mode, lambda: first(py_func(lambda: {"foo": tf.float32}, [], [tf.int64])))
    return dict(inputs=[], Tout=[tf.int64], outcome=outcome,
                assertion="raises InternalError matching 'Unsupported object type'",
                holds=not outcome.ok and type(outcome.error).__name__ == "InternalError"
                and "Unsupported object type" in str(outcome.error))


# TF test: PyFuncTest.testReturnInput  (run_v1_only; placeholder fed [0.0])
@case("PyFuncTest.testReturnInput", PY_FUNC_TEST, "py_func",
      "func returns x[0] (a view aliasing the input buffer); result + 0.0 must be 0.0.",
      modes=BOTH, mode_note="placeholder+feed_dict replaced by a tensor argument [0.0]")
def test_return_input(mode, _):
    p = tf.constant([0.0], tf.float32)
    outcome = run_mode(mode, lambda a: first(py_func(lambda v: v[0], [a], [tf.float32])) + 0.0, (p,))
    return dict(inputs=[p], Tout=[tf.float32], outcome=outcome, assertion="z == 0.0",
                holds=outcome.ok and values_of(outcome) == 0.0)


# TF test: PyFuncTest.testStateful
@case("PyFuncTest.testStateful", PY_FUNC_TEST, "py_func",
      "stateful py_func over next(iter(range(3))), Tout [int64], evaluated three times.",
      modes=BOTH, mode_note="Session.run x3 replaced by 3 calls (eager) / 3 calls of one tf.function")
def test_stateful(mode, _):
    producer = iter(range(3))

    def build():
        return py_func(lambda: next(producer), [], [tf.int64])

    fn = build if mode == EAGER else tf.function(build)
    outcomes = [capture(fn) for _ in range(3)]
    return dict(inputs=[], Tout=[tf.int64], result={"calls": [o.json() for o in outcomes]},
                assertion="values 0, 1, 2",
                holds=all(o.ok for o in outcomes)
                and [np.array(first(o.value)).tolist() for o in outcomes] == [0, 1, 2])


# TF test: PyFuncTest.testStateless
@case("PyFuncTest.testStateless", PY_FUNC_TEST, "py_func",
      "stateful=False py_func over next(iter(range(3))), Tout [int64], evaluated three times.",
      modes=BOTH, mode_note="Session.run x3 replaced by 3 calls (eager) / 3 calls of one tf.function")
def test_stateless(mode, _):
    producer = iter(range(3))

    def build():
        return py_func(lambda: next(producer), [], [tf.int64], stateful=False)

    fn = build if mode == EAGER else tf.function(build)
    outcomes = [capture(fn) for _ in range(3)]
    return dict(inputs=[], Tout=[tf.int64], result={"calls": [o.json() for o in outcomes]},
                assertion="values 0, 0, 0 (constant-folded once in a Session)",
                holds=all(o.ok for o in outcomes)
                and [np.array(first(o.value)).tolist() for o in outcomes] == [0, 0, 0])


# TF test: PyFuncTest.testGradientFunction  (run_v1_only)
@case("PyFuncTest.testGradientFunction", PY_FUNC_TEST, "py_func",
      "ops.get_gradient_function() of the PyFunc and PyFuncStateless ops is None.",
      modes=(TF_FUNCTION,), mode_note="inspected on the ops created while tracing a tf.function")
def test_gradient_function(mode, _):
    seen = {}

    @tf.function
    def fn():
        a = tf.constant(0)
        x = py_func(lambda v: 0, [a], [tf.int64])[0]
        y = py_func(lambda v: 0, [a], [tf.int64], stateful=False)[0]
        seen["x"] = (x.op.type, tf_ops.get_gradient_function(x.op))
        seen["y"] = (y.op.type, tf_ops.get_gradient_function(y.op))
        return x, y

    outcome = capture(fn.get_concrete_function, phase="trace")
    result = {k: {"opType": v[0], "gradientFunction": None if v[1] is None else repr(v[1])}
              for k, v in seen.items()}
    if not outcome.ok:
        return dict(inputs=[], Tout=[tf.int64], outcome=outcome)
    return dict(inputs=[], Tout=[tf.int64], result=result,
                assertion="get_gradient_function(op) is None for both",
                holds=all(v[1] is None for v in seen.values()))


# TF test: PyFuncTest.testCOrder  (run_v1_only)
@case("PyFuncTest.testCOrder", PY_FUNC_TEST, "py_func",
      "func returns a Fortran-ordered int array [[1,2],[3,4]], Tout [int64].", modes=BOTH)
def test_c_order(mode, _):
    val = [[1, 2], [3, 4]]
    outcome = run_mode(mode, lambda: first(py_func(lambda: np.array(val, order="F"), [], [tf.int64])))
    return dict(inputs=[], Tout=[tf.int64], outcome=outcome, assertion="x == [[1, 2], [3, 4]]",
                holds=outcome.ok and values_of(outcome) == val)


# TF test: PyFuncTest.testParallel  (run_v1_only)
@case("PyFuncTest.testParallel", PY_FUNC_TEST, "py_func",
      "two independent py_funcs that block on each other via a queue must run concurrently "
      "('stateful' = upstream code; 'stateless' = same with stateful=False).",
      modes=(TF_FUNCTION,), params=["stateful", "stateless"],
      mode_note="inter-op threads = 2; waits time out after 10 s instead of dead-locking. "
                "tf.function adds automatic control dependencies between stateful ops, which "
                "serialises the two stateful py_funcs (a TF1 Session does not).")
def test_parallel(mode, variant):
    q = queue.Queue(1)
    timeout = 10.0

    def blocking_put():
        q.put(42)
        deadline = time.time() + timeout
        while q.unfinished_tasks and time.time() < deadline:  # q.join() with a timeout
            time.sleep(0.01)
        if q.unfinished_tasks:
            raise RuntimeError("blocking_put timed out: py_funcs did not run in parallel")
        return 42

    def blocking_get():
        v = q.get(block=True, timeout=timeout)
        q.task_done()
        return v

    stateful = variant == "stateful"

    @tf.function
    def fn():
        x = py_func(blocking_put, [], [tf.int64], stateful=stateful)[0]
        y = py_func(blocking_get, [], [tf.int64], stateful=stateful)[0]
        return x, y

    outcome = capture(fn, phase="run")
    return dict(inputs=[], Tout=[tf.int64], outcome=outcome,
                assertion="completes (no deadlock)", holds=outcome.ok)


# TF test: PyFuncTest.testNoReturnValueStateful
@case("PyFuncTest.testNoReturnValueStateful", PY_FUNC_TEST, "py_func",
      "stateful py_func with Tout [] mutates a numpy array (+= 2); returns nothing.",
      modes=BOTH)
def test_no_return_value_stateful(mode, _):
    state = {"value": np.array([1], np.int64)}

    def _increment(diff):
        state["value"] += diff

    returned = {}

    def build(d):
        r = py_func(_increment, [d], [], stateful=True)
        returned["type"] = type(r).__name__
        return None

    d = tf.constant(2, tf.int64)
    if mode == EAGER:
        outcome = capture(lambda: py_func(_increment, [d], [], stateful=True))
    else:
        outcome = run_mode(mode, build, (d,))
    extra = {"stateAfter": state["value"].tolist()}
    if mode == TF_FUNCTION:
        extra["returnedWhileTracing"] = returned.get("type")
    return dict(inputs=[d], Tout=[], outcome=outcome, extra=extra,
                assertion="evaluate(op) is None and state == [3]",
                holds=outcome.ok and outcome.value is None and state["value"].tolist() == [3])


# TF test: PyFuncTest.testNoReturnValueStateless  (run_v1_only)
@case("PyFuncTest.testNoReturnValueStateless", PY_FUNC_TEST, "py_func",
      "stateful=False py_func with Tout [] whose func returns None.", modes=BOTH)
def test_no_return_value_stateless(mode, _):
    calls = []

    def do_nothing(unused_x):
        calls.append(1)

    returned = {}
    c = tf.constant(3, tf.int64)

    def build(v):
        r = py_func(do_nothing, [v], [], stateful=False)
        returned["type"] = type(r).__name__
        returned["length"] = len(r) if isinstance(r, (list, tuple)) else None
        return None

    if mode == EAGER:
        outcome = capture(lambda: py_func(do_nothing, [c], [], stateful=False))
    else:
        outcome = run_mode(mode, build, (c,))
    extra = {"funcCalls": len(calls)}
    if mode == TF_FUNCTION:
        extra["returnedWhileTracing"] = returned.get("type")
        extra["returnedLengthWhileTracing"] = returned.get("length")
        extra["note"] = ("nothing is returned from the tf.function; a stateless op with no "
                         "outputs is pruned, so func is never called")
    return dict(inputs=[c], Tout=[], outcome=outcome, extra=extra,
                assertion="evaluate(f) == []",
                holds=outcome.ok and outcome.value == [])


# TF test: PyFuncTest.testExceptionHandling  (run_v1_only; verifyExceptionHandling)
@case("PyFuncTest.testExceptionHandling", PY_FUNC_TEST, "py_func",
      "func (no inputs, Tout []) raises <exception>('blah') from a nested helper.",
      modes=BOTH, params=list(EXCEPTION_SUBCASES))
def test_exception_handling(mode, exc_name):
    return verify_exception_handling(mode, exc_name, py_func)


# TF test: PyFuncTest.testFunctionReferencesAreKept
@case("PyFuncTest.testFunctionReferencesAreKept", PY_FUNC_TEST, "py_func",
      "py_func whose lambda is only referenced by the op (inside batch_function) survives gc.",
      modes=(TF_FUNCTION,))
def test_function_references_are_kept(mode, _):
    from tensorflow.python.ops import batch_ops  # pylint: disable=import-outside-toplevel
    c = tf.constant([1.0], tf.float32)

    @tf.function
    def outer(v):
        @batch_ops.batch_function(1, 10, 100000)
        def fn(x):
            return py_func(lambda a: a, [x], [tf.float32])
        return fn(v)

    traced = capture(lambda: outer.get_concrete_function(c), phase="trace")
    if not traced.ok:
        return dict(inputs=[c], Tout=[tf.float32], outcome=traced)
    gc.collect()
    outcome = capture(lambda: outer(c), phase="run")
    return dict(inputs=[c], Tout=[tf.float32], outcome=outcome,
                assertion="evaluates after gc.collect()", holds=outcome.ok)


# ==========================================================================
# py_func_test.py :: class PyFuncAndEagerPyFuncTest
# ==========================================================================

def _make_cleanup_graph():
    g = tf.Graph()
    with g.as_default():
        c = tf.constant([1.0], tf.float32)
        _ = py_func(lambda x: x + 1, [c], [tf.float32])
        _ = py_function(lambda x: x + 1, [c], [tf.float32])
        py_func(lambda x: x + c.shape[0], [c], [tf.float32])
        py_function(lambda x: x + c.shape[0], [c], [tf.float32])


def _make_cleanup_graph_with_tf_function():
    g = tf.Graph()
    with g.as_default():
        @tf.function
        def fn():
            c = tf.constant([1.0], tf.float32)
            _ = py_func(lambda x: x + 1, [c], [tf.float32])
            _ = py_function(lambda x: x + 1, [c], [tf.float32])
            py_func(lambda x: x + c.shape[0], [c], [tf.float32])
            py_function(lambda x: x + c.shape[0], [c], [tf.float32])
        fn()


def _registry_growth(make_graph, iterations):
    gc.collect()
    gc.collect()
    initial = script_ops._py_funcs.size()  # pylint: disable=protected-access
    for _ in range(iterations):
        make_graph()
    gc.collect()
    gc.collect()
    final = script_ops._py_funcs.size()  # pylint: disable=protected-access
    return {"iterations": iterations, "registrySizeBefore": initial, "registrySizeAfter": final,
            "grew": final != initial}


# TF test: PyFuncAndEagerPyFuncTest.testCleanup
@case("PyFuncAndEagerPyFuncTest.testCleanup", PY_FUNC_TEST, "py_func+py_function",
      "building many graphs holding py_funcs does not grow the global callback registry.",
      modes=("graph-construction",),
      mode_note="tf.Graph objects built (not run) 200 times instead of 1000")
def test_cleanup(mode, _):
    r = _registry_growth(_make_cleanup_graph, 200)
    return dict(inputs=[], Tout=[tf.float32], result=r, assertion="registry size unchanged",
                holds=not r["grew"])


# TF test: PyFuncAndEagerPyFuncTest.testCleanupInTfFunction  (skipped in TF: b/144098211)
@case("PyFuncAndEagerPyFuncTest.testCleanupInTfFunction", PY_FUNC_TEST, "py_func+py_function",
      "same as testCleanup but the py_funcs are created inside a tf.function (TF skips this test).",
      modes=(TF_FUNCTION,), mode_note="50 iterations; TF itself skips this test (b/144098211)")
def test_cleanup_in_tf_function(mode, _):
    r = _registry_growth(_make_cleanup_graph_with_tf_function, 50)
    return dict(inputs=[], Tout=[tf.float32], result=r,
                assertion="registry size unchanged (skipped upstream)", holds=not r["grew"])


# ==========================================================================
# py_func_test.py :: class EagerPyFuncTest  (wrapper: tf.py_function)
# ==========================================================================

# TF test: EagerPyFuncTest.testEagerSingleOutputInt32
@case("EagerPyFuncTest.testEagerSingleOutputInt32", PY_FUNC_TEST, "py_function",
      "matmul(ones(3x3), ones(3x1)) on int32, Tout int32.", modes=BOTH)
def test_eager_single_output_int32(mode, _):
    a = tf.ones((3, 3), dtype=tf.int32)
    x = tf.ones((3, 1), dtype=tf.int32)
    outcome = run_mode(mode, lambda p, q: py_function(matmul, inp=[p, q], Tout=tf.int32), (a, x))
    return dict(inputs=[a, x], Tout=tf.int32, outcome=outcome, assertion="ret == [[3], [3], [3]]",
                holds=outcome.ok and values_of(outcome) == [[3], [3], [3]])


# TF test: EagerPyFuncTest.testRenamedDeviceInTestClusterCorrectlyIdentifiedAsLocalhost
@case("EagerPyFuncTest.testRenamedDeviceInTestClusterCorrectlyIdentifiedAsLocalhost",
      PY_FUNC_TEST, "py_function",
      "py_function placed on /job:worker of a local in-process cluster (skipped in eager by TF).",
      modes=("not-run",))
def test_renamed_device(mode, _):
    return dict(inputs=[], Tout=tf.float32,
                result={"skipped": "needs a TF1 Session against a local gRPC cluster; TF skips "
                                   "it when executing eagerly (b/126565353)"})


# TF test: EagerPyFuncTest.testEagerSingleOutputFloat32
@case("EagerPyFuncTest.testEagerSingleOutputFloat32", PY_FUNC_TEST, "py_function",
      "matmul(ones(3x3), ones(3x1)) on float32, Tout float32.", modes=BOTH)
def test_eager_single_output_float32(mode, _):
    a = tf.ones((3, 3), dtype=tf.float32)
    x = tf.ones((3, 1), dtype=tf.float32)
    outcome = run_mode(mode, lambda p, q: py_function(matmul, inp=[p, q], Tout=tf.float32), (a, x))
    return dict(inputs=[a, x], Tout=tf.float32, outcome=outcome,
                assertion="ret == [[3.0], [3.0], [3.0]]",
                holds=outcome.ok and values_of(outcome) == [[3.0], [3.0], [3.0]])


# TF test: EagerPyFuncTest.testEagerArrayOutput
@case("EagerPyFuncTest.testEagerArrayOutput", PY_FUNC_TEST, "py_function",
      "func returns [matmul(a, x)] with list Tout [float32] -> list of one tensor.", modes=BOTH)
def test_eager_array_output(mode, _):
    a = tf.ones((3, 3), dtype=tf.float32)
    x = tf.ones((3, 1), dtype=tf.float32)
    outcome = run_mode(mode, lambda p, q: py_function(
        lambda u, v: [matmul(u, v)], inp=[p, q], Tout=[tf.float32]), (a, x))
    return dict(inputs=[a, x], Tout=[tf.float32], outcome=outcome,
                assertion="ret == [[[3.0], [3.0], [3.0]]]",
                holds=outcome.ok and values_of(outcome) == [[[3.0], [3.0], [3.0]]])


# TF test: EagerPyFuncTest.testEagerReturnNone
@case("EagerPyFuncTest.testEagerReturnNone", PY_FUNC_TEST, "py_function",
      "func returns None with Tout []: eager gives an empty list.", modes=BOTH)
def test_eager_return_none(mode, _):
    returned = {}

    def build():
        r = py_function(lambda: None, inp=[], Tout=[])
        returned["type"] = type(r).__name__
        if isinstance(r, (list, tuple)):
            returned["length"] = len(r)
        return r if mode == EAGER else None

    outcome = run_mode(mode, build)
    extra = {"returnedType": returned.get("type"), "returnedLength": returned.get("length")}
    return dict(inputs=[], Tout=[], outcome=outcome, extra=extra,
                assertion="eager: len(ret) == 0; graph: ret is None",
                holds=outcome.ok and ((mode == EAGER and outcome.value == [])
                                      or (mode != EAGER and returned.get("type") == "Operation")))


# TF test: EagerPyFuncTest.testEagerPyFuncInDefun
@case("EagerPyFuncTest.testEagerPyFuncInDefun", PY_FUNC_TEST, "py_function",
      "py_function(matmul) inside a tf.function (defun).", modes=(TF_FUNCTION,))
def test_eager_py_func_in_defun(mode, _):
    def wrapper():
        a = tf.ones((3, 3), dtype=tf.float32)
        x = tf.ones((3, 1), dtype=tf.float32)
        return py_function(matmul, inp=[a, x], Tout=tf.float32)

    outcome = run_mode(mode, wrapper)
    return dict(inputs=[], Tout=tf.float32, outcome=outcome,
                assertion="ret == [[3.0], [3.0], [3.0]]",
                holds=outcome.ok and values_of(outcome) == [[3.0], [3.0], [3.0]])


# TF test: EagerPyFuncTest.testEagerExceptionHandling  (run_v1_only in TF)
@case("EagerPyFuncTest.testEagerExceptionHandling", PY_FUNC_TEST, "py_function",
      "func (no inputs, Tout []) raises <exception>('blah') from a nested helper.",
      modes=BOTH, params=list(EXCEPTION_SUBCASES))
def test_eager_exception_handling(mode, exc_name):
    return verify_exception_handling(mode, exc_name, py_function)


# TF test: EagerPyFuncTest.testEagerReturningVariableRaisesError  (run_v1_only in TF)
@case("EagerPyFuncTest.testEagerReturningVariableRaisesError", PY_FUNC_TEST, "py_function",
      "func returns a tf.Variable (ResourceVariable(0.0)) with Tout float32.", modes=BOTH)
def test_eager_returning_variable_raises_error(mode, _):
    outcome = run_mode(mode, lambda: py_function(lambda: tf.Variable(0.0), inp=[], Tout=tf.float32))
    return dict(inputs=[], Tout=tf.float32, outcome=outcome,
                assertion="raises UnknownError matching 'Attempting to return a variable'",
                holds=not outcome.ok and type(outcome.error).__name__ == "UnknownError"
                and "Attempting to return a variable" in str(outcome.error))


# TF test: EagerPyFuncTest.testTapeCache
@case("EagerPyFuncTest.testTapeCache", PY_FUNC_TEST, "py_function",
      "script_ops.tape_cache gets an entry only while a tape records eagerly and is consumed "
      "by tape.gradient.", modes=BOTH)
def test_tape_cache(mode, _):
    sizes = {"before": len(script_ops.tape_cache)}

    def f(v):
        return v ** 2

    def build(x):
        py_function(f, inp=[x], Tout=tf.float32)
        sizes["afterCallWithoutTape"] = len(script_ops.tape_cache)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = py_function(f, inp=[x], Tout=tf.float32)
            sizes["insideTape"] = len(script_ops.tape_cache)
        dy_dx = tape.gradient(y, x)
        return dy_dx

    x = tf.constant(3.0)
    outcome = run_mode(mode, build, (x,))
    sizes["afterGradient"] = len(script_ops.tape_cache)
    b = sizes["before"]
    expected_inside = b + 1 if mode == EAGER else b
    return dict(inputs=[x], Tout=tf.float32, outcome=outcome,
                extra={"tapeCacheSizes": sizes,
                       "note": "in tf.function mode 'afterGradient' is measured after the graph ran"},
                assertion="no growth without tape; +1 inside tape when eager; back to start after "
                          "gradient",
                holds=sizes.get("afterCallWithoutTape") == b
                and sizes.get("insideTape") == expected_inside and sizes["afterGradient"] == b)


# TF test: EagerPyFuncTest.testEagerGradientTape
@case("EagerPyFuncTest.testEagerGradientTape", PY_FUNC_TEST, "py_function",
      "GradientTape through py_function(x**2): real x=3.0 (Tout float32) and complex "
      "x=3+3j (Tout complex128).", modes=BOTH, params=["float32", "complex128"])
def test_eager_gradient_tape(mode, kind):
    x = tf.constant(3.0) if kind == "float32" else tf.constant(3.0 + 3.0j)
    tout = tf.float32 if kind == "float32" else tf.complex128

    def build(v):
        with tf.GradientTape() as tape:
            tape.watch(v)
            y = py_function(lambda a: a ** 2, inp=[v], Tout=tout)
        return tape.gradient(y, v)

    outcome = run_mode(mode, build, (x,))
    expected = 6.0 if kind == "float32" else 6.0 - 6.0j
    return dict(inputs=[x], Tout=tout, outcome=outcome, assertion=f"dy_dx == {expected!r}",
                holds=outcome.ok and bool(np.allclose(values_of(outcome), expected)))


# TF test: EagerPyFuncTest.testEagerGradientGraph  (run_v1_only: tf.gradients)
@case("EagerPyFuncTest.testEagerGradientGraph", PY_FUNC_TEST, "py_function",
      "tf.gradients(py_function(x**2), x) at x=3.0 in graph mode.", modes=(TF_FUNCTION,))
def test_eager_gradient_graph(mode, _):
    x = tf.constant(3.0)

    def build(v):
        y = py_function(lambda a: a ** 2, inp=[v], Tout=tf.float32)
        return tf.gradients(y, v)[0]

    outcome = run_mode(mode, build, (x,))
    return dict(inputs=[x], Tout=tf.float32, outcome=outcome, assertion="dy_dx == 6.0",
                holds=outcome.ok and values_of(outcome) == 6.0)


# TF test: EagerPyFuncTest.testEagerGradientGraphTwoOutputs  (run_v1_only)
@case("EagerPyFuncTest.testEagerGradientGraphTwoOutputs", PY_FUNC_TEST, "py_function",
      "f(x, y) = (x*y, x/y) with two outputs; tf.gradients(fa + fb, x) at x=3, y=2.",
      modes=(TF_FUNCTION,))
def test_eager_gradient_graph_two_outputs(mode, _):
    x, y = tf.constant(3.0), tf.constant(2.0)

    def build(a, b):
        fa, fb = py_function(lambda p, q: (p * q, p / q), inp=[a, b], Tout=[tf.float32, tf.float32])
        return tf.gradients(fa + fb, a)[0]

    outcome = run_mode(mode, build, (x, y))
    return dict(inputs=[x, y], Tout=[tf.float32, tf.float32], outcome=outcome,
                assertion="dy_dx == 2.5", holds=outcome.ok and values_of(outcome) == 2.5)


# TF test: EagerPyFuncTest.testEagerGradientTapeMultipleArgs
@case("EagerPyFuncTest.testEagerGradientTapeMultipleArgs", PY_FUNC_TEST, "py_function",
      "GradientTape through py_function(x**2 + y**2) at (3, 4): dz/dx=6, dz/dy=8.", modes=BOTH)
def test_eager_gradient_tape_multiple_args(mode, _):
    x, y = tf.constant(3.0), tf.constant(4.0)

    def build(a, b):
        with tf.GradientTape() as tape:
            tape.watch(a)
            tape.watch(b)
            z = py_function(lambda p, q: p ** 2 + q ** 2, inp=[a, b], Tout=tf.float32)
        return tape.gradient(z, [a, b])

    outcome = run_mode(mode, build, (x, y))
    return dict(inputs=[x, y], Tout=tf.float32, outcome=outcome,
                assertion="dz_dx == 6.0 and dz_dy == 8.0",
                holds=outcome.ok and values_of(outcome) == [6.0, 8.0])


# TF test: EagerPyFuncTest.testEagerGradientGraphMultipleArgs  (run_v1_only)
@case("EagerPyFuncTest.testEagerGradientGraphMultipleArgs", PY_FUNC_TEST, "py_function",
      "tf.gradients(py_function(x**2 + y**2), [x, y]) at (3, 4).", modes=(TF_FUNCTION,))
def test_eager_gradient_graph_multiple_args(mode, _):
    x, y = tf.constant(3.0), tf.constant(4.0)

    def build(a, b):
        z = py_function(lambda p, q: p ** 2 + q ** 2, inp=[a, b], Tout=tf.float32)
        return tf.gradients(z, [a, b])

    outcome = run_mode(mode, build, (x, y))
    return dict(inputs=[x, y], Tout=tf.float32, outcome=outcome,
                assertion="dz_dx == 6.0 and dz_dy == 8.0",
                holds=outcome.ok and values_of(outcome) == [6.0, 8.0])


# TF test: EagerPyFuncTest.testEagerGradientGraphLogHuber  (run_v1_only; placeholders)
@case("EagerPyFuncTest.testEagerGradientGraphLogHuber", PY_FUNC_TEST, "py_function",
      "log_huber with Python control flow on tensor values inside py_function; "
      "tf.gradients at x=1, m=2 (first branch).", modes=(TF_FUNCTION,),
      mode_note="placeholders+feed_dict replaced by tf.function tensor arguments")
def test_eager_gradient_graph_log_huber(mode, _):
    def log_huber(x, m):
        if tf.abs(x) <= m:
            return x ** 2
        return m ** 2 * (1 - 2 * tf.math.log(m) + tf.math.log(x ** 2))

    x, m = tf.constant(1.0), tf.constant(2.0)

    def build(a, b):
        y = py_function(func=log_huber, inp=[a, b], Tout=tf.float32)
        return y, tf.gradients(y, a)[0]

    outcome = run_mode(mode, build, (x, m))
    return dict(inputs=[x, m], Tout=tf.float32, outcome=outcome,
                assertion="y == 1.0 and dy_dx == 2.0",
                holds=outcome.ok and values_of(outcome) == [1.0, 2.0])


# TF test: EagerPyFuncTest.testEagerRespectsDevicePlacementOfOp  (run_v1_only)
@case("EagerPyFuncTest.testEagerRespectsDevicePlacementOfOp", PY_FUNC_TEST, "py_function",
      "two chained py_functions (square, then x + x) under tf.device('/CPU:0') at x=3.",
      modes=BOTH, mode_note="placeholder+feed_dict replaced by a tensor argument")
def test_eager_respects_device_placement_of_op(mode, _):
    x = tf.constant(3.0)

    def build(v):
        with tf.device("/CPU:0"):
            y = py_function(func=tf.square, inp=[v], Tout=tf.float32)
            return py_function(func=lambda a: tf.add(a, a), inp=[y], Tout=tf.float32)

    outcome = run_mode(mode, build, (x,))
    return dict(inputs=[x], Tout=tf.float32, outcome=outcome, assertion="output == 18.0",
                holds=outcome.ok and values_of(outcome) == 18.0)


# TF test: EagerPyFuncTest.testEagerPyFuncOnGPUWithStrings
@case("EagerPyFuncTest.testEagerPyFuncOnGPUWithStrings", PY_FUNC_TEST, "py_function",
      "func returns str(a.dtype) for a string input; Tout string.", modes=BOTH)
def test_eager_py_func_on_gpu_with_strings(mode, _):
    x = tf.constant("x", dtype=tf.string)
    outcome = run_mode(mode, lambda v: py_function(lambda a: str(a.dtype), inp=[v], Tout=tf.string), (x,))
    return dict(inputs=[x], Tout=tf.string, outcome=outcome,
                assertion="output == b\"<dtype: 'string'>\"",
                holds=outcome.ok and values_of(outcome) == b"<dtype: 'string'>")


# TF test: EagerPyFuncTest.testEagerPyFuncNotACallable
@case("EagerPyFuncTest.testEagerPyFuncNotACallable", PY_FUNC_TEST, "py_function",
      "passing a tensor as func raises ValueError mentioning 'callable'.", modes=BOTH)
def test_eager_py_func_not_a_callable(mode, _):
    x = tf.constant("x", dtype=tf.string)
    outcome = run_mode(mode, lambda v: py_function(v, inp=[v], Tout=tf.string), (x,))
    return dict(inputs=[x], Tout=tf.string, outcome=outcome,
                assertion="raises ValueError matching 'callable'",
                holds=not outcome.ok and isinstance(outcome.error, ValueError)
                and "callable" in str(outcome.error))


# TF test: EagerPyFuncTest.testUnsupportedToutType
@case("EagerPyFuncTest.testUnsupportedToutType", PY_FUNC_TEST, "py_function",
      "Tout [{}] raises TypeError 'Cannot convert ... to a TensorFlow DType.'", modes=(EAGER,))
def test_unsupported_tout_type(mode, _):
    outcome = capture(lambda: py_function(lambda x: x, [1], [{}]))
    return dict(inputs=[1], Tout=[{}], outcome=outcome,
                assertion="raises TypeError matching 'Cannot convert .* to a TensorFlow DType.'",
                holds=not outcome.ok and isinstance(outcome.error, TypeError)
                and re.search("Cannot convert .* to a TensorFlow DType.", str(outcome.error)) is not None)


# TF test: EagerPyFuncTest.testRaggedTensorArg
@case("EagerPyFuncTest.testRaggedTensorArg", PY_FUNC_TEST, "py_function",
      "reduce_sum over a RaggedTensor argument [[1,2,3],[4],[5,6]], Tout [int32].", modes=(EAGER,))
def test_ragged_tensor_arg(mode, _):
    x = tf.ragged.constant([[1, 2, 3], [4], [5, 6]])
    outcome = capture(lambda: py_function(tf.reduce_sum, [x], [tf.int32]))
    return dict(inputs=[x], Tout=[tf.int32], outcome=outcome, assertion="y == 21",
                holds=outcome.ok and values_of(outcome) == [21])


# TF test: EagerPyFuncTest.testRaggedTensorReturn
@case("EagerPyFuncTest.testRaggedTensorReturn", PY_FUNC_TEST, "py_function",
      "func builds a RaggedTensor from values+row lengths; Tout [RaggedTensorSpec([None, None], int32)].",
      modes=(EAGER,))
def test_ragged_tensor_return(mode, _):
    values = [1, 2, 3, 4, 5, 6]
    lengths = tf.constant([3, 1, 2], tf.int64)
    spec = [tf.RaggedTensorSpec([None, None], tf.int32)]
    outcome = capture(lambda: py_function(
        lambda v, l: tf.RaggedTensor.from_row_lengths(v, l), [values, lengths], spec))
    return dict(inputs=[values, lengths], Tout=spec, outcome=outcome,
                assertion="y is RaggedTensor == [[1,2,3],[4],[5,6]]",
                holds=outcome.ok and isinstance(outcome.value[0], tf.RaggedTensor)
                and outcome.value[0].to_list() == [[1, 2, 3], [4], [5, 6]])


# TF test: EagerPyFuncTest.testRaggedTensorBroadcast
@case("EagerPyFuncTest.testRaggedTensorBroadcast", PY_FUNC_TEST, "py_function",
      "x + py_function(2*x, Tout=RaggedTensorSpec.from_value(x)) keeps shape info for broadcasting.",
      modes=BOTH)
def test_ragged_tensor_broadcast(mode, _):
    x = tf.ragged.constant([[1.0, 2.0], [3.0]])

    def foo(v):
        spec = tf.RaggedTensorSpec.from_value(v)
        return v + py_function(lambda a: 2 * a, [v], spec)

    outcome = run_mode(mode, foo, (x,))
    return dict(inputs=[x], Tout="RaggedTensorSpec.from_value(x)", outcome=outcome,
                assertion="== [[3.0, 6.0], [9.0]]",
                holds=outcome.ok and outcome.value.to_list() == [[3.0, 6.0], [9.0]])


def _ragged_expected_list(ret):
    x = tf.ragged.constant([[1, 2, 3], [4], [5, 6]])
    x_spec = tf.type_spec_from_value(x)
    outcome = capture(lambda: py_function(ret, [x], [x_spec]))
    return dict(inputs=[x], Tout=[x_spec], outcome=outcome, assertion="y == x",
                holds=outcome.ok and outcome.value[0].to_list() == [[1, 2, 3], [4], [5, 6]])


# TF test: EagerPyFuncTest.testRaggedExpectedListGotList
@case("EagerPyFuncTest.testRaggedExpectedListGotList", PY_FUNC_TEST, "py_function",
      "Tout [RaggedTensorSpec], func returns [v].", modes=(EAGER,))
def test_ragged_expected_list_got_list(mode, _):
    return _ragged_expected_list(lambda v: [v])


# TF test: EagerPyFuncTest.testRaggedExpectedListGotTuple
@case("EagerPyFuncTest.testRaggedExpectedListGotTuple", PY_FUNC_TEST, "py_function",
      "Tout [RaggedTensorSpec], func returns (v,).", modes=(EAGER,))
def test_ragged_expected_list_got_tuple(mode, _):
    return _ragged_expected_list(lambda v: (v,))


# TF test: EagerPyFuncTest.testRaggedExpectedListGotSingleValue
@case("EagerPyFuncTest.testRaggedExpectedListGotSingleValue", PY_FUNC_TEST, "py_function",
      "Tout [RaggedTensorSpec], func returns v (not wrapped in a list).", modes=(EAGER,))
def test_ragged_expected_list_got_single_value(mode, _):
    return _ragged_expected_list(lambda v: v)


# TF test: EagerPyFuncTest.testRaggedNoReturnValue
@case("EagerPyFuncTest.testRaggedNoReturnValue", PY_FUNC_TEST, "py_function",
      "ragged input, Tout [], func returns None -> [].", modes=(EAGER,))
def test_ragged_no_return_value(mode, _):
    x = tf.ragged.constant([[1, 2, 3], [4], [5, 6]])
    outcome = capture(lambda: py_function(lambda v: None, [x], []))
    return dict(inputs=[x], Tout=[], outcome=outcome, assertion="result == []",
                holds=outcome.ok and outcome.value == [])


# TF test: EagerPyFuncTest.testRaggedBadReturnTypeExpectedTensorReturnedRagged
@case("EagerPyFuncTest.testRaggedBadReturnTypeExpectedTensorReturnedRagged", PY_FUNC_TEST,
      "py_function", "ragged input, Tout [int32], func returns a RaggedTensor.", modes=(EAGER,))
def test_ragged_bad_return_expected_tensor(mode, _):
    rt = tf.ragged.constant([[1, 2], [3, 4, 5]])
    outcome = capture(lambda: py_function(lambda x: x + 3, [rt], [tf.int32]))
    pattern = "py_function: func=.* returned .* which did not match Tout=.*"
    return dict(inputs=[rt], Tout=[tf.int32], outcome=outcome,
                assertion=f"raises ValueError/InvalidArgumentError matching {pattern!r}",
                holds=not outcome.ok and re.search(pattern, str(outcome.error)) is not None)


# TF test: EagerPyFuncTest.testRaggedBadReturnTypeExpectedRaggedReturnedTensor
@case("EagerPyFuncTest.testRaggedBadReturnTypeExpectedRaggedReturnedTensor", PY_FUNC_TEST,
      "py_function", "dense input, Tout [RaggedTensorSpec], func returns the dense tensor.",
      modes=(EAGER,))
def test_ragged_bad_return_expected_ragged(mode, _):
    x = tf.constant([[1, 2, 3]])
    spec = [tf.RaggedTensorSpec([None, None], tf.int32)]
    outcome = capture(lambda: py_function(func=lambda v: v, inp=[x], Tout=spec))
    pattern = "py_function: func=.* returned .* which did not match Tout=.*"
    return dict(inputs=[x], Tout=spec, outcome=outcome,
                assertion=f"raises ValueError/InvalidArgumentError matching {pattern!r}",
                holds=not outcome.ok and re.search(pattern, str(outcome.error)) is not None)


# ==========================================================================
# script_ops_test.py :: class ArgsAndDecoratorsTest
# ==========================================================================

# TF test: ArgsAndDecoratorsTest.test_decorator
@case("ArgsAndDecoratorsTest.test_decorator", SCRIPT_OPS_TEST, "numpy_function",
      "@tf.numpy_function(Tout=int32) decorator; plus(1, 2) == 3 and func runs once.", modes=BOTH)
def test_decorator(mode, _):
    count = {"n": 0}

    @numpy_function(Tout=tf.int32)
    def plus(a, b):
        count["n"] += 1
        return a + b

    outcome = run_mode(mode, lambda: plus(1, 2))
    return dict(inputs=[1, 2], Tout=tf.int32, outcome=outcome, extra={"funcCalls": count["n"]},
                assertion="result == 3 (values only) and count == 1",
                holds=outcome.ok and values_of(outcome) == 3 and count["n"] == 1)


# TF test: ArgsAndDecoratorsTest.test_inline_decorator
@case("ArgsAndDecoratorsTest.test_inline_decorator", SCRIPT_OPS_TEST, "py_function",
      "tf.py_function(Tout=int32)(plus)(1, 2) == 3 and func runs once.", modes=BOTH)
def test_inline_decorator(mode, _):
    count = {"n": 0}

    def plus(a, b):
        count["n"] += 1
        return a + b

    py_plus = py_function(Tout=tf.int32)(plus)
    outcome = run_mode(mode, lambda: py_plus(1, 2))
    return dict(inputs=[1, 2], Tout=tf.int32, outcome=outcome, extra={"funcCalls": count["n"]},
                assertion="result == 3 and count == 1",
                holds=outcome.ok and values_of(outcome) == 3 and count["n"] == 1)


def _minus(a, b):
    return a - b


BAD_ARGS_SUBCASES = {
    # name: (thunk, expected regex)
    "decoratorWithoutTout": (lambda: py_function(lambda a, b: a + b), r"Missing.*Tout"),
    "positionalToutInDecorator": (lambda: py_function(tf.int32)(lambda a, b: a + b),
                                  r"Missing.*Tout"),
    "inpInDecorator": (lambda: py_function(inp=[], Tout=tf.int32)(lambda a, b: a + b),
                       r"Don't.*inp.*decorator"),
    "inpWithoutFunc": (lambda: py_function(inp=[], Tout=tf.int32), r"Don't.*inp.*decorator"),
    "missingInp": (lambda: py_function(_minus, Tout=tf.int32), r"Missing.*inp"),
    "funcKwargInDecorator": (lambda: py_function(func=_minus, Tout=tf.int32)(lambda a, b: a + b),
                             r"Missing.*inp"),
}


# TF test: ArgsAndDecoratorsTest.test_bad_args
@case("ArgsAndDecoratorsTest.test_bad_args", SCRIPT_OPS_TEST, "py_function",
      "argument validation of tf.py_function used directly / as a decorator raises TypeError.",
      params=list(BAD_ARGS_SUBCASES))
def test_bad_args(mode, sub):
    thunk, pattern = BAD_ARGS_SUBCASES[sub]
    outcome = capture(thunk)
    return dict(inputs=[], Tout=tf.int32, outcome=outcome,
                assertion=f"raises TypeError matching {pattern!r}",
                holds=not outcome.ok and isinstance(outcome.error, TypeError)
                and re.search(pattern, str(outcome.error), re.DOTALL) is not None)


# TF test: ArgsAndDecoratorsTest.test_decorator_pass_through_extra_args
@case("ArgsAndDecoratorsTest.test_decorator_pass_through_extra_args", SCRIPT_OPS_TEST,
      "_check_args_and_maybe_make_decorator",
      "the private decorator factory forwards extra kwargs to the script op at call time.")
def test_decorator_pass_through_extra_args(mode, _):
    got = {"extra": None}

    def dummy_script_op(func, inp, extra=None, **kwargs):
        del kwargs
        got["extra"] = extra
        return func(*inp)

    decorator = script_ops._check_args_and_maybe_make_decorator(  # pylint: disable=protected-access
        dummy_script_op, "dummy", Tout=tf.int32, extra="extra")

    @decorator
    def plus(a, b):
        return a + b

    before = got["extra"]
    outcome = capture(lambda: plus(1, 2))
    return dict(inputs=[1, 2], Tout=tf.int32, outcome=outcome,
                extra={"extraBeforeCall": before, "extraAfterCall": got["extra"]},
                assertion="extra is None before the call, 'extra' after; plus(1, 2) == 3",
                holds=before is None and got["extra"] == "extra" and outcome.ok and outcome.value == 3)


# ==========================================================================
# script_ops_test.py :: class NumpyFunctionTest
# ==========================================================================

# TF test: NumpyFunctionTest.test_numpy_arguments
@case("NumpyFunctionTest.test_numpy_arguments", SCRIPT_OPS_TEST, "numpy_function",
      "numpy_function(plus, [1, 2] as Python ints, Tout int32) == 3.", modes=BOTH)
def test_numpy_arguments(mode, _):
    outcome = run_mode(mode, lambda: numpy_function(lambda a, b: a + b, [1, 2], tf.int32))
    return dict(inputs=[1, 2], Tout=tf.int32, outcome=outcome,
                assertion="assertAllEqual(result, constant(3, int32)) (values only)",
                holds=outcome.ok and values_of(outcome) == 3)


def _count_nested(stateful, graph_calls=1):
    """script_ops_test structure: outer tf.function calls the same inner
    tf.function (one numpy_function) twice.  Returns (last outcome, calls) or,
    with graph_calls > 1, (outcomes, calls per outer call)."""
    call_count = {"n": 0}

    def plus(a, b):
        call_count["n"] += 1
        return a + b

    @tf.function
    def numpy_func(a, b):
        return numpy_function(plus, [a, b], tf.int32, stateful=stateful)

    @tf.function
    def outer(a, b):
        return numpy_func(a, b) + numpy_func(a, b)

    if graph_calls == 1:
        outcome = capture(lambda: outer(tf.constant(1), tf.constant(2)), phase="run")
        return outcome, call_count["n"]
    outcomes, per_call = [], []
    for _ in range(graph_calls):
        before = call_count["n"]
        outcomes.append(capture(lambda: outer(tf.constant(1), tf.constant(2)), phase="run"))
        per_call.append(call_count["n"] - before)
    return outcomes, per_call


# TF test: NumpyFunctionTest.test_stateless
@case("NumpyFunctionTest.test_stateless", SCRIPT_OPS_TEST, "numpy_function",
      "stateful=False numpy_function called twice with the same inputs inside one tf.function.",
      modes=(TF_FUNCTION,))
def test_numpy_stateless(mode, _):
    outcome, n = _count_nested(stateful=False)
    return dict(inputs=[tf.constant(1), tf.constant(2)], Tout=tf.int32, outcome=outcome,
                extra={"funcCalls": n}, assertion="call_count in (1, 2)",
                holds=outcome.ok and n in (1, 2))


# TF test: NumpyFunctionTest.test_stateful
@case("NumpyFunctionTest.test_stateful", SCRIPT_OPS_TEST, "numpy_function",
      "stateful=True numpy_function called twice with the same inputs inside one tf.function.",
      modes=(TF_FUNCTION,))
def test_numpy_stateful(mode, _):
    outcome, n = _count_nested(stateful=True)
    return dict(inputs=[tf.constant(1), tf.constant(2)], Tout=tf.int32, outcome=outcome,
                extra={"funcCalls": n}, assertion="call_count == 2",
                holds=outcome.ok and n == 2)


# ==========================================================================
# script_ops_test.py :: class PyFunctionTest
# ==========================================================================

# TF test: PyFunctionTest.test_variable_arguments
@case("PyFunctionTest.test_variable_arguments", SCRIPT_OPS_TEST, "py_function",
      "a tf.Variable(1) and the Python int 2 as inputs; plus -> 3 (Tout int32).", modes=BOTH)
def test_variable_arguments(mode, _):
    v1 = tf.Variable(1)
    received = {}

    def plus(a, b):
        received["types"] = [type(a).__name__, type(b).__name__]
        received["dtypes"] = [a.dtype.name, b.dtype.name]
        return a + b

    outcome = run_mode(mode, lambda: py_function(plus, [v1, 2], tf.int32))
    return dict(inputs=[v1, 2], Tout=tf.int32, outcome=outcome,
                extra={"callbackReceived": received}, assertion="result == 3",
                holds=outcome.ok and values_of(outcome) == 3)


# TF test: PyFunctionTest.test_fail_on_non_utf8_token
@case("PyFunctionTest.test_fail_on_non_utf8_token", SCRIPT_OPS_TEST, "raw PyFunc op",
      "gen_script_ops.py_func with a non-UTF-8 token b'\\xb0' fails.", modes=BOTH)
def test_fail_on_non_utf8_token(mode, _):
    value = tf.constant([1, 2])
    outcome = run_mode(mode, lambda v: gen_script_ops.py_func(input=[v], token=b"\xb0",
                                                              Tout=[tf.int32]), (value,))
    return dict(inputs=[value], Tout=[tf.int32], outcome=outcome,
                assertion="raises InternalError or UnicodeDecodeError",
                holds=not outcome.ok and type(outcome.error).__name__ in
                ("InternalError", "UnicodeDecodeError"))


# ==========================================================================
# Test methods without a meaningful JavaScript counterpart
# ==========================================================================

NO_JS_COUNTERPART = {
    "PyFuncTest.testLarge": "memory/throughput of 1M-element buffers across 100 Session runs "
                            "(TF1 session execution; no semantic assertion beyond 'does not crash')",
    "PyFuncTest.testStateless": "relies on Grappler constant-folding a stateless PyFunc inside a "
                                "TF1 Session graph; tf.js has no graph optimizer",
    "PyFuncTest.testGradientFunction": "inspects the TF graph gradient registry "
                                       "(ops.get_gradient_function on graph ops)",
    "PyFuncTest.testParallel": "GIL release / concurrent inter-op execution of two blocking "
                               "py_funcs; JS callbacks run on a single thread",
    "PyFuncTest.testFunctionReferencesAreKept": "Python garbage collection of the lambda owned by "
                                                "a graph op inside batch_function",
    "PyFuncAndEagerPyFuncTest.testCleanup": "Python refcount/GC leak check of the global "
                                            "callback registry across tf.Graph objects",
    "PyFuncAndEagerPyFuncTest.testCleanupInTfFunction": "Python GC leak check (and skipped "
                                                         "upstream, b/144098211)",
    "EagerPyFuncTest.testRenamedDeviceInTestClusterCorrectlyIdentifiedAsLocalhost":
        "TF1 Session against a local gRPC cluster / device renaming",
    "EagerPyFuncTest.testEagerRespectsDevicePlacementOfOp": "device placement (tf.device('/CPU:0')) "
                                                            "with TF1 placeholders and feed_dict",
    "EagerPyFuncTest.testTapeCache": "internal Python tape_cache dict bookkeeping (leak check "
                                     "for b/198962664)",
    "EagerPyFuncTest.testRaggedTensorArg": "RaggedTensor (no tf.js equivalent)",
    "EagerPyFuncTest.testRaggedTensorReturn": "RaggedTensor / RaggedTensorSpec",
    "EagerPyFuncTest.testRaggedTensorBroadcast": "RaggedTensor / RaggedTensorSpec",
    "EagerPyFuncTest.testRaggedExpectedListGotList": "RaggedTensor / TypeSpec Tout",
    "EagerPyFuncTest.testRaggedExpectedListGotTuple": "RaggedTensor / TypeSpec Tout",
    "EagerPyFuncTest.testRaggedExpectedListGotSingleValue": "RaggedTensor / TypeSpec Tout",
    "EagerPyFuncTest.testRaggedNoReturnValue": "RaggedTensor input",
    "EagerPyFuncTest.testRaggedBadReturnTypeExpectedTensorReturnedRagged": "RaggedTensor "
                                                                           "composite checks",
    "EagerPyFuncTest.testRaggedBadReturnTypeExpectedRaggedReturnedTensor": "RaggedTensorSpec "
                                                                           "composite checks",
    "ArgsAndDecoratorsTest.test_decorator_pass_through_extra_args": "exercises a private Python "
                                                                    "helper (_check_args_and_"
                                                                    "maybe_make_decorator)",
    "NumpyFunctionTest.test_stateless": "depends on tf.function graph de-duplication (CSE) of "
                                        "stateless ops; no graph optimizer in tf.js",
    "PyFunctionTest.test_fail_on_non_utf8_token": "raw PyFunc kernel op with a hand-made "
                                                  "registry token (C++/Python trampoline detail)",
}


# ==========================================================================
# Semantics questions (a..j), each measured eagerly AND inside a tf.function
# ==========================================================================

_VAR_F32 = None


def _var_f32():
    global _VAR_F32  # pylint: disable=global-statement
    if _VAR_F32 is None:
        _VAR_F32 = tf.Variable([1.5], dtype=tf.float32)
    return _VAR_F32


def both_modes(build, args=()):
    return {EAGER: run_mode(EAGER, build, args).json(),
            TF_FUNCTION: run_mode(TF_FUNCTION, build, args).json()}


def return_conversion(wrapper_name, tout, returns):
    """For each (label, make_value) returns {label: {eager:.., tf.function:..}}."""
    wrapper = WRAPPERS[wrapper_name]
    x = tf.constant([1.0, 2.0], tf.float32)
    out = {}
    for label, make in returns:
        res = both_modes(lambda a, mk=make: wrapper(lambda _v: mk(), [a], tout), (x,))
        res["input"] = describe(x)
        res["Tout"] = describe_tout(tout)
        out[label] = res
    return out


def semantics_a():
    """a. tf.py_function(f, [x], tf.float32) for many return types."""
    returns = [
        ("numpy float64 array [1.5, 2.5]", lambda: np.array([1.5, 2.5], np.float64)),
        ("Python float 1.5", lambda: 1.5),
        ("Python int 3", lambda: 3),
        ("Python list of floats [1.5, 2.5]", lambda: [1.5, 2.5]),
        ("nested list [[1.0, 2.0], [3.0, 4.0]]", lambda: [[1.0, 2.0], [3.0, 4.0]]),
        ("numpy int64 array [1, 2]", lambda: np.array([1, 2], np.int64)),
        ("float64 tf.Tensor [1.5]", lambda: tf.constant([1.5], tf.float64)),
        ("int32 tf.Tensor [1]", lambda: tf.constant([1], tf.int32)),
        ("tf.Variable float32 [1.5]", _var_f32),
        ("None", lambda: None),
        ("Python bool True", lambda: True),
        ("Python str 'abc'", lambda: "abc"),
    ]
    return return_conversion("py_function", tf.float32, returns)


def semantics_b():
    """b. tf.py_function(f, [x], tf.int32)."""
    returns = [
        ("Python float 1.5", lambda: 1.5),
        ("numpy float32 array [1.5]", lambda: np.array([1.5], np.float32)),
        ("Python int 3", lambda: 3),
        ("numpy int64 array [1, 2]", lambda: np.array([1, 2], np.int64)),
        ("int64 tf.Tensor [1, 2]", lambda: tf.constant([1, 2], tf.int64)),
        ("Python int 2**40", lambda: 2 ** 40),
        ("numpy int64 array [2**40]", lambda: np.array([2 ** 40], np.int64)),
    ]
    return return_conversion("py_function", tf.int32, returns)


def semantics_c():
    """c. tf.numpy_function(f, [x], tf.float32)."""
    returns = [
        ("numpy float64 array [1.5, 2.5]", lambda: np.array([1.5, 2.5], np.float64)),
        ("Python float 1.5", lambda: 1.5),
        ("Python int 3", lambda: 3),
        ("Python list of floats [1.5, 2.5]", lambda: [1.5, 2.5]),
        ("float32 tf.Tensor [1.5]", lambda: tf.constant([1.5], tf.float32)),
        ("numpy int32 array [1, 2]", lambda: np.array([1, 2], np.int32)),
        ("None", lambda: None),
    ]
    return return_conversion("numpy_function", tf.float32, returns)


def semantics_d():
    """d. tf.numpy_function with Tout float64 / int64."""
    out = {}
    out.update({f"Tout=float64, {k}": v for k, v in return_conversion("numpy_function", tf.float64, [
        ("numpy float32 array [1.5]", lambda: np.array([1.5], np.float32)),
        ("Python float 1.5", lambda: 1.5),
    ]).items()})
    out.update({f"Tout=int64, {k}": v for k, v in return_conversion("numpy_function", tf.int64, [
        ("numpy int32 array [1, 2]", lambda: np.array([1, 2], np.int32)),
        ("Python int 3", lambda: 3),
        ("numpy int64 array [2**40]", lambda: np.array([2 ** 40], np.int64)),
    ]).items()})
    return out


def _arg_info(a):
    info = {"type": type(a).__name__, "dtype": str(a.dtype)}
    if isinstance(a, tf.Tensor):
        info["dtypeName"] = a.dtype.name
        info["shape"] = a.shape.as_list()
        info["value"] = jsonable(tensor_tolist(a))
    else:
        info["shape"] = list(np.shape(a))
        arr = np.asarray(a)
        info["value"] = jsonable(arr.tolist())
        if arr.size:
            info["elementType"] = type(arr.reshape(-1)[0]).__name__
        info["writeable"] = bool(arr.flags.writeable)
    return info


def _recording_build(wrapper, seen):
    """build(v): calls wrapper(f, [v], []) where f records what it receives."""

    def f(a):
        seen.append(_arg_info(a))

    def build(v):
        wrapper(f, [v], [])
        return None

    return build


def semantics_e():
    """e. What the callback receives for each input dtype."""
    inputs = {
        "float64 [1.5, 2.5]": tf.constant([1.5, 2.5], tf.float64),
        "float64 scalar 1.5": tf.constant(1.5, tf.float64),
        "int64 [1, 2]": tf.constant([1, 2], tf.int64),
        "int32 [1, 2]": tf.constant([1, 2], tf.int32),
        "bool [True, False]": tf.constant([True, False]),
        "string [b'a', b'bc']": tf.constant([b"a", b"bc"]),
        "complex64 [1+2j]": tf.constant([1 + 2j], tf.complex64),
    }
    out = {}
    for wname, wrapper in WRAPPERS.items():
        for label, x in inputs.items():
            res = {}
            for mode in BOTH:
                seen = []
                o = run_mode(mode, _recording_build(wrapper, seen), (x,))
                res[mode] = o.json() if not o.ok else {"received": seen[0] if seen else None,
                                                       "calls": len(seen)}
            out[f"{wname} <- {label}"] = res
    return out


def _mismatch_build(wrapper, tout, ret):
    def build(a):
        r = wrapper(lambda _v: ret(), [a], tout)
        return None if isinstance(r, tf.Operation) else r

    return build


def semantics_f():
    """f. Output count mismatch."""
    one = lambda: np.array([1.0], np.float32)  # noqa: E731
    two = lambda: (np.array([1.0], np.float32), np.array([2.0], np.float32))  # noqa: E731
    scenarios = [
        ("Tout [float32, float32], f returns one array", [tf.float32, tf.float32], one),
        ("Tout float32, f returns a 2-tuple", tf.float32, two),
        ("Tout [], f returns a value", [], one),
        ("Tout float32, f returns None", tf.float32, lambda: None),
    ]
    x = tf.constant([1.0], tf.float32)
    out = {}
    for wname, wrapper in WRAPPERS.items():
        for label, tout, ret in scenarios:
            res = both_modes(_mismatch_build(wrapper, tout, ret), (x,))
            res["Tout"] = describe_tout(tout)
            out[f"{wname}: {label}"] = res
    return out


def _empty_tout_build(wrapper, seen):
    def build(a):
        r = wrapper(lambda _v: None, [a], [])
        seen["type"] = type(r).__name__
        seen["length"] = len(r) if isinstance(r, (list, tuple)) else None
        if isinstance(r, tf.Operation):
            seen["opType"] = r.type
        return None

    return build


def semantics_g():
    """g. Tout [] (f returns None): what does each wrapper return?"""
    x = tf.constant([1.0], tf.float32)
    out = {}
    for wname, wrapper in WRAPPERS.items():
        res = {}
        for mode in BOTH:
            seen = {}
            o = run_mode(mode, _empty_tout_build(wrapper, seen), (x,))
            res[mode] = o.json() if not o.ok else {"returned": dict(seen)}
        out[wname] = res
    return out


class CustomError(Exception):
    pass


def _raising_build(wrapper, exc):
    def f(_v):
        raise exc("boom")

    def build(a):
        return wrapper(f, [a], tf.float32)

    return build


def semantics_h():
    """h. Python exceptions raised inside f."""
    exceptions = [ValueError, TypeError, StopIteration, IndexError, NotImplementedError,
                  MemoryError, KeyError, RuntimeError, CustomError]
    x = tf.constant([1.0], tf.float32)
    out = {}
    for wname, wrapper in WRAPPERS.items():
        for exc in exceptions:
            res = both_modes(_raising_build(wrapper, exc), (x,))
            out[f"{wname}: raise {exc.__name__}('boom')"] = res
    return out


def _tape_grad_build(make):
    def build(a):
        with tf.GradientTape() as tape:
            tape.watch(a)
            y = make(a)
        return {"y": y, "grad": tape.gradient(y, a)}  # grad None -> {"kind": "None"}

    return build


def _graph_grad_build(make):
    def build(a):
        y = make(a)
        return {"y": y, "grad": tf.gradients(y, a)[0]}

    return build


def semantics_i():
    """i. Gradients through each wrapper (d(x*x)/dx at x=3)."""
    x = tf.constant(3.0)
    funcs = {
        "py_function(x*x) [tf ops on EagerTensor]":
            lambda a: py_function(lambda v: v * v, [a], tf.float32),
        "py_function(np.square(x.numpy())) [numpy inside]":
            lambda a: py_function(lambda v: np.square(v.numpy()), [a], tf.float32),
        "numpy_function(x*x)": lambda a: numpy_function(lambda v: v * v, [a], tf.float32),
        "py_func(x*x)": lambda a: py_func(lambda v: v * v, [a], tf.float32),
    }
    out = {}
    for label, make in funcs.items():
        res = both_modes(_tape_grad_build(make), (x,))
        tg = run_mode(TF_FUNCTION, _graph_grad_build(make), (x,))
        res["tf.function+tf.gradients"] = tg.json()
        out[label] = res
    return out


def _count_flat(stateful, graph_calls=2):
    """One tf.function with two numpy_function(plus, [a]) ops on the same input."""
    calls = {"n": 0}

    def plus(a):
        calls["n"] += 1
        return a + 1

    @tf.function
    def twice(a):
        r1 = numpy_function(plus, [a], tf.int32, stateful=stateful)
        r2 = numpy_function(plus, [a], tf.int32, stateful=stateful)
        return r1 + r2

    per_call, results = [], []
    for _ in range(graph_calls):
        before = calls["n"]
        results.append(capture(lambda: twice(tf.constant(1)), phase="run").json())
        per_call.append(calls["n"] - before)
    return {"funcCallsPerGraphCall": per_call, "results": results}


def _count_single(stateful, graph_calls=2):
    """One tf.function with ONE numpy_function op, called repeatedly with the same input."""
    calls = {"n": 0}

    def plus(a):
        calls["n"] += 1
        return a + 1

    @tf.function
    def once(a):
        return numpy_function(plus, [a], tf.int32, stateful=stateful)

    per_call, results = [], []
    for _ in range(graph_calls):
        before = calls["n"]
        results.append(capture(lambda: once(tf.constant(1)), phase="run").json())
        per_call.append(calls["n"] - before)
    return {"funcCallsPerGraphCall": per_call, "results": results}


def _count_eager(stateful):
    calls = {"n": 0}

    def plus(a):
        calls["n"] += 1
        return a + 1

    x = tf.constant(1)
    r = [numpy_function(plus, [x], tf.int32, stateful=stateful) for _ in range(2)]
    return {"funcCalls": calls["n"], "results": [describe(v) for v in r]}


def semantics_j():
    """j. numpy_function call counts with stateful=False / True."""
    out = {}
    for stateful in (False, True):
        key = f"stateful={stateful}"
        out[f"{key}: two numpy_function ops, same input, one tf.function, called twice"] = {
            TF_FUNCTION: _count_flat(stateful),
            EAGER: dict(_count_eager(stateful), what="two eager numpy_function(plus, [x]) calls"),
            "note": "each numpy_function call registers its own token, so the two ops differ "
                    "in their 'token' attr"}
        out[f"{key}: one numpy_function op in a tf.function, called twice"] = {
            TF_FUNCTION: _count_single(stateful)}
        outcomes, per_call = _count_nested(stateful, graph_calls=2)
        out[f"{key}: nested tf.function calling the same inner tf.function twice "
            f"(script_ops_test structure), outer called twice"] = {
            TF_FUNCTION: {"funcCallsPerGraphCall": per_call,
                          "results": [o.json() for o in outcomes],
                          "note": "the two call ops share one inner function (one token), so "
                                  "the stateless pair can be de-duplicated"}}
    return out


SEMANTICS = [
    ("a_py_function_Tout_float32_returns", semantics_a),
    ("b_py_function_Tout_int32_returns", semantics_b),
    ("c_numpy_function_Tout_float32_returns", semantics_c),
    ("d_numpy_function_Tout_float64_int64_returns", semantics_d),
    ("e_callback_argument_types", semantics_e),
    ("f_output_count_mismatch", semantics_f),
    ("g_Tout_empty_return", semantics_g),
    ("h_exceptions_inside_func", semantics_h),
    ("i_gradients", semantics_i),
    ("j_stateless_call_counts", semantics_j),
]


# ==========================================================================
# Main
# ==========================================================================

def main():
    entries = [run_case(c) for c in CASES]
    semantics = {}
    for name, fn in SEMANTICS:
        semantics[name] = fn()
    doc = {
        "meta": {
            "generator": "scripts/tf-ground-truth/py_func_cases.py",
            "tensorflow": tf.__version__,
            "numpy": np.__version__,
            "python": sys.version.split()[0],
            "device": "CPU",
            "sources": {
                PY_FUNC_TEST: "tensorflow/tensorflow: tensorflow/python/kernel_tests/control_flow/"
                              "py_func_test.py",
                SCRIPT_OPS_TEST: "tensorflow/tensorflow: tensorflow/python/ops/script_ops_test.py "
                                 "(version with ArgsAndDecoratorsTest / PyFunctionTest)",
            },
            "wrappers": {
                "py_func": "tf.compat.v1.py_func",
                "numpy_function": "tf.numpy_function",
                "py_function": "tf.py_function (script_ops.eager_py_func)",
            },
            "modes": {
                EAGER: "called directly in TF2 eager mode",
                TF_FUNCTION: "called inside a tf.function (graph; PyFunc/EagerPyFunc kernels run)",
                "graph-construction": "tf.Graph objects built but not executed",
                "not-run": "not executable in TF2 (reason given in result.skipped)",
            },
            "errorFields": {
                "class": "exception class name",
                "phase": "'call' (eager), 'trace' (tf.function tracing), 'run' (tf.function execution)",
                "firstLine": "first line of str(exception), normalised",
                "keyLine": "first informative line (skips 'Graph execution error:' and the "
                           "'Detected at node' stack; strips '{{function_node ...}} ' prefix; "
                           "for autograph 'in user code:' errors the last non-empty line)",
                "message": "full str(exception), normalised",
            },
            "normalization": NORMALIZATION_RULES,
            "caseCount": len(entries),
        },
        "cases": entries,
        "noJsCounterpart": [{"id": k, "reason": v} for k, v in NO_JS_COUNTERPART.items()],
        "semantics": semantics,
    }
    os.makedirs(os.path.dirname(OUT_PATH), exist_ok=True)
    text = json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    with open(OUT_PATH, "w", encoding="utf-8") as fh:
        fh.write(text)
    print(f"wrote {os.path.relpath(OUT_PATH, REPO_ROOT)}: {len(entries)} case entries "
          f"({len({e['id'] for e in entries})} distinct ids), "
          f"{len(NO_JS_COUNTERPART)} noJsCounterpart, {len(semantics)} semantics sections")


if __name__ == "__main__":
    main()
