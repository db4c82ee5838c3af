require "net/http"

Stripe.api_key = "⟦STRIPE_KEY|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⟧"

class ReportMailer
  SMTP_PASSWORD = "⟦PASSWORD|bAwB6PNJf31DkphsY⟧"
  API_TOKEN = '⟦PASSWORD|bAwB6PNJf31DkphsY⟧'

  def deliver(to: "⟦EMAIL|ethan.lindqvist@outlook.example⟧")
    Net::SMTP.start("smtp.vandelay.com", 587, "soylent", "reports", SMTP_PASSWORD, :login) do |smtp|
      smtp.send_message(body, "⟦EMAIL|reports@fabrikam.com⟧", to)
    end
  end
end

Sidekiq.configure_server { |c| c.redis = { url: "⟦CONNECTION_STRING|smtp://postmaster%40mg.woodgrove.com:gtTIxvon9M3Xb1noYj5l6L@smtp.mailgun.org:587⟧" } }
