#!/bin/sh
# Installs the browser that transport/server's Chromium test
# (TestBrowserDecodes: the demo page decoding every codec over SSE and
# WebSocket) drives with chromedp. Idempotent: a Chromium-family browser
# already on the PATH is left alone. The test looks for the same names; with
# CI set it fails instead of skipping when none is found.
set -eu

for b in chromium chromium-browser google-chrome google-chrome-stable headless-shell; do
	if command -v "$b" >/dev/null 2>&1; then
		"$b" --version
		exit 0
	fi
done

if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium
chromium --version
