docker run -d --name chatbot \
  -p 8080:8080 \
  -e APP_KEY=⟦SECRET|base64:oARXCktodi56rpC7f8N1Np9QTW9uC5HfFtH0Wox23Jo=⟧ \
  -e SECRET_KEY="⟦SECRET|django-insecure-me8rqo=9fbybzir82aupc522n3tkw)ivylnxe@cb-a@c_wb2nw⟧" \
  -e DATABASE_URL=⟦CONNECTION_STRING|amqp://rails:Harbor2858bG2J@grafana.intranet/vhost⟧ \
  --env SENTRY_DSN=https://⟦SECRET|291db7c395e77e9125f06b62d4eee521⟧@o722899.ingest.sentry.io/9083672 \
  ghcr.io/fabrikam/inventory:latest
