#!/usr/bin/env bash
# Installs the Debian packages the test suite needs: Chromium for the e2e tests plus every
# package in scripts/test-packages.txt; with --bench, also those of scripts/bench-packages.txt
# (the tools `npm run bench` compares against). Does nothing (and needs no network) when all
# are there.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
lists=("$here/test-packages.txt")
[[ "${1:-}" == "--bench" ]] && lists+=("$here/bench-packages.txt")

wanted=(chromium)
for list in "${lists[@]}"; do
  while IFS= read -r line || [[ -n "$line" ]]; do
    line="${line%%#*}"
    line="${line//[[:space:]]/}"
    [[ -n "$line" ]] && wanted+=("$line")
  done <"$list"
done

missing=()
for pkg in "${wanted[@]}"; do
  status="$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)"
  [[ "$status" == "install ok installed" ]] || missing+=("$pkg")
done

if [[ ${#missing[@]} -eq 0 ]]; then
  exit 0
fi

sudo=()
if [[ "$(id -u)" -ne 0 ]]; then
  command -v sudo >/dev/null || { echo "install-test-deps: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  sudo=(sudo)
fi

echo "install-test-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
