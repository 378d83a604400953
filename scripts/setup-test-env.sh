#!/usr/bin/env bash
# Installs what the webview (browser) tests need on a fresh Debian machine: Debian's Chromium at
# /usr/bin/chromium, driven by playwright-core (never `npx playwright install`). Idempotent: does
# nothing when Chromium is already there.
set -euo pipefail

CHROMIUM=/usr/bin/chromium

if [ -x "$CHROMIUM" ]; then
  echo "setup-test-env: $CHROMIUM present ($("$CHROMIUM" --version 2>/dev/null || echo 'version unknown'))"
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
