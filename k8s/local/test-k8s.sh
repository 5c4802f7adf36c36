#!/usr/bin/env bash
# `npm run test:k8s` (decision 0202): the hub's dev overlay on a real one-node Kubernetes 1.20.2
# (control-plane.sh: etcd, kube-apiserver, controller-manager, scheduler from ../shared/k8s-1.20;
# node.sh: a CRI containerd and the kubelet), with the images `npm run test:deploy` built
# (hub-rollout.sh: imported into containerd, Postgres and NATS as pods, the overlay applied in
# k8s/README.md's order, every Deployment Available). Then the jobs service account's RBAC as
# applied, and apps/e2e-deploy/src/k8s/*.k8s-spec.ts through the gateway pod: jobs run by the
# Kubernetes runner as Jobs whose pods really run on the node (a secret, the restricted profile,
# retries, the deadline, cancel, the jobs service killed mid-run: decision 0629). Everything started
# is stopped by pid.
# HUB_K8S_UPGRADE=1 then runs the upgrade on the same cluster (upgrade.sh, decision 0207: the
# previous release in a namespace of its own, rolled to this tree one Deployment at a time under
# traffic); HUB_K8S_UPGRADE=only runs the upgrade alone (`npm run test:upgrade:k8s`).
# Env: HUB_K8S_WORK, HUB_K8S_TARBALL, HUB_IMAGE_TAG, HUB_K8S_ROLLOUT_S, HUB_K8S_UPGRADE; HUB_K8S_KEEP=1
# keeps the cluster up at the end until Enter is pressed (to look around: KUBECONFIG=$HUB_K8S_WORK/kubeconfig).
set -euo pipefail
cd "$(dirname "$0")/../.."
here=k8s/local
source $here/lib.sh
source $here/control-plane.sh
source $here/node.sh
source $here/hub-rollout.sh
UPGRADE=${HUB_K8S_UPGRADE:-}
UPG_IMAGES=()
if [ -n "$UPGRADE" ]; then source $here/upgrade.sh; upgrade_prepare; fi

containerd_up
# The images go into containerd while the control plane and the kubelet start (no trap there: the
# daemons are this shell's to stop).
(trap - EXIT; images_import "${UPG_IMAGES[@]}") >"$W/import.out" 2>&1 &
import_pid=$!
control_plane_up
controllers_up
kubelet_up
wait $import_pid || { cat "$W/import.out" >&2; fail "the images could not be imported"; }
cat "$W/import.out"
if [ "$UPGRADE" = only ]; then
  upgrade_k8s
  if [ "${HUB_K8S_KEEP:-}" = 1 ]; then say "kept up: KUBECONFIG=$KUBECONFIG; press Enter to stop"; read -r _; fi
  say "passed"
  exit 0
fi
infra_up
render
hub_apply

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

hub_available
GATEWAY_IP=$(kubectl -n hub get pods -l app.kubernetes.io/name=gateway -o jsonpath='{.items[0].status.podIP}')
status=0
HUB_K8S_GATEWAY_URL=http://$GATEWAY_IP:8080 HUB_K8S_ADMIN_TOKEN=$ADMIN_TOKEN HUB_K8S_NODE=$NODE NX_DAEMON=false \
  npx jest -c apps/e2e-deploy/jest.k8s.config.cts --runInBand "$@" || status=$?
if [ "$status" != 0 ]; then
  why_not hub app.kubernetes.io/name=jobs >&2
  kubectl -n hub-jobs get jobs,pods -o wide >&2 || true
fi
if [ "${HUB_K8S_KEEP:-}" = 1 ]; then say "kept up: KUBECONFIG=$KUBECONFIG; press Enter to stop"; read -r _; fi
[ "$status" = 0 ] || fail "the hub on Kubernetes: jest exit $status"
if [ -n "$UPGRADE" ]; then upgrade_k8s; fi
say "passed"
