# Sourced by test-k8s.sh when HUB_K8S_UPGRADE is set (decision 0207): on the cluster test:k8s
# started, the previous release (docker/local/upgrade-prev.sh: its checkout and images) deployed
# from ITS OWN dev overlay into a namespace of its own (hub-upg-<random>, its jobs in
# hub-upg-<random>-jobs, its own Postgres and NATS pods), then apps/e2e-deploy/src/upgrade/
# *.k8s-upgrade-spec.ts drives traffic through it and rolls each Deployment to this tree's
# rendering, one at a time (maxUnavailable 0, maxSurge 1). The namespaces are deleted at exit
# (HUB_K8S_KEEP=1 keeps them with the cluster).

# The previous release's images, for images_import beside this tree's.
upgrade_prepare() {
  source docker/local/upgrade-prev.sh
  UPG_IMAGES=()
  for a in $APPS; do UPG_IMAGES+=("hub-services/$a:$PREV_TAG"); done
}

# A rendering moved to namespace $2 (hub -> NS, hub-jobs -> NS-jobs: the objects, the runner's
# namespace setting, the RoleBinding's subject), with webhooks allowed to reach the host (the
# test's receiver runs there, at $HOST_IP) and the daily trigger cap raised as the Compose stack
# raises it (the traffic sends a webhook thousands of events; the cap, 1000, would stop them).
upgrade_rewrite() {
  sed -i -E \
    -e "s/^( *)(namespace|name|kubernetes\.io\/metadata\.name|HUB_JOBS_K8S_NAMESPACE): hub(-jobs)?\$/\1\2: $2\3/" \
    -e "s#^( *)HUB_WEBHOOK_ALLOWED_NETWORKS: .*#\1HUB_WEBHOOK_ALLOWED_NETWORKS: $HOST_IP/32#" \
    -e "s#^( *)HUB_WEBHOOK_MAX_TRIGGERS_PER_DAY: .*#\1HUB_WEBHOOK_MAX_TRIGGERS_PER_DAY: \"100000\"#" "$1"
}

upgrade_k8s() {
  local ns u0=$SECONDS status=0
  ns=hub-upg-$(head -c3 /dev/urandom | od -An -tx1 | tr -d ' \n')
  [ "${HUB_K8S_KEEP:-}" = 1 ] || on_exit+=("kubectl delete namespace $ns $ns-jobs --wait=false >/dev/null 2>&1")
  infra_up "$ns"
  render "$PREV_DIR" "$PREV_TAG" "$W/upgrade-prev.yaml"
  render . "$TAG" "$W/upgrade-next.yaml"
  upgrade_rewrite "$W/upgrade-prev.yaml" "$ns"
  upgrade_rewrite "$W/upgrade-next.yaml" "$ns"
  hub_apply "$ns" "$W/upgrade-prev.yaml"
  hub_available "$ns"
  say "previous release ($PREV_TAG) up in namespace $ns in $((SECONDS - u0)) s"
  HUB_K8S_UPGRADE_NS=$ns HUB_K8S_UPGRADE_NEXT=$W/upgrade-next.yaml HUB_K8S_UPGRADE_PREV_TAG=$PREV_TAG \
    HUB_K8S_UPGRADE_TAG=$TAG HUB_K8S_ADMIN_TOKEN=$ADMIN_TOKEN HUB_K8S_HOST_IP=$HOST_IP NX_DAEMON=false \
    npx jest -c apps/e2e-deploy/jest.k8s-upgrade.config.cts --runInBand || status=$?
  if [ "$status" != 0 ]; then why_not "$ns" app.kubernetes.io/part-of=hub-services >&2; fi
  say "the upgrade on Kubernetes took $((SECONDS - u0)) s (jest exit $status)"
  [ "$status" = 0 ] || fail "the upgrade on Kubernetes: jest exit $status"
}
