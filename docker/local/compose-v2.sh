#!/usr/bin/env bash
# Compose v2 for `npm run test:deploy` (issue 29: the compose file runs with v1 and v2 alike).
# Debian bookworm packages only Compose v1; Debian trixie's `docker-compose` package is Compose v2
# (a Go binary needing only libc >= 2.34, which bookworm has). Fetched from Debian's archive (the
# only package source these machines reach) into HUB_COMPOSE_V2_DIR, not installed: apt stays on
# bookworm. Idempotent; prints the binary's path.
set -euo pipefail
DIR=${HUB_COMPOSE_V2_DIR:-/opt/hub-compose-v2}
BIN=$DIR/docker-compose
MIRROR=${HUB_DEBIAN_MIRROR:-http://deb.debian.org/debian}
arch=$(dpkg --print-architecture)
if ! "$BIN" version >/dev/null 2>&1; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  # The current file name from trixie's package index (the pool keeps only current versions).
  curl -fsS --max-time 300 "$MIRROR/dists/trixie/main/binary-$arch/Packages.xz" -o "$tmp/Packages.xz"
  # (awk reads to the end: an early exit would fail the pipe under pipefail)
  file=$(xz -dc "$tmp/Packages.xz" | awk '/^Package: docker-compose$/ { p = 1 } p && !f && /^Filename:/ { print $2; f = 1 }')
  [ -n "$file" ] || { echo "no docker-compose package in Debian trixie's index" >&2; exit 1; }
  curl -fsS --max-time 300 "$MIRROR/$file" -o "$tmp/compose.deb"
  dpkg-deb -x "$tmp/compose.deb" "$tmp/x"
  mkdir -p "$DIR"
  install -m 0755 "$tmp/x/usr/libexec/docker/cli-plugins/docker-compose" "$BIN"
fi
"$BIN" version >&2
echo "$BIN"
