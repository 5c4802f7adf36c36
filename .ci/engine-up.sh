#!/usr/bin/env bash
# A Docker engine for the jobs suites (issue 25): Debian's docker.io, dockerd started here (these
# machines have no systemd), busybox-static for the test image (the tests build it themselves:
# no registry is reachable). Idempotent: an engine that already answers is left as it is.
# Env: HUB_ENGINE_DIR (pid and log, default /tmp/hub-engine).
set -euo pipefail
W=${HUB_ENGINE_DIR:-/tmp/hub-engine}
mkdir -p "$W"
have_busybox() { dpkg -s busybox-static >/dev/null 2>&1; }
if ! command -v dockerd >/dev/null 2>&1 || ! have_busybox; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends docker.io busybox-static >/dev/null
fi
# The engine's own client (Debian's), whatever other docker client comes first on PATH.
DOCKER=/usr/bin/docker
[ -x "$DOCKER" ] || DOCKER=docker
if ! "$DOCKER" info >/dev/null 2>&1; then
  # Not as a child of this shell's job control: it outlives the CI step (stop it by its pid file).
  # From /: a daemon started in a checkout keeps it as its working directory, and when that
  # checkout is removed, Podman's conmon fails every container start ("write child: broken pipe").
  cd / || exit 1
  setsid nohup dockerd >"$W/dockerd.log" 2>&1 </dev/null &
  echo $! >"$W/dockerd.pid"
  cd - >/dev/null
  for _ in $(seq 1 150); do "$DOCKER" info >/dev/null 2>&1 && break; sleep 0.2; done
  "$DOCKER" info >/dev/null 2>&1 || { echo "dockerd did not start: $(tail -5 "$W/dockerd.log")" >&2; exit 1; }
fi
echo "docker engine $("$DOCKER" info --format '{{.ServerVersion}} ({{.Driver}}, cgroup {{.CgroupVersion}})')"
# The image the jobs tests and bench:jobs run (`alpine:3`): no registry here, so a local stand-in of
# Debian's static busybox (the test setup builds the same when missing).
if ! "$DOCKER" image inspect alpine:3 >/dev/null 2>&1; then
  img=$(mktemp -d)
  cp /bin/busybox "$img/busybox"
  printf 'FROM scratch\nCOPY busybox /bin/busybox\nRUN ["/bin/busybox", "--install", "-s", "/bin"]\nCMD ["sh"]\n' >"$img/Dockerfile"
  DOCKER_BUILDKIT=0 "$DOCKER" build -q -t alpine:3 "$img" >/dev/null
  rm -rf "$img"
fi
