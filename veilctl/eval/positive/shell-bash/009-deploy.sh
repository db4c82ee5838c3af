#!/usr/bin/env bash
set -euo pipefail
# deploy helper — from the wiki
export MAILCHIMP_API_KEY=⟦SERVICE_TOKEN|b154ca04a2b032a93e739423f9abcaa4-us15⟧
export AUTH0_CLIENT_SECRET="⟦SECRET|93o1mVRftFs7JyBE3K-COgIS8-7ZA-jE0IWFty-9AoYEgLdi⟧"
export DATABASE_URL='⟦CONNECTION_STRING|postgresql://api:0rtg63kpPcW1q7Nm0@db.litware.example.com:5432/payments⟧'
export AWS_ACCESS_KEY_ID=⟦AWS_ACCESS_KEY|AKIANSLZ6B4TSPZXGOET⟧
export AWS_SECRET_ACCESS_KEY=⟦AWS_SECRET_KEY|0VBjuorsMrYv5yvZaFQcOAnrjL33KYTENWZvL42d⟧

psql "$DATABASE_URL" -c 'select 1'
aws s3 cp build.tgz s3://woodgrove-artifacts/
