# Sourced by test-k8s.sh (decision 0202): the images into the node's containerd, Postgres and NATS
# for the cluster, then the dev overlay in the order k8s/README.md gives (namespaces, Secrets,
# pre-rollout ConfigMap and migration Job, then everything), with test-only rewrites in a
# kustomization of its own ($W/overlay): the local image tags, imagePullPolicy Never, Postgres and
# NATS at their pod addresses, the Kubernetes runner, the API server's address for the jobs pod.
# Env: HUB_IMAGE_TAG (hub-deploy-test), HUB_K8S_ROLLOUT_S (the rollout's cap, 900 s).
TAG=${HUB_IMAGE_TAG:-hub-deploy-test}
APPS="gateway credentials organizations notifications webhooks jobs"
# The job the test runs uses alpine:3, the busybox stand-in .ci/engine-up.sh builds.
JOB_IMAGE=alpine:3

# `docker save | ctr import` of every image the cluster runs (and the extra images named, e.g. the
# previous release's for the upgrade: upgrade.sh); one already imported (same image id) is kept.
images_import() {
  local want=("$@") missing=() img id ref
  for a in $APPS; do want+=("hub-services/$a:$TAG"); done
  want+=(hub-deploy/postgres:15 hub-deploy/nats:2 "$JOB_IMAGE")
  mkdir -p "$W/imported"
  for img in "${want[@]}"; do
    id=$(docker image inspect -f '{{.Id}}' "$img" 2>/dev/null) ||
      fail "image $img not found in docker: npm run test:deploy builds them (and the stand-ins)"
    ref=docker.io/$img; [[ $img == */* ]] || ref=docker.io/library/$img
    [ "$(cat "$W/imported/${img//[\/:]/_}" 2>/dev/null)" = "$id" ] && ctr_ images ls -q | grep -qx "$ref" ||
      missing+=("$img")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    docker save "${missing[@]}" | ctr_ images import - >"$W/import.log" 2>&1 || { cat "$W/import.log" >&2; fail "ctr images import"; }
    for img in "${missing[@]}"; do docker image inspect -f '{{.Id}}' "$img" >"$W/imported/${img//[\/:]/_}"; done
  fi
  say "images in containerd (k8s.io): ${#want[@]}, imported now: ${#missing[@]} (${missing[*]:-none})"
}

pod_ip() { kubectl -n "$1" get pod "$2" -o jsonpath='{.status.podIP}'; }
pw() { echo "p$(head -c12 /dev/urandom | od -An -tx1 | tr -d ' \n')"; }

# Postgres and NATS in namespace $1 (default hub-infra); PG_IP, NATS_IP, PG_PASSWORD, NATS_PW_* for what follows.
infra_up() {
  local ns=${1:-hub-infra}
  kubectl create namespace "$ns" --save-config >/dev/null
  PG_PASSWORD=$(pw)
  kubectl -n "$ns" create secret generic hub-infra-postgres --from-literal=POSTGRES_PASSWORD="$PG_PASSWORD" >/dev/null
  local args=() u
  for u in $APPS hub subscriber; do
    eval "NATS_PW_${u^^}=$(pw)"; args+=(--from-literal="NATS_PASSWORD_${u^^}=$(eval echo "\$NATS_PW_${u^^}")")
  done
  kubectl -n "$ns" create secret generic hub-infra-nats "${args[@]}" >/dev/null
  kubectl -n "$ns" create configmap hub-infra-nats --from-file=k8s/base/nats/authorization.conf \
    --from-literal=nats-server.conf='include ./authorization.conf' >/dev/null
  sed "s/^  namespace: hub-infra$/  namespace: $ns/" k8s/local/hub-infra.yaml | kubectl apply -f - >/dev/null
  HUB_K8S_WAIT_S=180 waitfor "Postgres and NATS pods not Ready: $(kubectl -n "$ns" get pods 2>&1 | tr '\n' ' ')" \
    kubectl -n "$ns" wait --for=condition=Ready pod/postgres pod/nats --timeout=1s
  PG_IP=$(pod_ip "$ns" postgres) NATS_IP=$(pod_ip "$ns" nats)
  say "Postgres at $PG_IP:5432, NATS (JetStream, the hub's users) at $NATS_IP:4222"
}

# The test's kustomization over overlays/dev; the rendering then gets 1.20's apiVersions.
# `render [TREE] [TAG] [OUT]`: the overlay of the checkout TREE (default this one; the upgrade
# renders the previous release's too) with images TAG, into OUT (default $W/dev-1.20.yaml).
render() {
  local tree=${1:-.} tag=${2:-$TAG} out=${3:-$W/dev-1.20.yaml} o i n
  o=$W/overlay-$(basename "$out" .yaml)
  rm -rf "$o"; mkdir -p "$o"
  n=$(grep -c '^ *- name: migrate-' "$tree/k8s/base/migrate-job.yaml")
  {
    echo "resources: [$(realpath --relative-to="$o" "$tree/k8s/overlays/dev")]"
    echo "images:"
    for a in $APPS; do echo "  - { name: hub-services/$a, newTag: $tag }"; done
    cat <<YAML
patches:
  # CPU requests 0 (the Deployments and the migration Job): the test's job (flavor cpu-basic) asks
  # for 2 vCPUs, all this 2-core node has (the upgrade runs the Job while a job runs).
  - target: { kind: Deployment }
    patch: |-
      - { op: add, path: /spec/template/spec/containers/0/imagePullPolicy, value: Never }
      - { op: replace, path: /spec/template/spec/containers/0/resources/requests/cpu, value: "0" }
  - target: { kind: Job, name: hub-migrate }
    patch: |-
$(for ((i = 0; i < n; i++)); do echo "      - { op: add, path: /spec/template/spec/containers/$i/imagePullPolicy, value: Never }"
  echo "      - { op: replace, path: /spec/template/spec/containers/$i/resources/requests/cpu, value: \"0\" }"; done)
  - target: { kind: ConfigMap, name: hub-config }
    patch: |-
      - { op: replace, path: /data/NATS_URL, value: "nats://$NATS_IP:4222" }
      - { op: replace, path: /data/HUB_JOBS_RUNNER, value: kubernetes }
      - { op: replace, path: /data/HUB_JOBS_K8S_SPACE_IMAGE, value: "$JOB_IMAGE" }
  # No kube-proxy: the kubernetes Service's cluster IP leads nowhere; the API server's own address does.
  - target: { kind: Deployment, name: jobs }
    patch: |-
      - { op: add, path: /spec/template/spec/containers/0/env/-, value: { name: KUBERNETES_SERVICE_HOST, value: "$HOST_IP" } }
      - { op: add, path: /spec/template/spec/containers/0/env/-, value: { name: KUBERNETES_SERVICE_PORT, value: "$API_PORT" } }
YAML
  } >"$o/kustomization.yaml"
  kubectl kustomize "$o" |
    sed -e 's#^apiVersion: policy/v1$#apiVersion: policy/v1beta1#' -e 's#^apiVersion: autoscaling/v2$#apiVersion: autoscaling/v2beta2#' \
      >"$out"
}

# k8s/README.md's order: namespaces, the Secrets, the pre-rollout objects and the migration Job
# (awaited), then the whole rendering. `hub_apply [NS] [RENDERING]`: default hub and $W/dev-1.20.yaml
# (the upgrade's rendering names its own namespace, NS and NS-jobs).
hub_apply() {
  local ns=${1:-hub} file=${2:-$W/dev-1.20.yaml} n
  if [ "$ns" = hub ]; then kubectl apply -f k8s/base/namespace.yaml >/dev/null
  else for n in "$ns" "$ns-jobs"; do kubectl create namespace "$n" --dry-run=client -o yaml | kubectl apply -f - >/dev/null; done; fi
  ADMIN_TOKEN=$(head -c24 /dev/urandom | od -An -tx1 | tr -d ' \n')
  kubectl -n "$ns" create secret generic hub-secrets \
    --from-literal=DATABASE_URL="postgres://hub:$PG_PASSWORD@$PG_IP:5432/hub" --from-literal=HUB_ADMIN_TOKEN="$ADMIN_TOKEN" \
    --from-literal=HUB_SECRET_KEY="$(head -c32 /dev/urandom | base64)" >/dev/null
  for a in $APPS; do
    kubectl -n "$ns" create secret generic "hub-nats-$a" --from-literal=NATS_USER="$a" \
      --from-literal=NATS_PASSWORD="$(eval echo "\$NATS_PW_${a^^}")" >/dev/null
  done
  kubectl apply -f "$file" -l app.kubernetes.io/component=pre-rollout >"$W/apply.log" 2>&1 ||
    { cat "$W/apply.log" >&2; fail "kubectl apply of the pre-rollout objects"; }
  local m0=$SECONDS st
  while st=$(kubectl -n "$ns" get job hub-migrate -o jsonpath='{range .status.conditions[*]}{.type}={.status} {end}'); do
    case "$st" in *Complete=True*) break ;; *Failed=True*) why_not "$ns" app.kubernetes.io/name=hub-migrate >&2; fail "job hub-migrate failed" ;; esac
    [ $((SECONDS - m0)) -lt 600 ] || { why_not "$ns" app.kubernetes.io/name=hub-migrate >&2; fail "job hub-migrate not complete after 600 s"; }
    sleep 1
  done
  say "job hub-migrate complete in $((SECONDS - m0)) s"
  kubectl apply -f "$file" >"$W/apply.log" 2>&1 || { cat "$W/apply.log" >&2; fail "kubectl apply of the dev overlay"; }
  say "applied: $(grep -c . "$W/apply.log") objects"
}

# What is not ready and why: the pods, their events and the last lines of their logs.
why_not() {
  local ns=$1 sel=$2 p
  echo; kubectl -n "$ns" get pods -l "$sel" -o wide 2>&1
  for p in $(kubectl -n "$ns" get pods -l "$sel" -o name 2>/dev/null); do
    echo "--- $p"; kubectl -n "$ns" describe "$p" 2>&1 | sed -n '/^Events:/,$p' | tail -15
    kubectl -n "$ns" logs "$p" --all-containers --tail=40 2>&1 | tail -60
  done
}

# Every Deployment Available, polled; the cap (HUB_K8S_ROLLOUT_S, 900 s) is far above what it takes.
hub_available() {
  local ns=${1:-hub} r0=$SECONDS last='' now
  while :; do
    now=$(kubectl -n "$ns" get deploy -o jsonpath='{range .items[*]}{.metadata.name}={.status.conditions[?(@.type=="Available")].status} {end}')
    [ "$now" != "$last" ] && say "Deployments Available: $now"; last=$now
    [ -n "$now" ] && ! echo "$now" | tr ' ' '\n' | grep -v '^$' | grep -qv '=True$' && break
    [ $((SECONDS - r0)) -lt "${HUB_K8S_ROLLOUT_S:-900}" ] || {
      why_not "$ns" app.kubernetes.io/part-of=hub-services >&2; fail "Deployments not Available after $((SECONDS - r0)) s: $now"; }
    sleep 2
  done
  say "every Deployment Available in $((SECONDS - r0)) s after the apply"
}
