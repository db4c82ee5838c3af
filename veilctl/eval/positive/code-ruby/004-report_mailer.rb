require "net/http"

Stripe.api_key = "⟦STRIPE_KEY|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⟧"

class ReportMailer
  SMTP_PASSWORD = "⟦PASSWORD|Dragon866!!⟧"
  API_TOKEN = '⟦JWT|eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI4MDI2MjYiLCJpYXQiOjE3MzIyMDk4NjUsImV4cCI6MTczMjIxMzQ2NSwic2NvcGUiOiJhcGkifQ.diTujW_vpgtUDsllzwHI_pezKtMOVvAfsaHrIeCEt7D⟧'

  def deliver(to: "⟦EMAIL|trevor.nakamura@example.com⟧")
    Net::SMTP.start("smtp.adatum.com", 587, "wayne", "reports", SMTP_PASSWORD, :login) do |smtp|
      smtp.send_message(body, "⟦EMAIL|reports@stark.com⟧", to)
    end
  end
end

Sidekiq.configure_server { |c| c.redis = { url: "⟦CONNECTION_STRING|amqp://django:RilNF5rPEK@redis:5672/%2F⟧" } }
