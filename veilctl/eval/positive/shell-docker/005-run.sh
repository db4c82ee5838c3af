docker run -d --name webhooks-relay \
  -p 8080:8080 \
  -e MONGODB_URI=⟦CONNECTION_STRING|mongodb+srv://app:NbxnLcXqMh@cluster0.lkad5.mongodb.net/orders?retryWrites=true&w=majority⟧ \
  -e SPRING_DATASOURCE_PASSWORD="⟦PASSWORD|AE0hr9HKhqVBh⟧" \
  -e DATABASE_URL=⟦CONNECTION_STRING|mongodb+srv://app:NbxnLcXqMh@cluster0.lkad5.mongodb.net/orders?retryWrites=true&w=majority⟧ \
  --env SENTRY_DSN=https://⟦SECRET|6cc48a84ee8e0f458311ee547eb480d1⟧@o524177.ingest.sentry.io/2795885 \
  ghcr.io/adatum/etl-nightly:latest
