#!/usr/bin/env bash
set -euo pipefail
# deploy helper — from the wiki
export ARM_CLIENT_SECRET=⟦CLOUD_CREDENTIAL|7Cz1Q~1A2jLFjlnQmeRmrWiX5OvvOsBP8JbolTka⟧
export MYSQL_ROOT_PASSWORD="⟦PASSWORD|2aZPZksch7tbclIyCiSwN⟧"
export DATABASE_URL='⟦CONNECTION_STRING|mongodb://app:GZgAup3sNmhUqyMMu@api-gateway.int.globex.net:27017/payments⟧'
export AWS_ACCESS_KEY_ID=⟦AWS_ACCESS_KEY|AKIADF56IP6MOKBTD3CT⟧
export AWS_SECRET_ACCESS_KEY=⟦AWS_SECRET_KEY|VbnLqVcsOCalqkKqOeAn5uc4vaI6eSaa6c07Pmae⟧

psql "$DATABASE_URL" -c 'select 1'
aws s3 cp build.tgz s3://cyberdyne-artifacts/
