#!/usr/bin/env bash
# The image and the compose file, tested for real with podman (no Docker daemon needed):
#   1. stand-in base images from Debian packages if missing (bases.sh),
#   2. build the image (docker format: OCI drops HEALTHCHECK), check it runs as non-root,
#   3. run it alone on its embedded SQLite until its health check passes, play a game,
#   4. bring docker-compose.yml up (Debian's docker-compose v1 against `podman system
#      service`): PostgreSQL, the one-shot migration, two app replicas and the nginx proxy;
#      wait until every service is healthy, play a game through the proxy, check that both
#      replicas answered (the proxy's log names the replica of each request), tear it down.
# Without systemd nothing runs health checks on a timer, so this script runs them itself,
# in a bounded loop. Usage: ops/podman/image-test.sh   (make image-test)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
export CONTAINERS_CONF="$here/containers.conf"
python=${PYTHON:-python3}
project="forumplay-image-test-$$"
image="localhost/forumplay:image-test"
work=$(mktemp -d)
service_pid=""
say() { printf '\n== %s\n' "$*"; }

need=(podman buildah runc netavark aardvark-dns mmdebstrap uidmap docker-compose)
missing=()
for package in "${need[@]}"; do dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package"); done
if [ ${#missing[@]} -gt 0 ]; then
  say "installing ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >/dev/null 2>&1 || {
    apt-get update -q >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >/dev/null
  }
fi

cleanup() {
  set +e
  if [ -n "$service_pid" ]; then
    DOCKER_HOST="unix://$work/podman.sock" docker-compose -p "$project" down -v >/dev/null 2>&1
    kill "$service_pid" 2>/dev/null
  fi
  podman rm -f "$project-alone" >/dev/null 2>&1
  podman rmi -f "$image" >/dev/null 2>&1
  rm -rf "$work"
}
trap cleanup EXIT

free_port() { "$python" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# Poll health: run every container's health check until the named one reports healthy.
wait_healthy() {
  local filter=$1 name=$2 status=""
  for _ in $(seq 1 90); do
    for id in $(podman ps -q --filter "$filter"); do podman healthcheck run "$id" >/dev/null 2>&1 || true; done
    status=$(podman ps -a --filter "$filter" --format '{{.Names}} {{.Status}}')
    if grep -q "$name.*(healthy)" <<<"$status"; then return 0; fi
    if grep -qE "$name.*Exited" <<<"$status"; then break; fi
    # compose up gave up (it runs in the background while this loop runs health checks)
    if [ -s "$work/up.rc" ] && [ "$(cat "$work/up.rc")" != 0 ]; then break; fi
    sleep 2
  done
  echo "not healthy in time:"; echo "$status"
  [ -f "$work/up.log" ] && grep -v CNI "$work/up.log" | tail -20
  for id in $(podman ps -aq --filter "$filter"); do podman logs --tail 30 "$id"; done
  return 1
}

say "base images"
"$here/bases.sh"

say "building the image"
podman build --format docker --pull=never -t "$image" "$root" >"$work/build.log" 2>&1 \
  || { tail -30 "$work/build.log"; exit 1; }
uid=$(podman run --rm --entrypoint id "$image" -u 2>/dev/null)
[ "$uid" != 0 ] || { echo "the image runs as root"; exit 1; }
podman image inspect "$image" --format '{{json .Config.Healthcheck}}' | grep -q healthz \
  || { echo "the image has no HEALTHCHECK"; exit 1; }
echo "runs as uid $uid, health check on /healthz"

say "the image alone (embedded SQLite)"
port=$(free_port)
podman run -d --name "$project-alone" -p "127.0.0.1:$port:8000" "$image" >/dev/null 2>"$work/run.log"
wait_healthy "name=$project-alone" "$project-alone"
"$python" "$here/play.py" "http://127.0.0.1:$port"
podman rm -f "$project-alone" >/dev/null 2>&1

say "docker-compose.yml (PostgreSQL, 2 app replicas, nginx in front)"
podman system service --time=0 "unix://$work/podman.sock" >"$work/service.log" 2>&1 &
service_pid=$!
for _ in $(seq 1 50); do [ -S "$work/podman.sock" ] && break; sleep 0.2; done
export DOCKER_HOST="unix://$work/podman.sock"
# Compose would build through the API in OCI format (no health check): use the image built above.
export FORUMPLAY_IMAGE="$image" FORUMPLAY_REPLICAS=2
SECRET_KEY=$("$python" -c 'import secrets; print(secrets.token_urlsafe(32))')
export SECRET_KEY
port=$(free_port)
# `up` waits for the database, then the replicas, to be healthy, so it runs in the background
# while wait_healthy runs the health checks; it leaves its exit status in up.rc.
(cd "$root" && FORUMPLAY_PORT=$port docker-compose -p "$project" up -d --no-build \
  >"$work/up.log" 2>&1; echo $? >"$work/up.rc") &
up_pid=$!
compose="label=com.docker.compose.project=$project"
wait_healthy "$compose" "_app_1"
wait_healthy "$compose" "_app_2"
wait_healthy "$compose" "_proxy_"
wait "$up_pid"
[ "$(cat "$work/up.rc")" = 0 ] || { cat "$work/up.log"; exit 1; }
"$python" "$here/play.py" "http://127.0.0.1:$port" || {
  # What each container said last: a failed game says why only there.
  for c in $(podman ps -aq --filter "$compose"); do
    echo "--- $(podman inspect -f '{{.Name}}' "$c")"; podman logs --tail 30 "$c" 2>&1
  done
  exit 1
}
proxy=$(podman ps -q --filter "$compose" --filter "label=com.docker.compose.service=proxy")
replicas=$(podman logs "$proxy" 2>/dev/null | grep -o 'upstream=[0-9.:]*' | sort -u | wc -l)
echo "the proxy spread the game's requests over $replicas replicas"
[ "$replicas" -ge 2 ] || { podman logs --tail 20 "$proxy"; exit 1; }
(cd "$root" && docker-compose -p "$project" down -v) >/dev/null 2>&1
say "image test passed"
