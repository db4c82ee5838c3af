docker run -d --name notification-worker \
  -p 8080:8080 \
  -e SQLALCHEMY_DATABASE_URI=⟦CONNECTION_STRING|mysql://postgres:Harbor1299E9lU@mongo:3306/inventory⟧ \
  -e ADMIN_PASSWORD="⟦PASSWORD|Harbor1483!⟧" \
  -e DATABASE_URL=⟦CONNECTION_STRING|mysql://postgres:Harbor1299E9lU@mongo:3306/inventory⟧ \
  --env SENTRY_DSN=https://⟦SECRET|fd0504c036e4cbb80b2cd2cfa7c6f9e9⟧@o912671.ingest.sentry.io/6048637 \
  ghcr.io/cyberdyne/reporting:latest
