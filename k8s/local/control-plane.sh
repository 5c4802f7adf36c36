# Sourced by test-k8s.sh (decision 0202): etcd (Debian's etcd-server 3.4) and the Kubernetes 1.20.2
# control plane from ../shared/k8s-1.20: kube-apiserver (RBAC, a static admin token, bound to this
# machine's own address so pods reach it), kube-controller-manager and kube-scheduler.
# Env: HUB_K8S_TARBALL (kube-1.20.2-linux-amd64.tar.xz).
TARBALL=${HUB_K8S_TARBALL:-$PWD/../shared/k8s-1.20/kube-1.20.2-linux-amd64.tar.xz}
[ -f "$TARBALL" ] || TARBALL=/work/shared/k8s-1.20/kube-1.20.2-linux-amd64.tar.xz
B=$W/bin P=$W/pki
ETCD_PORT=23791 ETCD_PEER=23801 API_PORT=16444
# The address pods reach this machine at (the default route's source): the API server listens there
# and the kubelet advertises it (a loopback node address would leave `logs` unreachable).
HOST_IP=${HUB_K8S_HOST_IP:-$(ip -4 route get 1.1.1.1 2>/dev/null | grep -o 'src [0-9.]*' | cut -d' ' -f2)}
[ -n "$HOST_IP" ] || fail "no IPv4 address with a default route on this machine"
export KUBECONFIG=$W/kubeconfig
# ttlSecondsAfterFinished (the runner's Jobs and hub-migrate) is alpha in 1.20: off unless enabled.
GATES=TTLAfterFinished=true

# The 1.20.2 binaries (kube-apiserver, -controller-manager, -scheduler, kubelet, pause), unpacked once.
k8s_bin() { mkdir -p "$B"; [ -x "$B/kubelet" ] && [ -x "$B/pause" ] || tar -xJf "$TARBALL" -C "$B"; }

control_plane_up() {
  need_pkg etcd etcd-server
  need_pkg openssl openssl
  k8s_bin
  rm -rf "$P/serving" "$W/etcd-data"   # the serving certificate names this run's address
  mkdir -p "$P/serving"
  [ -f "$P/sa.key" ] || { openssl genrsa -out "$P/sa.key" 2048 2>/dev/null; openssl rsa -in "$P/sa.key" -pubout -out "$P/sa.pub" 2>/dev/null; }
  TOKEN=$(head -c16 /dev/urandom | od -An -tx1 | tr -d ' \n')
  echo "$TOKEN,admin,admin,system:masters" >"$P/tokens.csv"
  after_stop+=('rm -rf "$W/etcd-data"')
  start etcd nice -n 10 etcd --name hub-deploy --data-dir "$W/etcd-data" \
    --listen-client-urls "http://127.0.0.1:$ETCD_PORT" --advertise-client-urls "http://127.0.0.1:$ETCD_PORT" \
    --listen-peer-urls "http://127.0.0.1:$ETCD_PEER" --initial-advertise-peer-urls "http://127.0.0.1:$ETCD_PEER" \
    --initial-cluster "hub-deploy=http://127.0.0.1:$ETCD_PEER"
  start apiserver nice -n 10 "$B/kube-apiserver" --etcd-servers="http://127.0.0.1:$ETCD_PORT" --bind-address="$HOST_IP" \
    --advertise-address="$HOST_IP" --secure-port=$API_PORT --cert-dir="$P/serving" --token-auth-file="$P/tokens.csv" \
    --authorization-mode=RBAC --service-account-issuer=https://kubernetes.default.svc \
    --service-account-key-file="$P/sa.pub" --service-account-signing-key-file="$P/sa.key" \
    --service-cluster-ip-range=10.96.0.0/16 --kubelet-preferred-address-types=InternalIP \
    --feature-gates=$GATES --enable-priority-and-fairness=false --logtostderr=true --v=1
  kubectl config set-cluster hub-deploy --server="https://$HOST_IP:$API_PORT" --insecure-skip-tls-verify=true >/dev/null
  kubectl config set-credentials admin --token="$TOKEN" >/dev/null
  kubectl config set-context hub-deploy --cluster=hub-deploy --user=admin >/dev/null
  kubectl config use-context hub-deploy >/dev/null
  waitfor "the API server did not become ready ($(tail -3 "$W/apiserver.log"))" kubectl get --raw /readyz
  say "kube-apiserver $(kubectl get --raw /version | grep -o '"gitVersion": *"[^"]*"' | cut -d'"' -f4) on $HOST_IP:$API_PORT, etcd $(etcd --version | awk '/etcd Version/{print $3}')"
}

# The controllers (Deployments, ReplicaSets, Jobs, service-account tokens, garbage collection, TTL)
# and the scheduler. The root CA handed to pods is the API server's self-signed serving certificate.
controllers_up() {
  start controller-manager nice -n 10 "$B/kube-controller-manager" --kubeconfig="$KUBECONFIG" --leader-elect=false \
    --secure-port=0 --port=0 --service-account-private-key-file="$P/sa.key" --root-ca-file="$P/serving/apiserver.crt" \
    --use-service-account-credentials=false --controllers='*' --feature-gates=$GATES --logtostderr=true --v=1
  start scheduler nice -n 10 "$B/kube-scheduler" --kubeconfig="$KUBECONFIG" --leader-elect=false --secure-port=0 --port=0 \
    --logtostderr=true --v=1
}
