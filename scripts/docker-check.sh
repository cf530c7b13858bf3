#!/usr/bin/env bash
# Builds the container image (Dockerfile) and checks that it starts healthy, when Docker is usable here;
# otherwise prints why it skipped and exits 0. `scripts/docker-check.sh` from the repository root.
# BALCAO_IMAGE names the image (default balcao:check); DOCKER_CHECK_RUN=0 builds without running it.
set -euo pipefail
cd "$(dirname "$0")/.."
image="${BALCAO_IMAGE:-balcao:check}"

if ! command -v docker >/dev/null 2>&1; then
  echo "docker-check: SKIPPED — docker is not installed on this machine (nothing was built)."
  exit 0
fi
if ! docker info >/dev/null 2>&1; then
  echo "docker-check: SKIPPED — the docker client is installed but no Docker daemon answers (docker info failed; nothing was built)."
  exit 0
fi

echo "docker-check: building $image"
started=$(date +%s)
docker build --pull -t "$image" .
echo "docker-check: built in $(( $(date +%s) - started )) s; size $(docker image inspect -f '{{.Size}}' "$image" | awk '{printf "%.0f MB", $1/1024/1024}')"
[ "$(docker image inspect -f '{{.Config.User}}' "$image")" = "node" ] || { echo "docker-check: FAILED — the image does not run as the node user"; exit 1; }
[ "${DOCKER_CHECK_RUN:-1}" = "0" ] && exit 0

# Embedded database inside the container (no DATABASE_URL): starts, becomes healthy, answers /api/health.
name="balcao-check-$$"
secret() { head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n'; }
docker run -d --name "$name" -e JWT_SECRET="$(secret)" -e JWT_REFRESH_SECRET="$(secret)" "$image" >/dev/null
trap 'docker rm -f "$name" >/dev/null 2>&1 || true' EXIT
for _ in $(seq 1 60); do
  status=$(docker inspect -f '{{.State.Health.Status}}' "$name" 2>/dev/null || echo gone)
  [ "$status" = "healthy" ] && break
  [ "$status" = "gone" ] || [ "$(docker inspect -f '{{.State.Running}}' "$name")" = "false" ] && break
  sleep 3
done
if [ "${status:-}" != "healthy" ]; then
  echo "docker-check: FAILED — the container is not healthy (${status:-unknown}); its log:"
  docker logs "$name" 2>&1 | tail -40
  exit 1
fi
docker exec "$name" balcao doctor || true
echo "docker-check: OK — $image builds, runs as node and reports healthy"
