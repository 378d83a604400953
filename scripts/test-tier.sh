#!/usr/bin/env bash
# `npm run test:<tier>`: one tier of the tests, alone, on a clean checkout. A tier is a folder of
# test/ (CONTRIBUTING.md, "Tests"); all but `unit` first install what tests need
# (scripts/setup-test-env.sh, cached) and build, as `npm test` does before running every tier.
set -euo pipefail

tier="${1:-}"
case "$tier" in
  unit) folders=(test/unit) ;;
  runtime) folders=(test/runtime) ;;
  dap) folders=(test/debug-adapter) ;;
  shapes) folders=(test/shapes) ;;
  web) folders=(test/webview) ;;
  lsp) folders=(test/lsp) ;;
  hostile) folders=(test/hostile) ;;
  extension) folders=(test/extension test/docs) ;;
  e2e) folders=(test/e2e) ;;
  *)
    echo "test-tier: unknown tier '$tier': use unit, runtime, dap, shapes, web, lsp, hostile, extension or e2e" >&2
    exit 2
    ;;
esac

cd "$(dirname "$0")/.."
if [ "$tier" != unit ]; then
  bash scripts/setup-test-env.sh
  npm run build
fi
# shellcheck disable=SC2046 # one argument per test file
exec node --import tsx --test --test-concurrency=1 $(find "${folders[@]}" -name '*.test.ts' | sort)
