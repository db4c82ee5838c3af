require "net/http"

Stripe.api_key = "⟦STRIPE_KEY|sk_live_xGgwciCUt0HyZNsNFzLcMfNx⟧"

class ReportMailer
  SMTP_PASSWORD = "⟦PASSWORD|99S9XxHoSly8HFopJ⟧"
  API_TOKEN = '⟦CLOUD_CREDENTIAL|b6WHad13MCnR2z1m+4Qq6WgfVRgN26mk1GqwhvCWWsd⟧'

  def deliver(to: "⟦EMAIL|grace@example.net⟧")
    Net::SMTP.start("smtp.globex.com", 587, "vandelay", "reports", SMTP_PASSWORD, :login) do |smtp|
      smtp.send_message(body, "⟦EMAIL|reports@hooli.com⟧", to)
    end
  end
end

Sidekiq.configure_server { |c| c.redis = { url: "⟦CONNECTION_STRING|amqp://django:4dMnBigZm_U~3Y@rabbitmq/⟧" } }
