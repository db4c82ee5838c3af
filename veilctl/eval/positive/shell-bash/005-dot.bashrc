#!/usr/bin/env bash
set -euo pipefail
# deploy helper — from the wiki
export SLACK_APP_TOKEN=⟦SLACK_TOKEN|xapp-1-AOB6355H4OZ-1356396073962-e6d0f0c28e371a9e024371e6ec39cccb05bd8f45d95da6cc8205269d1e880174⟧
export GITHUB_TOKEN="⟦GITHUB_TOKEN|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⟧"
export DATABASE_URL='⟦CONNECTION_STRING|rediss://etl:3QYRxSIm2i@orders.h8b3acktw5zk.eu-central-1.rds.amazonaws.com:6380/1⟧'
export AWS_ACCESS_KEY_ID=⟦AWS_ACCESS_KEY|AKIAFHHCW5AOWICTYOOT⟧
export AWS_SECRET_ACCESS_KEY=⟦AWS_SECRET_KEY|y0VPnl0ibcjK9JNbpNIghZ9Fe/kumJC4xEqZqbqI⟧

psql "$DATABASE_URL" -c 'select 1'
aws s3 cp build.tgz s3://vandelay-artifacts/
