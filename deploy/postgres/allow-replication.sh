#!/bin/sh
# Runs once, when the primary's data folder is first made (/docker-entrypoint-initdb.d): lets the read replica
# (postgres-replica in compose.production.yml) stream the WAL, with the same password as every other connection.
set -eu
echo "host replication ${POSTGRES_USER} all scram-sha-256" >> "${PGDATA}/pg_hba.conf"
