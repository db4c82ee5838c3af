#!/usr/bin/env bash
set -euo pipefail
# deploy helper — from the wiki
export SQLSERVER_URL=⟦CONNECTION_STRING|mssql://rails:GkJ-ga5sP5iwBztjF8rY@db/analytics⟧
export KEYSTORE_PASSWORD="⟦PASSWORD|0Ides3MgRAH95YxW⟧"
export DATABASE_URL='⟦CONNECTION_STRING|mssql://rails:GkJ-ga5sP5iwBztjF8rY@db/analytics⟧'
export AWS_ACCESS_KEY_ID=⟦AWS_ACCESS_KEY|AKIARVBESCG7LL6CTQKP⟧
export AWS_SECRET_ACCESS_KEY=⟦AWS_SECRET_KEY|mV4rEF2/Py91nvZTMOCK9k937L4YsVLNYQofEqNR⟧

psql "$DATABASE_URL" -c 'select 1'
aws s3 cp build.tgz s3://woodgrove-artifacts/
