require "net/http"

Stripe.api_key = "⟦STRIPE_KEY|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⟧"

class ReportMailer
  SMTP_PASSWORD = "⟦PASSWORD|-VYmvIjxtBCKHBxY!⟧"
  API_TOKEN = '⟦GITLAB_TOKEN|glptt-wMA0zH_Yu0M1cz8qvd4g⟧'

  def deliver(to: "⟦EMAIL|rmbeki@soylent.test⟧")
    Net::SMTP.start("smtp.wonka.com", 587, "wayne", "reports", SMTP_PASSWORD, :login) do |smtp|
      smtp.send_message(body, "⟦EMAIL|reports@woodgrove.com⟧", to)
    end
  end
end

Sidekiq.configure_server { |c| c.redis = { url: "⟦CONNECTION_STRING|postgres://app:Kestrel1165559A@inventory.7obgiytvals8.eu-west-1.rds.amazonaws.com:5432/billing?sslmode=require⟧" } }
