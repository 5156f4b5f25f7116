#!/bin/sh
# The stand-in postgres:15 image's entrypoint: the subset of the official image's
# contract that docker-compose.yml relies on. On an empty $PGDATA it creates the cluster
# with POSTGRES_USER / POSTGRES_PASSWORD as the superuser and creates POSTGRES_DB, then
# runs the server in the foreground, listening on every address with password auth.
set -eu
: "${PGDATA:=/var/lib/postgresql/data}"
: "${POSTGRES_USER:=postgres}"
: "${POSTGRES_DB:=$POSTGRES_USER}"
bin=/usr/lib/postgresql/15/bin
as_postgres() { setpriv --reuid=postgres --regid=postgres --init-groups -- "$@"; }

mkdir -p "$PGDATA" /var/run/postgresql
chown -R postgres:postgres "$PGDATA" /var/run/postgresql
chmod 700 "$PGDATA"

if [ ! -s "$PGDATA/PG_VERSION" ]; then
  pwfile=$(mktemp)
  printf '%s\n' "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD must be set}" > "$pwfile"
  chown postgres "$pwfile"
  as_postgres "$bin/initdb" -D "$PGDATA" -U "$POSTGRES_USER" --pwfile="$pwfile" \
    --auth-local=trust --auth-host=scram-sha-256 -E UTF8 >/dev/null
  rm -f "$pwfile"
  echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
  as_postgres "$bin/pg_ctl" -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
  if [ "$POSTGRES_DB" != postgres ]; then
    as_postgres "$bin/psql" -v ON_ERROR_STOP=1 -U "$POSTGRES_USER" -d postgres \
      -c "CREATE DATABASE \"$POSTGRES_DB\"" >/dev/null
  fi
  as_postgres "$bin/pg_ctl" -D "$PGDATA" -m fast -w stop >/dev/null
fi

if [ "${1:-postgres}" = postgres ]; then
  shift || true
  exec setpriv --reuid=postgres --regid=postgres --init-groups -- \
    "$bin/postgres" -D "$PGDATA" -c listen_addresses='*' "$@"
fi
exec "$@"
