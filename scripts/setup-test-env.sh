#!/usr/bin/env bash
# Installs what the browser, end-to-end and native-backend tests need on a fresh Debian machine:
# Debian's Chromium at /usr/bin/chromium, driven by playwright-core (never `npx playwright install`),
# code-server 4.100.3 (scripts/setup-code-server.sh), and the native leg: tensorflow-cpu 2.21.0 in a
# cached venv with tfjs-node built against it (scripts/setup-native-test.sh). Idempotent: does
# nothing for what is already there.
set -euo pipefail

CHROMIUM=/usr/bin/chromium

here="$(cd "$(dirname "$0")" && pwd)"

# The end-to-end test's real VS Code (code-server 4.100.3), cached outside node_modules.
code_server() {
  "$here/setup-code-server.sh" | tail -n 1 | sed 's/^/setup-test-env: code-server at /'
}

if [ -x "$CHROMIUM" ]; then
  echo "setup-test-env: $CHROMIUM present ($("$CHROMIUM" --version 2>/dev/null || echo 'version unknown'))"
  code_server
  "$here/setup-native-test.sh"
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "setup-test-env: $CHROMIUM is missing and this is not root; the webview tests need it." >&2
  echo "Install it with:" >&2
  echo "  sudo apt-get update && sudo apt-get install -y chromium" >&2
  exit 1
fi

export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y chromium

if [ ! -x "$CHROMIUM" ]; then
  echo "setup-test-env: apt-get installed chromium but $CHROMIUM is not there" >&2
  exit 1
fi
echo "setup-test-env: installed $("$CHROMIUM" --version 2>/dev/null || echo chromium)"
code_server
"$here/setup-native-test.sh"
