#!/usr/bin/env bash
# The native (tensorflow) test leg: tensorflow-cpu 2.21.0 from pip in a venv cached outside the
# repo (test/helpers/tensorflow-python.ts finds it), and @tensorflow/tfjs-node built against it by
# `tfjs-callbacks setup-native` into its cache (~/.cache/tfjs-callback-debugger/native). Optional:
# where it cannot be done, one loud line says the native leg will not run and why; the tests that
# need it then skip, and every other test runs as before. Never fails the setup.
set -uo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/tfjs-callback-debugger"
venv="$cache/tf-venv"
TF=tensorflow-cpu==2.21.0

skip() {
  echo "setup-native-test: ######## the native (tensorflow) test leg will NOT run: $1 ########" >&2
  exit 0
}

if ! "$venv/bin/python" -c 'import importlib.metadata as m; assert m.version("tensorflow-cpu") == "2.21.0"' 2>/dev/null; then
  python="$(command -v python3.11 || command -v python3 || true)"
  [ -n "$python" ] || skip "no python3 on the PATH to install $TF with"
  rm -rf "$venv"
  mkdir -p "$cache"
  "$python" -m venv "$venv" >/dev/null 2>&1 || skip "$python -m venv failed (Debian: apt-get install -y python3-venv)"
  echo "setup-native-test: installing $TF into $venv (about 600 MB)"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "$TF" >"$cache/tf-venv-pip.log" 2>&1 ||
    skip "pip could not install $TF with $python: $(tail -n 1 "$cache/tf-venv-pip.log")"
fi

log="$cache/setup-native-test.log"
if (cd "$root" && node --import tsx runtime/cli/main.ts setup-native --python "$venv/bin/python") >"$log" 2>&1; then
  grep -E '^(✓|  checked|reusing)' "$log" | sed 's/^ */setup-native-test: /'
else
  skip "tfjs-callbacks setup-native failed: $(grep -m1 'setup-native:' "$log" || tail -n 1 "$log")"
fi
