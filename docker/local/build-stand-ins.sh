#!/usr/bin/env bash
# Local stand-ins for the images docker/ uses from a registry, built from Debian packages and this
# machine's Node 20 (no registry is reachable on the CI machines; decision 0202):
#   hub-deploy/debian:bookworm          debootstrap --variant=minbase + docker import
#   hub-deploy/node:20-bookworm-slim    this machine's node + npm, user node (1000), the CA bundle
#   hub-deploy/postgres:15              Debian postgresql-15, the official image's POSTGRES_* variables
#   hub-deploy/nats:2                   Debian nats-server (+ wget for the compose health check)
#   hub-deploy/mailpit:local            a small SMTP catcher with Mailpit's ports, API subset and `readyz`
# Idempotent: an image that exists and matches its files here is kept (HUB_DEPLOY_REBUILD=1
# rebuilds them all). Legacy builder.
# Env: HUB_DEPLOY_WORK (scratch dir, default /tmp/hub-deploy-work), DEBIAN_MIRROR.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
W=${HUB_DEPLOY_WORK:-/tmp/hub-deploy-work}
MIRROR=${DEBIAN_MIRROR:-$(awk '/^URIs:/{print $2; exit}' /etc/apt/sources.list.d/*.sources 2>/dev/null || true)}
MIRROR=${MIRROR:-http://deb.debian.org/debian}
DOCKER=/usr/bin/docker
[ -x "$DOCKER" ] || DOCKER=docker
export DOCKER_BUILDKIT=0
mkdir -p "$W"
say() { echo "[stand-ins $(date -u +%T)] $*"; }
have() { [ -z "${HUB_DEPLOY_REBUILD:-}" ] && "$DOCKER" image inspect "$1" >/dev/null 2>&1; }
# A stand-in built from a folder here carries its files' hash: edited files rebuild it.
build() { local tag=$1 dir=$2 t0=$SECONDS hash
  hash=$(cd "$dir" && find . -type f | sort | xargs sha256sum | sha256sum | cut -c1-16)
  [ -z "${HUB_DEPLOY_REBUILD:-}" ] &&
    [ "$("$DOCKER" image inspect -f '{{index .Config.Labels "hub-deploy.hash"}}' "$tag" 2>/dev/null)" = "$hash" ] && return 0
  nice -n 10 "$DOCKER" build -q --label "hub-deploy.hash=$hash" -t "$tag" "$dir" >/dev/null
  say "$tag built in $((SECONDS - t0)) s"; }

if ! command -v debootstrap >/dev/null 2>&1; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap >/dev/null
fi

if ! have hub-deploy/debian:bookworm; then
  t0=$SECONDS
  rm -rf "$W/rootfs"
  nice -n 10 debootstrap --variant=minbase bookworm "$W/rootfs" "$MIRROR" >"$W/debootstrap.log" 2>&1 ||
    { tail -20 "$W/debootstrap.log" >&2; exit 1; }
  rm -rf "$W/rootfs/var/cache/apt/archives/"*.deb "$W/rootfs/var/lib/apt/lists/"*
  tar -C "$W/rootfs" -c . | "$DOCKER" import --change 'CMD ["/bin/bash"]' - hub-deploy/debian:bookworm >/dev/null
  rm -rf "$W/rootfs"
  say "hub-deploy/debian:bookworm imported in $((SECONDS - t0)) s"
fi

# node:20-bookworm-slim: node, npm, npx, corepack from this machine; its CA bundle (HTTPS egress
# may be re-signed by a local authority: npm in the build stage needs it).
d=$W/node20; rm -rf "$d"; mkdir -p "$d"
if ! have hub-deploy/node:20-bookworm-slim; then
  nodes=(usr/bin/node usr/bin/npm usr/bin/npx usr/lib/node_modules/npm)
  for p in usr/bin/corepack usr/lib/node_modules/corepack usr/include/node; do [ -e "/$p" ] && nodes+=("$p"); done
  tar -C / -cf "$d/node.tar" "${nodes[@]}"
  cp /etc/ssl/certs/ca-certificates.crt "$d/ca.crt"
  cat >"$d/Dockerfile" <<'DOCKERFILE'
FROM hub-deploy/debian:bookworm
ADD node.tar /
COPY ca.crt /etc/ssl/certs/ca-certificates.crt
RUN groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/bash --create-home node
ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt
CMD ["node"]
DOCKERFILE
  nice -n 10 "$DOCKER" build -q -t hub-deploy/node:20-bookworm-slim "$d" >/dev/null
  say "hub-deploy/node:20-bookworm-slim built"
fi

build hub-deploy/postgres:15 "$here/postgres"
build hub-deploy/nats:2 "$here/nats"
build hub-deploy/mailpit:local "$here/mailpit"
rm -rf "$d"
