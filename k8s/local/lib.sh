# Sourced by test-k8s.sh and its parts (decision 0202): the work folder, logging, and the daemons
# started, each kept by pid and stopped by pid on exit (last started, first stopped).
# Env: HUB_K8S_WORK (default /tmp/hub-deploy-k8s).
W=${HUB_K8S_WORK:-/tmp/hub-deploy-k8s}
mkdir -p "$W"
t0=${t0:-$SECONDS}
say() { echo "[test:k8s $(date -u +%T) +$((SECONDS - t0))s] $*"; }
fail() { echo "[test:k8s $(date -u +%T) +$((SECONDS - t0))s] FAIL: $*" >&2; exit 1; }
# apt-get install of what is missing (idempotent): `need_pkg COMMAND PACKAGE...`.
need_pkg() { command -v "$1" >/dev/null 2>&1 && return 0; shift
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null; }

# One run at a time on a machine: the ports, the work folder and the bridge are shared (another
# run's exit would remove this one's etcd data). A second run waits for the first.
exec 9>"$W.lock"
if ! flock -n 9; then
  say "another test:k8s holds $W.lock; waiting for it (up to 30 min)"
  flock -w 1800 9 || fail "another test:k8s still holds $W.lock"
fi

# on_exit: run first at exit, last added first (the daemons still answer); after_stop: once every
# daemon is stopped.
pids=() names=() on_exit=() after_stop=()
# `start NAME CMD...`: a daemon in its own session (from /, never the worktree), its log in $W/NAME.log.
start() { local n=$1; shift; (cd / && exec setsid "$@" 9>&-) >"$W/$n.log" 2>&1 </dev/null & pids+=($!) names+=("$n"); }
# Stops one daemon started above by its pid (TERM, then KILL after 15 s).
stop() { local i p
  for i in "${!names[@]}"; do [ "${names[$i]}" = "$1" ] || continue; p=${pids[$i]}
    kill "$p" 2>/dev/null || true
    for _ in $(seq 75); do kill -0 "$p" 2>/dev/null || break; sleep 0.2; done
    kill -9 "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; unset "pids[$i]" "names[$i]"; done; }
cleanup() { local i idx
  for ((i = ${#on_exit[@]} - 1; i >= 0; i--)); do eval "${on_exit[$i]}" || true; done
  idx=("${!names[@]}")
  for ((i = ${#idx[@]} - 1; i >= 0; i--)); do stop "${names[${idx[$i]}]}"; done
  for i in "${after_stop[@]}"; do eval "$i" || true; done; }
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
# `waitfor WHAT CMD...`: polls CMD every 0.5 s, up to HUB_K8S_WAIT_S (300 s) seconds.
waitfor() { local what=$1; shift
  for _ in $(seq $((${HUB_K8S_WAIT_S:-300} * 2))); do "$@" >/dev/null 2>&1 && return 0; sleep 0.5; done; fail "$what"; }
