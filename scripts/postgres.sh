#!/bin/sh
# Starts a local PostgreSQL server for the store tests and prints its DSN
# on stdout (everything else goes to stderr), e.g.
#
#	export ARENA_TEST_POSTGRES="$(scripts/postgres.sh)"
#
# The cluster listens on a Unix socket only (no TCP port, so nothing on
# the network can reach it and it cannot collide with another server's
# port) and lives under $ARENA_PG_DIR (default /tmp/arena-pg). Running the
# script again reuses the cluster, starting it if it is stopped, so it is
# safe to call from every test run. On a fresh Debian machine, as root, it
# installs the postgresql package first.
set -eu

dir=${ARENA_PG_DIR:-/tmp/arena-pg}
db=${ARENA_PG_DB:-arena_test}

say() { echo "postgres.sh: $*" >&2; }

if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
	if [ "$(id -u)" != 0 ]; then
		say "PostgreSQL is not installed and only root can install it (apt-get install postgresql)"
		exit 1
	fi
	say "installing postgresql"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update >&2
	apt-get install -y --no-install-recommends postgresql >&2
fi
# The newest installed major version.
bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)

# initdb refuses to run as root: the cluster belongs to the postgres user.
if [ "$(id -u)" = 0 ]; then
	owner=postgres
	as_owner() { runuser -u postgres -- "$@"; }
else
	owner=$(id -un)
	as_owner() { "$@"; }
fi

mkdir -p "$dir"
chown "$owner" "$dir"
chmod 755 "$dir"

if [ ! -f "$dir/data/PG_VERSION" ]; then
	say "creating a cluster in $dir/data"
	rm -rf "$dir/data"
	as_owner "$bin/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --no-sync >&2
	# Socket only: an empty listen_addresses turns TCP off.
	cat >>"$dir/data/postgresql.conf" <<EOF
listen_addresses = ''
unix_socket_directories = '$dir'
EOF
fi

if ! as_owner "$bin/pg_ctl" -D "$dir/data" status >/dev/null 2>&1; then
	say "starting the server"
	as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start >&2
fi

psql() { as_owner "$bin/psql" -h "$dir" -U postgres -X -q "$@"; }
if [ "$(psql -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname = '$db'")" != 1 ]; then
	say "creating database $db"
	psql -d postgres -c "CREATE DATABASE \"$db\"" >&2
fi

echo "postgres:///$db?host=$dir&user=postgres"
