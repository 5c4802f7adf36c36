#!/bin/sh
# The official postgres image's contract, as far as docker-compose.yml uses it: POSTGRES_USER,
# POSTGRES_PASSWORD, POSTGRES_DB, PGDATA; a first start initialises the cluster, later ones reuse it.
set -e
PGDATA=${PGDATA:-/var/lib/postgresql/data}; BIN=/usr/lib/postgresql/15/bin; U=${POSTGRES_USER:-postgres}
mkdir -p "$PGDATA" /run/postgresql; chown -R postgres:postgres "$PGDATA" /run/postgresql; chmod 700 "$PGDATA"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  printf '%s\n' "${POSTGRES_PASSWORD:-postgres}" > /tmp/pw; chown postgres /tmp/pw
  su postgres -s /bin/sh -c "$BIN/initdb -D '$PGDATA' -U '$U' --pwfile=/tmp/pw --auth-local=trust --auth-host=scram-sha-256" >/dev/null
  rm -f /tmp/pw; echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
  if [ -n "$POSTGRES_DB" ] && [ "$POSTGRES_DB" != postgres ]; then
    echo "CREATE DATABASE \"$POSTGRES_DB\" OWNER \"$U\";" |
      su postgres -s /bin/sh -c "$BIN/postgres --single -D '$PGDATA' postgres" >/dev/null
  fi
fi
exec su postgres -s /bin/sh -c "exec $BIN/postgres -D '$PGDATA' -c listen_addresses='*'"
