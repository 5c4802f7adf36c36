# Sourced by docker/local/test-upgrade.sh (Compose) and k8s/local/upgrade.sh (Kubernetes), decision
# 0207: the previous release checked out with `git worktree` and its six images built from its own
# Dockerfile, tagged with its commit. A commit's tree and images never change: both are kept and
# reused (a second run builds nothing). Needs `say`, a Docker engine and the stand-in images
# (docker/local/build-stand-ins.sh). Sets PREV_DIR (the checkout) and PREV_TAG (its 12-hex commit).
# Env: HUB_UPGRADE_FROM (the previous release's commit, default below), HUB_UPGRADE_WORK (default
#      /tmp/hub-upgrade-work).
# The release this tree upgrades from (bump with each release: docs/upgrading.md).
FROM=${HUB_UPGRADE_FROM:-edf7198}
UPG_W=${HUB_UPGRADE_WORK:-/tmp/hub-upgrade-work}
PREV_TAG=$(git rev-parse --verify --short=12 "$FROM^{commit}")
PREV_DIR=$UPG_W/prev-$PREV_TAG
PREV_DOCKER=${DOCKER:-/usr/bin/docker}

# The previous release's tree: its compose files and k8s overlay are the ones the stack starts
# from, and the all-in-one scenario runs its `npm start`. Kept between runs (its dist/ then need
# not be built again).
mkdir -p "$UPG_W"
git worktree prune
if [ "$(git -C "$PREV_DIR" rev-parse --short=12 HEAD 2>/dev/null || true)" != "$PREV_TAG" ]; then
  git worktree remove --force "$PREV_DIR" >/dev/null 2>&1 || rm -rf "$PREV_DIR"
  git worktree add --detach "$PREV_DIR" "$PREV_TAG" >/dev/null
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
say "previous release $FROM ($PREV_TAG) checked out at $PREV_DIR"

# Two runs at once (test:upgrade beside test:k8s) build each image once: one build per machine at a time.
exec 8>"$UPG_W/build.lock"
flock -w 3600 8 || { echo "another run holds $UPG_W/build.lock" >&2; exit 1; }
for app in gateway credentials organizations notifications webhooks jobs; do
  if "$PREV_DOCKER" image inspect "hub-services/$app:$PREV_TAG" >/dev/null 2>&1; then
    say "hub-services/$app:$PREV_TAG exists (a commit's image), reused"
  else
    b0=$SECONDS log=$UPG_W/build-$app-$PREV_TAG.log
    (cd "$PREV_DIR" && DOCKER_BUILDKIT=${DOCKER_BUILDKIT:-1} nice -n 10 "$PREV_DOCKER" build -f docker/Dockerfile \
      --build-arg APP="$app" --build-arg NODE_IMAGE=hub-deploy/node:20-bookworm-slim -t "hub-services/$app:$PREV_TAG" . \
      >"$log" 2>&1) || { tail -40 "$log" >&2; exit 1; }
    say "hub-services/$app:$PREV_TAG built in $((SECONDS - b0)) s"
  fi
done
exec 8>&-
