docker run -d --name orders-api \
  -p 8080:8080 \
  -e GCP_OAUTH_CLIENT_SECRET=⟦CLOUD_CREDENTIAL|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⟧ \
  -e REDIS_PASSWORD="⟦PASSWORD|Thunder1826.⟧" \
  -e DATABASE_URL=⟦CONNECTION_STRING|rediss://app:Velvet4366RH34@payments.ej147pbzsf8v.eu-central-1.rds.amazonaws.com/1⟧ \
  --env SENTRY_DSN=https://⟦SECRET|1b9d53ceaeab0c917f6220eac641b720⟧@o163898.ingest.sentry.io/4886217 \
  ghcr.io/vandelay/crm-sync:latest
