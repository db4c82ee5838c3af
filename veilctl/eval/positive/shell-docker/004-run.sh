docker run -d --name crm-sync \
  -p 8080:8080 \
  -e ADMIN_PASSWORD=⟦PASSWORD|Orange1932!⟧ \
  -e ALICLOUD_SECRET_KEY="⟦CLOUD_CREDENTIAL|hCyWRb4vwC6st4zkxAA3GddsHZGZIY⟧" \
  -e DATABASE_URL=⟦CONNECTION_STRING|rediss://app:Summer7394l0pW@rabbitmq:6380/1⟧ \
  --env SENTRY_DSN=https://⟦SECRET|2116b10e92460f207c6be38330ac73c7⟧@o238080.ingest.sentry.io/1488955 \
  ghcr.io/contoso/ml-inference:latest
