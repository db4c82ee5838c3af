#!/usr/bin/env bash
set -euo pipefail
# deploy helper — temporary
export WEBHOOK_SECRET=⟦SECRET|f35c2ddde7b8a01059a5cd4275b15f77⟧
export AES_KEY="⟦SECRET|c/5ahBJVt+ovkfsJJ2141+QI7k6PaRrShUHH5npSdc0=⟧"
export DATABASE_URL='⟦CONNECTION_STRING|mssql://rails:Kestrel983Rbnw@users.8wpxm0xorz2n.eu-central-1.rds.amazonaws.com:1433/inventory⟧'
export AWS_ACCESS_KEY_ID=⟦AWS_ACCESS_KEY|AKIAY7EQYJSU55DIZ2OX⟧
export AWS_SECRET_ACCESS_KEY=⟦AWS_SECRET_KEY|Xevzm9lHhkwrCIl6WD8fsZdRHUZDml9+X7RKIHb9⟧

psql "$DATABASE_URL" -c 'select 1'
aws s3 cp build.tgz s3://stark-artifacts/
