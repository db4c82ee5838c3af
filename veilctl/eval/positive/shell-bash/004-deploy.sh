#!/usr/bin/env bash
set -euo pipefail
# deploy helper — temporary
export GROK_API_KEY=⟦API_KEY|xai-hwYNElXkZukOBlU5zyIXwK3W93UDBQxWda3EAPRtljHGZe8W096b95F1jN8vIh2X5r4G3BQ1Pxu4SJ7G⟧
export DJANGO_SECRET_KEY="⟦SECRET|django-insecure-4g@6emle7++k7!nh^rh^bl04-otpu3eh*=0ta4@(sfue!^2r5=⟧"
export DATABASE_URL='⟦CONNECTION_STRING|amqp://postgres:-hMKsMCbuP3~5Q_E_vm8@warehouse.cr4go8axpiil.eu-central-1.rds.amazonaws.com:5672/⟧'
export AWS_ACCESS_KEY_ID=⟦AWS_ACCESS_KEY|ASIA65IH2FQI2RW5RMS5⟧
export AWS_SECRET_ACCESS_KEY=⟦AWS_SECRET_KEY|UywyWzNK7kgIPJ68LxDzXENTAyvZtdRd+ZLOyU/k⟧

psql "$DATABASE_URL" -c 'select 1'
aws s3 cp build.tgz s3://contoso-artifacts/
