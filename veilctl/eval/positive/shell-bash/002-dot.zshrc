#!/usr/bin/env bash
set -euo pipefail
# deploy helper — from the wiki
export ARM_CLIENT_SECRET=⟦CLOUD_CREDENTIAL|MGE3Q~IxmjiPTETd1ngWiBDNw88tadZ4OEqN0g7T⟧
export GROQ_API_KEY="⟦API_KEY|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⟧"
export DATABASE_URL='⟦CONNECTION_STRING|ftp://etl:shmUTyb4P6a0ty7KU3O2F@redis-cache.corp.oscorp.com:21/incoming/⟧'
export AWS_ACCESS_KEY_ID=⟦AWS_ACCESS_KEY|AKIALKFR36PRUMKC3VXC⟧
export AWS_SECRET_ACCESS_KEY=⟦AWS_SECRET_KEY|68FZ5QMI6tJyC3OYsv5QE0U35sCLrz3mPTk1FYZK⟧

psql "$DATABASE_URL" -c 'select 1'
aws s3 cp build.tgz s3://oscorp-artifacts/
