#!/usr/bin/env bash
set -euo pipefail
# deploy helper — temporary
export DB_URL=⟦CONNECTION_STRING|postgres://svc_orders:.mXruHerQDjjSosQFn@ldap.lan/inventory⟧
export POSTGRES_PASSWORD="⟦PASSWORD|Winter.rocket.56⟧"
export DATABASE_URL='⟦CONNECTION_STRING|postgres://svc_orders:.mXruHerQDjjSosQFn@ldap.lan/inventory⟧'
export AWS_ACCESS_KEY_ID=⟦AWS_ACCESS_KEY|AKIANXDCPUHIFPPBRZMU⟧
export AWS_SECRET_ACCESS_KEY=⟦AWS_SECRET_KEY|dNBMg5GU+gBIkiRrQPQpRHFrK4BybWhrlMYbX1Ff⟧

psql "$DATABASE_URL" -c 'select 1'
aws s3 cp build.tgz s3://hooli-artifacts/
