#!/usr/bin/env bash
# Stand-ins for the base images the Dockerfile and docker-compose.yml name
# (python:3.11-slim, postgres:15, nginx:1.22), built from Debian packages for hosts that reach no
# container registry. Each is built once and kept in podman's storage.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
export CONTAINERS_CONF="${CONTAINERS_CONF:-$here/containers.conf}"
suite=bookworm
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
slim=(--variant=minbase
  --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/man/*'
  --dpkgopt='path-exclude=/usr/share/locale/*'
  --customize-hook='rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/*')
# pip inside a build must trust what the host trusts (an egress proxy's CA, say).
trust_host_cas='if ls /usr/local/share/ca-certificates/*.crt >/dev/null 2>&1; then
  cp /usr/local/share/ca-certificates/*.crt "$1/usr/local/share/ca-certificates/";
  chroot "$1" update-ca-certificates >/dev/null; fi'

if ! podman image exists docker.io/library/python:3.11-slim; then
  echo "building the python:3.11-slim stand-in (Debian $suite, python3 in a venv at /usr/local)"
  mmdebstrap "${slim[@]}" --include=python3,python3-venv,ca-certificates,passwd \
    --customize-hook="$trust_host_cas" \
    --customize-hook='chroot "$1" python3 -m venv /usr/local' \
    "$suite" "$work/python.tar" >"$work/python.log" 2>&1 || { cat "$work/python.log"; exit 1; }
  podman import \
    --change 'ENV PATH=/usr/local/bin:/usr/local/sbin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'ENV PIP_CERT=/etc/ssl/certs/ca-certificates.crt' \
    --change 'ENV LANG=C.UTF-8' \
    --change 'CMD ["python3"]' \
    "$work/python.tar" docker.io/library/python:3.11-slim >/dev/null 2>&1
fi

if ! podman image exists docker.io/library/postgres:15; then
  echo "building the postgres:15 stand-in (Debian $suite, postgresql-15)"
  mmdebstrap "${slim[@]}" --include=postgresql-15,ca-certificates \
    --customize-hook="install -m 755 '$here/postgres-entrypoint.sh' \"\$1/usr/local/bin/docker-entrypoint.sh\"" \
    --customize-hook='rm -rf "$1"/var/lib/postgresql/15' \
    "$suite" "$work/postgres.tar" >"$work/postgres.log" 2>&1 || { cat "$work/postgres.log"; exit 1; }
  podman import \
    --change 'ENV PATH=/usr/lib/postgresql/15/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'ENV PGDATA=/var/lib/postgresql/data' \
    --change 'ENV LANG=C.UTF-8' \
    --change 'ENTRYPOINT ["/usr/local/bin/docker-entrypoint.sh"]' \
    --change 'CMD ["postgres"]' \
    --change 'STOPSIGNAL SIGINT' \
    --change 'EXPOSE 5432' \
    --change 'VOLUME /var/lib/postgresql/data' \
    "$work/postgres.tar" docker.io/library/postgres:15 >/dev/null 2>&1
fi

if ! podman image exists docker.io/library/nginx:1.22; then
  echo "building the nginx:1.22 stand-in (Debian $suite, nginx-light and curl)"
  mmdebstrap "${slim[@]}" --include=nginx-light,curl,ca-certificates \
    --customize-hook='ln -sf /dev/stdout "$1/var/log/nginx/access.log"' \
    --customize-hook='ln -sf /dev/stderr "$1/var/log/nginx/error.log"' \
    "$suite" "$work/nginx.tar" >"$work/nginx.log" 2>&1 || { cat "$work/nginx.log"; exit 1; }
  podman import \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'CMD ["nginx", "-g", "daemon off;"]' \
    --change 'STOPSIGNAL SIGQUIT' \
    --change 'EXPOSE 80' \
    "$work/nginx.tar" docker.io/library/nginx:1.22 >/dev/null 2>&1
fi
