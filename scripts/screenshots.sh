#!/usr/bin/env bash
# Screenshots of the web board for docs/img/: the browser test
# (solver/tests/web_browser.rs, headless Chromium) takes them while it plays;
# this runs it with SCREENSHOTS_DIR pointing into docs/.
# Needs Debian's chromium and chromium-driver (apt-get install -y chromium chromium-driver).
set -euo pipefail
cd "$(dirname "$0")/.."
export SCREENSHOTS_DIR="$PWD/docs/img"
mkdir -p "$SCREENSHOTS_DIR"
CI=true cargo test --release -p solver --test web_browser -- --nocapture
rm -f "$SCREENSHOTS_DIR/failure.png"
ls -l "$SCREENSHOTS_DIR"
