#!/usr/bin/env bash
# `npm run test:upgrade` (issue 38 item 2, decision 0207): the previous release, built from a pinned
# commit checked out with `git worktree`, brought up on Compose with its own compose files, driven
# through its gateway, then upgraded to this tree one service at a time (`up -d --no-deps`) while
# traffic flows (apps/e2e-deploy/src/upgrade/*.upgrade-spec.ts).
#
# Images, built once:
#   hub-services/<app>:<12-hex commit of the previous release>   from the worktree
#     (docker/local/upgrade-prev.sh, shared with the Kubernetes upgrade); a commit's tree never
#     changes, so an image with that tag is reused as it is (a second run builds nothing).
#   hub-services/<app>:$HUB_IMAGE_TAG (hub-deploy-test)          this tree's, as `npm run test:deploy`
#     builds them: reused when their revision label is this tree's commit (in .ci/run test:deploy
#     ran just before), built through docker/build-images.sh otherwise.
# Everything it creates is named hub-upgrade-* (compose project, receiver container, worktree).
# Env: HUB_UPGRADE_FROM (the previous release's commit, default below), HUB_IMAGE_TAG,
#      HUB_DEPLOY_KEEP=1 (leave the stack up), HUB_UPGRADE_WORK (default /tmp/hub-upgrade-work),
#      HUB_DEPLOY_REUSE_IMAGES=1 (reuse this tree's images whatever commit built them: for
#      iterating on the test, never in CI). Extra arguments go to jest (e.g. -t compose).
set -euo pipefail
cd "$(dirname "$0")/../.."
t0=$SECONDS
say() { echo "[test:upgrade $(date -u +%T) +$((SECONDS - t0))s] $*"; }
DOCKER=/usr/bin/docker
APPS=(gateway credentials organizations notifications webhooks jobs)
W=${HUB_UPGRADE_WORK:-/tmp/hub-upgrade-work}

bash .ci/engine-up.sh
if ! command -v docker-compose >/dev/null 2>&1; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends docker-compose >/dev/null
fi
bash docker/local/build-stand-ins.sh
say "stand-in images ready"

# The previous release: its checkout (PREV_DIR) and images (PREV_TAG), built once per machine.
source docker/local/upgrade-prev.sh
export DOCKER_BUILDKIT=${DOCKER_BUILDKIT:-1}

export HUB_IMAGE_TAG=${HUB_IMAGE_TAG:-hub-deploy-test}
head=$(git rev-parse --short=12 HEAD)
[ -n "$(git status --porcelain --untracked-files=no)" ] && head="$head-dirty"
for app in "${APPS[@]}"; do
  rev=$("$DOCKER" image inspect -f '{{index .Config.Labels "org.opencontainers.image.revision"}}' \
    "hub-services/$app:$HUB_IMAGE_TAG" 2>/dev/null || true)
  if [ "$rev" = "$head" ] && [ "${head%-dirty}" = "$head" ]; then
    say "hub-services/$app:$HUB_IMAGE_TAG is this commit's ($head), reused"
  elif [ "${HUB_DEPLOY_REUSE_IMAGES:-}" = 1 ] && [ -n "$rev" ]; then
    say "hub-services/$app:$HUB_IMAGE_TAG (built from $rev) reused: HUB_DEPLOY_REUSE_IMAGES=1, never in CI"
  else
    b0=$SECONDS
    DOCKER=$DOCKER NODE_IMAGE=hub-deploy/node:20-bookworm-slim HUB_BUILD_LOG_DIR=$W \
      nice -n 10 bash docker/build-images.sh "$app" >/dev/null
    say "hub-services/$app:$HUB_IMAGE_TAG built from $head in $((SECONDS - b0)) s"
  fi
done

status=0
s0=$SECONDS
HUB_DEPLOY_PROJECT=hub-upgrade HUB_UPGRADE_PREV_DIR=$PREV_DIR HUB_UPGRADE_PREV_TAG=$PREV_TAG NX_DAEMON=false \
  npx jest -c apps/e2e-deploy/jest.upgrade.config.cts --runInBand "$@" || status=$?
say "upgrade scenario took $((SECONDS - s0)) s; done (exit $status)"
exit "$status"
