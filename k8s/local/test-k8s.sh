#!/usr/bin/env bash
# `npm run test:k8s`, first part (decision 0202): the dev overlay applied to a real Kubernetes 1.20.2
# API server (etcd from Debian, kube-apiserver from ../shared/k8s-1.20, RBAC on), and the jobs
# service account's rights checked as applied. No kubelet yet: nothing is scheduled or run here.
# Env: HUB_K8S_TARBALL (kube-1.20.2-linux-amd64.tar.xz), HUB_K8S_WORK (default /tmp/hub-deploy-k8s).
set -euo pipefail
cd "$(dirname "$0")/../.."
W=${HUB_K8S_WORK:-/tmp/hub-deploy-k8s}
TARBALL=${HUB_K8S_TARBALL:-/work/shared/k8s-1.20/kube-1.20.2-linux-amd64.tar.xz}
B=$W/bin
ETCD_PORT=23791 ETCD_PEER=23801 API_PORT=16444
t0=$SECONDS
say() { echo "[test:k8s $(date -u +%T) +$((SECONDS - t0))s] $*"; }
fail() { echo "[test:k8s] FAIL: $*" >&2; exit 1; }
mkdir -p "$W" "$B"
export KUBECONFIG=$W/kubeconfig

command -v etcd >/dev/null 2>&1 || {
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends etcd-server >/dev/null
}
[ -x "$B/kube-apiserver" ] || tar -xJf "$TARBALL" -C "$B"

pids=()
start() { local n=$1; shift; setsid "$@" >"$W/$n.log" 2>&1 </dev/null & pids+=($!); }
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$W/etcd-data"; }
trap cleanup EXIT
waitfor() { local what=$1; shift; for _ in $(seq 600); do "$@" >/dev/null 2>&1 && return 0; sleep 0.5; done; fail "$what"; }

P=$W/pki
mkdir -p "$P/serving"
[ -f "$P/sa.key" ] || { openssl genrsa -out "$P/sa.key" 2048 2>/dev/null; openssl rsa -in "$P/sa.key" -pubout -out "$P/sa.pub" 2>/dev/null; }
TOKEN=$(head -c16 /dev/urandom | od -An -tx1 | tr -d ' \n')
echo "$TOKEN,admin,admin,system:masters" >"$P/tokens.csv"
rm -rf "$W/etcd-data"
start etcd nice -n 10 etcd --name hub-deploy --data-dir "$W/etcd-data" \
  --listen-client-urls "http://127.0.0.1:$ETCD_PORT" --advertise-client-urls "http://127.0.0.1:$ETCD_PORT" \
  --listen-peer-urls "http://127.0.0.1:$ETCD_PEER" --initial-advertise-peer-urls "http://127.0.0.1:$ETCD_PEER" \
  --initial-cluster "hub-deploy=http://127.0.0.1:$ETCD_PEER"
start apiserver nice -n 10 "$B/kube-apiserver" --etcd-servers="http://127.0.0.1:$ETCD_PORT" --bind-address=127.0.0.1 \
  --advertise-address=127.0.0.1 --secure-port=$API_PORT --cert-dir="$P/serving" --token-auth-file="$P/tokens.csv" \
  --authorization-mode=RBAC --service-account-issuer=https://kubernetes.default.svc \
  --service-account-key-file="$P/sa.pub" --service-account-signing-key-file="$P/sa.key" \
  --service-cluster-ip-range=10.96.0.0/16 --enable-priority-and-fairness=false --logtostderr=true --v=1
kubectl config set-cluster hub-deploy --server="https://127.0.0.1:$API_PORT" --insecure-skip-tls-verify=true >/dev/null
kubectl config set-credentials admin --token="$TOKEN" >/dev/null
kubectl config set-context hub-deploy --cluster=hub-deploy --user=admin >/dev/null
kubectl config use-context hub-deploy >/dev/null
waitfor "the API server did not become ready ($(tail -3 "$W/apiserver.log"))" kubectl get --raw /readyz
say "kube-apiserver $(kubectl get --raw /version | grep -o '"gitVersion": *"[^"]*"')"

# The dev overlay as rendered, with the two apiVersions 1.20 lacks rewritten (test only: the
# manifests keep policy/v1 and autoscaling/v2 for today's clusters).
kubectl kustomize k8s/overlays/dev |
  sed -e 's#^apiVersion: policy/v1$#apiVersion: policy/v1beta1#' -e 's#^apiVersion: autoscaling/v2$#apiVersion: autoscaling/v2beta2#' \
    >"$W/dev-1.20.yaml"
kubectl apply -f "$W/dev-1.20.yaml" >"$W/apply.log" 2>&1 || { cat "$W/apply.log" >&2; fail "kubectl apply of the dev overlay"; }
say "applied: $(grep -c . "$W/apply.log") objects"

want() { local got; got=$(kubectl "${@:2}" 2>/dev/null || true); [ "$got" = "$1" ] || fail "kubectl ${*:2}: expected '$1', got '$got'"; }
deploys=$(kubectl -n hub get deploy -o jsonpath='{.items[*].metadata.name}' | tr ' ' '\n' | sort | tr '\n' ' ')
[ "$deploys" = "credentials gateway jobs notifications organizations webhooks " ] || fail "Deployments in hub: $deploys"
SA=system:serviceaccount:hub:jobs
want yes auth can-i create jobs.batch -n hub-jobs --as=$SA
want yes auth can-i delete jobs.batch -n hub-jobs --as=$SA
want yes auth can-i get pods --subresource=log -n hub-jobs --as=$SA
want yes auth can-i create secrets -n hub-jobs --as=$SA
want no auth can-i create jobs.batch -n hub --as=$SA
want no auth can-i get secrets -n hub --as=$SA
want no auth can-i get secrets -n hub-jobs --as=$SA
want no auth can-i create pods -n hub-jobs --as=$SA
want no auth can-i list namespaces --as=$SA
say "RBAC as applied: the jobs service account manages Jobs in hub-jobs and nothing in hub"
say "passed"
