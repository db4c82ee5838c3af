docker run -d --name chatbot \
  -p 8080:8080 \
  -e SQLSERVER_URL=⟦CONNECTION_STRING|mssql://admin:Harbor8305XfrR@orders.0iol2f2m13i3.eu-west-1.rds.amazonaws.com:1433/warehouse⟧ \
  -e DD_APP_KEY="⟦SERVICE_TOKEN|d5b9ef390e448cc5dc2011702505087741246bf8⟧" \
  -e DATABASE_URL=⟦CONNECTION_STRING|mssql://admin:Harbor8305XfrR@orders.0iol2f2m13i3.eu-west-1.rds.amazonaws.com:1433/warehouse⟧ \
  --env SENTRY_DSN=https://⟦SECRET|d55bcca937e70a8e8fe59e3b613a0cdb⟧@o346216.ingest.sentry.io/7301051 \
  ghcr.io/tyrell/notification-worker:latest
