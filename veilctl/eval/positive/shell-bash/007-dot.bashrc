#!/usr/bin/env bash
set -euo pipefail
# deploy helper — do not share
export SHOPIFY_ACCESS_TOKEN=⟦SHOPIFY_TOKEN|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⟧
export SPRING_DATASOURCE_PASSWORD="⟦PASSWORD|Falcon.falcon_11⟧"
export DATABASE_URL='⟦CONNECTION_STRING|postgres://app:osVfZOJNOab_Y9biaq8@mysql:5432/inventory⟧'
export AWS_ACCESS_KEY_ID=⟦AWS_ACCESS_KEY|AKIAEI6ISZR2TEADW4YK⟧
export AWS_SECRET_ACCESS_KEY=⟦AWS_SECRET_KEY|mSwRT3Gg5S47n1JThQJ3THNHWDj9dH0ozk1wJDzY⟧

psql "$DATABASE_URL" -c 'select 1'
aws s3 cp build.tgz s3://stark-artifacts/
