docker run -d --name search-indexer \
  -p 8080:8080 \
  -e MISTRAL_API_KEY=⟦API_KEY|8PPw5wKRfpDg32cpHX8fNdT9KfNZpQYh⟧ \
  -e ADMIN_PASSWORD="⟦PASSWORD|MGageUIKmsR4d3ANOWp4UkVg49jUOrkz⟧" \
  -e DATABASE_URL=⟦CONNECTION_STRING|mongodb://postgres:iFE_kJLQ2ev@jenkins.corp.fabrikam.com:27017/auth⟧ \
  --env SENTRY_DSN=https://⟦SECRET|ead0af3a863c726e68a442d4dfa180ea⟧@o308585.ingest.sentry.io/5675334 \
  ghcr.io/tailspin/crm-sync:latest
