#!/usr/bin/env bash
# `npm run test:deploy`: the deployment run for real (decision 0202). Starts the Docker engine if
# none answers (.ci/engine-up.sh), builds the local stand-ins of the third-party images, builds the
# hub-services/* images from docker/Dockerfile, then brings docker/docker-compose.yml up with
# Compose v1, then with Compose v2, and drives it (apps/e2e-deploy/src/stack/*.stack-spec.ts). Everything it creates is
# named hub-deploy-*; the stack is taken down at the end, the images stay (the next build reuses
# their layers).
# Env: HUB_IMAGE_TAG (default hub-deploy-test), HUB_DEPLOY_APPS (the images to build),
#      DOCKER_BUILDKIT (1 by default; 0 = the legacy builder), HUB_DEPLOY_REUSE_IMAGES=1 (skip the
#      build of an image whose tag exists: for iterating on the test, never in CI).
set -euo pipefail
cd "$(dirname "$0")/../.."
t0=$SECONDS
say() { echo "[test:deploy $(date -u +%T) +$((SECONDS - t0))s] $*"; }

bash .ci/engine-up.sh
if ! command -v docker-compose >/dev/null 2>&1; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends docker-compose >/dev/null
fi
say "$(docker-compose version --short 2>/dev/null | sed 's/^/docker-compose /')"
bash docker/local/build-stand-ins.sh
say "stand-in images ready"

export HUB_IMAGE_TAG=${HUB_IMAGE_TAG:-hub-deploy-test}
export DOCKER_BUILDKIT=${DOCKER_BUILDKIT:-1}
apps=${HUB_DEPLOY_APPS:-gateway credentials organizations notifications webhooks jobs}
for app in $apps; do
  tag=hub-services/$app:$HUB_IMAGE_TAG
  if [ "${HUB_DEPLOY_REUSE_IMAGES:-}" = 1 ] && /usr/bin/docker image inspect "$tag" >/dev/null 2>&1; then
    say "$tag exists, reused"; continue
  fi
  b0=$SECONDS
  # Tagged with the release and the commit too, as a release is built (docker/build-images.sh).
  tags=$(DOCKER=/usr/bin/docker NODE_IMAGE=hub-deploy/node:20-bookworm-slim HUB_BUILD_LOG_DIR=/tmp \
    nice -n 10 bash docker/build-images.sh "$app")
  say "$tags built in $((SECONDS - b0)) s (DOCKER_BUILDKIT=$DOCKER_BUILDKIT)"
done

status=0
# The same file and the same scenarios with Compose v1 (Debian bookworm's docker-compose 1.29),
# then with Compose v2 (Debian trixie's, fetched by compose-v2.sh): a user may have either.
say "compose v1: $(docker-compose version --short 2>/dev/null)"
NX_DAEMON=false npx jest -c apps/e2e-deploy/jest.stack.config.cts --runInBand "$@" || status=$?
v2=$(bash docker/local/compose-v2.sh)
say "compose v2: $("$v2" version --short 2>/dev/null)"
HUB_COMPOSE=$v2 NX_DAEMON=false npx jest -c apps/e2e-deploy/jest.stack.config.cts --runInBand "$@" || status=$?
say "done (exit $status)"
exit "$status"
