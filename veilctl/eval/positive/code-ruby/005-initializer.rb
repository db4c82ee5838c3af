require "net/http"

Stripe.api_key = "⟦STRIPE_KEY|sk_live_5uBntvVWr2GoGyLFdyIIvjVH⟧"

class ReportMailer
  SMTP_PASSWORD = "⟦PASSWORD|Velvet480.⟧"
  API_TOKEN = '⟦JWT|eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI0MDUyMDYiLCJpYXQiOjE3NTgxMjc5NzUsImV4cCI6MTc1ODEzMTU3NX0.x9XrLnx_oAmmAnZ92phwpSMcVuM0uyra1E9pUEeitMZ⟧'

  def deliver(to: "⟦EMAIL|samuel-whitfield@example.net⟧")
    Net::SMTP.start("smtp.contoso.com", 587, "stark", "reports", SMTP_PASSWORD, :login) do |smtp|
      smtp.send_message(body, "⟦EMAIL|reports@litware.com⟧", to)
    end
  end
end

Sidekiq.configure_server { |c| c.redis = { url: "⟦CONNECTION_STRING|ftp://reporting:Velvet145wKMh@api-gateway.local:21/incoming/⟧" } }
