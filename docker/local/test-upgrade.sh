#!/usr/bin/env bash
# `npm run test:upgrade` (issue 38 item 2, decision 0207): the previous release, built from a pinned
# commit checked out with `git worktree`, brought up on Compose with its own compose files, driven
# through its gateway, then upgraded to this tree one service at a time (`up -d --no-deps`) while
# traffic flows (apps/e2e-deploy/src/upgrade/*.upgrade-spec.ts).
#
# Images, built once:
#   hub-services/<app>:<12-hex commit of the previous release>   from the worktree; a commit's tree
#     never changes, so an image with that tag is reused as it is (a second run builds nothing).
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
# The release this tree upgrades from (bump with each release: docs/upgrading.md).
FROM=${HUB_UPGRADE_FROM:-edf7198}
W=${HUB_UPGRADE_WORK:-/tmp/hub-upgrade-work}
prev_commit=$(git rev-parse --verify --short=12 "$FROM^{commit}")
PREV_DIR=$W/prev-$prev_commit

bash .ci/engine-up.sh
if ! command -v docker-compose >/dev/null 2>&1; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends docker-compose >/dev/null
fi
bash docker/local/build-stand-ins.sh
say "stand-in images ready"

# The previous release's tree: its compose files are the ones the stack starts from, and the
# all-in-one scenario runs its `npm start`. Kept between runs (a commit's tree never changes; its
# dist/ then need not be built again).
mkdir -p "$W"
git worktree prune
if [ "$(git -C "$PREV_DIR" rev-parse --short=12 HEAD 2>/dev/null || true)" != "$prev_commit" ]; then
  git worktree remove --force "$PREV_DIR" >/dev/null 2>&1 || rm -rf "$PREV_DIR"
  git worktree add --detach "$PREV_DIR" "$prev_commit" >/dev/null
fi
# Its node_modules: this tree's, hard-linked, when its lockfile pins nothing this one does not pin
# the same (true of edf7198: this release only added packages); its own `npm ci` otherwise.
if [ ! -d "$PREV_DIR/node_modules" ]; then
  if node -e '
    const [a, b] = process.argv.slice(1).map((f) => require(f).packages);
    process.exit(Object.entries(a).every(([k, v]) => !k || (b[k] && b[k].version === v.version)) ? 0 : 1);' \
    "$PREV_DIR/package-lock.json" "$PWD/package-lock.json"; then
    cp -al node_modules "$PREV_DIR/node_modules"
  else
    (cd "$PREV_DIR" && HUB_SKIP_PREPARE_BUILD=1 npm ci --no-audit --no-fund >/dev/null)
  fi
fi
say "previous release $FROM ($prev_commit) checked out at $PREV_DIR"

build() { # dir tag app
  local log=$W/build-$3-$2.log b0=$SECONDS
  (cd "$1" && nice -n 10 "$DOCKER" build -f docker/Dockerfile --build-arg APP="$3" \
    --build-arg NODE_IMAGE=hub-deploy/node:20-bookworm-slim -t "hub-services/$3:$2" . >"$log" 2>&1) ||
    { tail -40 "$log" >&2; exit 1; }
  say "hub-services/$3:$2 built in $((SECONDS - b0)) s"
}
export DOCKER_BUILDKIT=${DOCKER_BUILDKIT:-1}
for app in "${APPS[@]}"; do
  if "$DOCKER" image inspect "hub-services/$app:$prev_commit" >/dev/null 2>&1; then
    say "hub-services/$app:$prev_commit exists (a commit's image), reused"
  else
    build "$PREV_DIR" "$prev_commit" "$app"
  fi
done

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
HUB_DEPLOY_PROJECT=hub-upgrade HUB_UPGRADE_PREV_DIR=$PREV_DIR HUB_UPGRADE_PREV_TAG=$prev_commit NX_DAEMON=false \
  npx jest -c apps/e2e-deploy/jest.upgrade.config.cts --runInBand "$@" || status=$?
say "upgrade scenario took $((SECONDS - s0)) s; done (exit $status)"
exit "$status"
