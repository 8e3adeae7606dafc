#!/usr/bin/env bash
# html-screenshot.sh renders an HTML file (such as `serbench run -format html`
# output) in headless Chromium and saves a PNG, to check by eye that the page
# is readable. Chromium gets a fresh profile and no network-facing features.
#
# usage: scripts/html-screenshot.sh PAGE.html [OUT.png] [WIDTH,HEIGHT]
# defaults: OUT = PAGE with .png, size 1400,2400. Installs Debian's chromium
# with apt-get when it is missing (needs root).
set -euo pipefail

if [ $# -lt 1 ] || [ $# -gt 3 ]; then
	echo "usage: $0 PAGE.html [OUT.png] [WIDTH,HEIGHT]" >&2
	exit 2
fi
page=$1
out=${2:-${page%.html}.png}
size=${3:-1400,2400}
if [ ! -f "$page" ]; then
	echo "$0: $page: no such file" >&2
	exit 1
fi

browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
	echo "$0: installing chromium" >&2
	apt-get update -qq >&2
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >&2
	browser=$(command -v chromium)
fi

abs=$(cd "$(dirname "$page")" && pwd)/$(basename "$page")
case $out in /*) ;; *) out=$PWD/$out ;; esac
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT

"$browser" --headless --no-sandbox --disable-gpu --no-first-run \
	--disable-background-networking --disable-component-update --disable-sync \
	--hide-scrollbars --user-data-dir="$profile" \
	--screenshot="$out" --window-size="$size" "file://$abs" 2>"$profile/stderr" || {
	cat "$profile/stderr" >&2
	exit 1
}
if [ ! -s "$out" ]; then
	echo "$0: chromium wrote no screenshot" >&2
	cat "$profile/stderr" >&2
	exit 1
fi
echo "$out"
