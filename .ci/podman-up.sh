#!/usr/bin/env bash
# A rootful Podman API socket for the jobs engine tests (issue 25): Debian's podman, its
# Docker-compatible API served by `podman system service` (no systemd here). Traps of these
# machines: no CAP_SYS_RESOURCE (ulimits must stay under the hard ones) and cgroup v1 (runc, not crun).
# Env: HUB_ENGINE_DIR (pid and log, default /tmp/hub-engine). Prints the socket.
set -euo pipefail
W=${HUB_ENGINE_DIR:-/tmp/hub-engine}
SOCK=/run/podman/podman.sock
mkdir -p "$W" /run/podman
if ! command -v podman >/dev/null 2>&1 || [ ! -x /usr/libexec/podman/catatonit ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends podman catatonit >/dev/null
fi
if [ ! -e /etc/containers/containers.conf ]; then
  cat >/etc/containers/containers.conf <<'CONF'
[containers]
default_ulimits = ["nofile=20000:20000", "nproc=32768:32768"]
[engine]
runtime = "runc"
CONF
fi
if ! curl -sf --unix-socket "$SOCK" http://d/_ping >/dev/null 2>&1; then
  # From /: a daemon started in a checkout keeps it as its working directory, and when that
  # checkout is removed, Podman's conmon fails every container start ("write child: broken pipe").
  cd / || exit 1
  setsid nohup podman system service --time=0 "unix://$SOCK" >"$W/podman.log" 2>&1 </dev/null &
  echo $! >"$W/podman.pid"
  cd - >/dev/null
  for _ in $(seq 1 100); do curl -sf --unix-socket "$SOCK" http://d/_ping >/dev/null 2>&1 && break; sleep 0.2; done
fi
curl -sf --unix-socket "$SOCK" http://d/_ping >/dev/null
echo "$SOCK"
