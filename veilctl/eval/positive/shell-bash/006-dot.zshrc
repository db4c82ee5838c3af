#!/usr/bin/env bash
set -euo pipefail
# deploy helper — temporary
export GH_TOKEN=⟦GITHUB_TOKEN|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⟧
export GITLAB_PRIVATE_TOKEN="⟦GITLAB_TOKEN|glpat-nus3lfMFaOjIFegeXU91⟧"
export DATABASE_URL='⟦CONNECTION_STRING|redis://default:Velvet5842DAzU@argocd.corp.cyberdyne.com:6379/0⟧'
export AWS_ACCESS_KEY_ID=⟦AWS_ACCESS_KEY|ASIAAF62ZNROU2HMMNI4⟧
export AWS_SECRET_ACCESS_KEY=⟦AWS_SECRET_KEY|IL1pc0aU1Zfw7uP/ByMNvrnfoOorOTRuoHXFPgQ0⟧

psql "$DATABASE_URL" -c 'select 1'
aws s3 cp build.tgz s3://litware-artifacts/
