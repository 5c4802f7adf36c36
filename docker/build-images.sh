#!/usr/bin/env bash
# Builds the hub's images from docker/Dockerfile, each tagged with the release (package.json's
# version) and the commit it was built from (decision 0203):
#   hub-services/<app>:0.1.0 and hub-services/<app>:<12-hex commit> (plus -dirty for uncommitted changes)
# Usage: bash docker/build-images.sh [app ...]   (default: the six distributed apps)
# Env: HUB_IMAGE_REPO (default hub-services; e.g. registry.example.com/hub), HUB_IMAGE_TAG (one more
#      tag, e.g. the test's), NODE_IMAGE (the base image), DOCKER (default docker), HUB_BUILD_LOG_DIR
#      (a build's output goes to <dir>/hub-build-<app>.log instead of the terminal).
set -euo pipefail
cd "$(dirname "$0")/.."
version=$(node -p "require('./package.json').version")
commit=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
[ "$commit" != unknown ] && [ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ] && commit="$commit-dirty"
repo=${HUB_IMAGE_REPO:-hub-services}
apps=("$@")
[ ${#apps[@]} -gt 0 ] || apps=(gateway credentials organizations notifications webhooks jobs)
for app in "${apps[@]}"; do
  tags=(-t "$repo/$app:$version" -t "$repo/$app:$commit")
  [ -n "${HUB_IMAGE_TAG:-}" ] && tags+=(-t "$repo/$app:$HUB_IMAGE_TAG")
  args=(build -f docker/Dockerfile --build-arg APP="$app" --build-arg HUB_VERSION="$version" --build-arg HUB_COMMIT="$commit")
  [ -n "${NODE_IMAGE:-}" ] && args+=(--build-arg NODE_IMAGE="$NODE_IMAGE")
  if [ -n "${HUB_BUILD_LOG_DIR:-}" ]; then
    log="$HUB_BUILD_LOG_DIR/hub-build-$app.log"
    "${DOCKER:-docker}" "${args[@]}" "${tags[@]}" . >"$log" 2>&1 || { tail -40 "$log" >&2; exit 1; }
  else
    "${DOCKER:-docker}" "${args[@]}" "${tags[@]}" .
  fi
  echo "$repo/$app:$version $repo/$app:$commit${HUB_IMAGE_TAG:+ $repo/$app:$HUB_IMAGE_TAG}"
done
