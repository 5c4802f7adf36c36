# Sourced by test-k8s.sh (decision 0202): one node, a CRI containerd of its own (Debian's containerd
# 1.6 and runc, its own socket, root and state under $W, next to dockerd's) with a bridge CNI network
# (Debian's containernetworking-plugins; its firewall plugin admits each pod's traffic through the
# FORWARD chain, whose policy dockerd sets to DROP) and the 1.20.2 kubelet. No systemd, no CAP_SYS_RESOURCE,
# cgroup v1 on these machines: runc, cgroupfs, restrict_oom_score_adj, no QoS cgroups.
C=$W/cri SOCK=$W/cri/containerd.sock
NODE=hub-deploy-node KUBELET_PORT=10260
POD_SUBNET=${HUB_K8S_POD_SUBNET:-10.245.0.0/24} BRIDGE=hub-k8s0
ctr_() { ctr --address "$SOCK" -n k8s.io "$@"; }

# containerd first (the images can be imported while the control plane starts), then the kubelet.
containerd_up() {
  k8s_bin
  need_pkg containerd containerd
  need_pkg runc runc
  [ -x /usr/lib/cni/bridge ] || { apt-get update -qq &&
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends containernetworking-plugins >/dev/null; }
  mkdir -p "$C/net.d" "$W/cni-ipam"
  cat >"$C/config.toml" <<TOML
version = 2
root = "$C/root"
state = "$C/state"
[grpc]
  address = "$SOCK"
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "docker.io/hub-deploy/pause:3.2"
  restrict_oom_score_adj = true
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = "$C/net.d"
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
TOML
  cat >"$C/net.d/10-hub-deploy.conflist" <<JSON
{ "cniVersion": "0.4.0", "name": "hub-deploy-pods", "plugins": [
  { "type": "bridge", "bridge": "$BRIDGE", "isGateway": true, "ipMasq": true,
    "ipam": { "type": "host-local", "dataDir": "$W/cni-ipam", "ranges": [[{ "subnet": "$POD_SUBNET" }]],
              "routes": [{ "dst": "0.0.0.0/0" }] } },
  { "type": "firewall" } ] }
JSON
  on_exit+=(node_down)
  start containerd containerd --config "$C/config.toml"
  waitfor "containerd did not answer ($(tail -3 "$W/containerd.log"))" ctr --address "$SOCK" version
  # The pod sandbox image: the 1.20 tarball's static pause, FROM scratch (no registry here).
  if ! ctr_ images ls -q | grep -qx docker.io/hub-deploy/pause:3.2; then
    local d; d=$(mktemp -d); cp "$B/pause" "$d/pause"
    printf 'FROM scratch\nCOPY pause /pause\nUSER 65535:65535\nENTRYPOINT ["/pause"]\n' >"$d/Dockerfile"
    DOCKER_BUILDKIT=0 docker build -q -t hub-deploy/pause:3.2 "$d" >"$W/pause-build.log" 2>&1 ||
      { cat "$W/pause-build.log" >&2; fail "the pause image could not be built"; }
    docker save hub-deploy/pause:3.2 | ctr_ images import - >/dev/null; rm -rf "$d"
  fi
}

kubelet_up() {
  # Image GC off (nothing can be pulled again) and eviction only when really short: this machine's
  # disk and memory are shared with CI and dockerd.
  start kubelet nice -n 5 "$B/kubelet" --kubeconfig="$KUBECONFIG" --container-runtime=remote \
    --container-runtime-endpoint="unix://$SOCK" --cgroup-driver=cgroupfs --fail-swap-on=false \
    --root-dir="$W/kubelet" --cert-dir="$W/kubelet-pki" --hostname-override=$NODE --node-ip="$HOST_IP" \
    --address="$HOST_IP" --port=$KUBELET_PORT --read-only-port=0 --healthz-port=0 --authorization-mode=AlwaysAllow \
    --pod-infra-container-image=docker.io/hub-deploy/pause:3.2 --cgroups-per-qos=false --enforce-node-allocatable= \
    --make-iptables-util-chains=false --image-gc-high-threshold=100 --image-gc-low-threshold=99 \
    --eviction-hard='memory.available<100Mi,nodefs.available<2%,imagefs.available<2%' \
    --feature-gates=$GATES --logtostderr=true --v=1
  waitfor "node $NODE not Ready ($(tail -3 "$W/kubelet.log"))" node_ready
  say "node $NODE Ready (kubelet $("$B/kubelet" --version | cut -d' ' -f2), containerd $(containerd --version | cut -d' ' -f3), runc $(runc --version | awk 'NR==1{print $3}'))"
}
node_ready() { kubectl get node $NODE -o jsonpath='{.status.conditions[?(@.type=="Ready")].status}' | grep -qx True; }

# Pods go through the kubelet first (it stops each sandbox: CNI teardown, then its network namespace
# is removed, which is what is awaited), then whatever is left is killed through containerd, so no
# shim, mount, address, rule or bridge outlives the test.
node_down() {
  local d0=$SECONDS t ns=() left
  stop controller-manager; stop scheduler   # nothing re-creates what is deleted next
  for t in $(ctr_ containers ls -q 2>/dev/null); do
    ns+=($(ctr_ containers info "$t" 2>/dev/null | grep -o '/var/run/netns/cni-[0-9a-f-]*')); done
  ns=($(printf '%s\n' "${ns[@]}" | sort -u))
  if [ ${#ns[@]} -gt 0 ] && kubectl delete pods --all -A --grace-period=1 --wait=false --request-timeout=20s >/dev/null 2>&1; then
    for _ in $(seq 180); do
      left=0; for t in "${ns[@]}"; do [ -e "$t" ] && left=$((left + 1)); done
      [ $left = 0 ] && break; sleep 0.5
    done
    say "pods stopped by the kubelet in $((SECONDS - d0)) s ($left sandboxes left)"
  fi
  stop kubelet
  for t in $(ctr_ containers ls -q 2>/dev/null); do ctr_ tasks kill -s KILL "$t" >/dev/null 2>&1 || true; done
  for t in $(ctr_ containers ls -q 2>/dev/null); do
    ctr_ tasks delete -f "$t" >/dev/null 2>&1 || true; ctr_ containers delete "$t" >/dev/null 2>&1 || true; done
  stop containerd
  for t in "${ns[@]}"; do [ -e "$t" ] && ip netns delete "${t##*/}" 2>/dev/null; done
  grep -o " $W/kubelet[^ ]*" /proc/mounts | sort -r | xargs -r -n1 umount -l 2>/dev/null || true
  ip link del $BRIDGE 2>/dev/null || true
  rm -rf "$W/cni-ipam" "$W/kubelet" "$C/state"
  say "node down in $((SECONDS - d0)) s"
}
