require "net/http"

Stripe.api_key = "⟦STRIPE_KEY|sk_test_CO1aHpL6RhoX3kMdVc9hSEGk⟧"

class ReportMailer
  SMTP_PASSWORD = "⟦PASSWORD|Rocket.winter.31⟧"
  API_TOKEN = '⟦PASSWORD|Rocket.winter.31⟧'

  def deliver(to: "⟦EMAIL|hannah@contoso.test⟧")
    Net::SMTP.start("smtp.oscorp.com", 587, "initech", "reports", SMTP_PASSWORD, :login) do |smtp|
      smtp.send_message(body, "⟦EMAIL|reports@wayne.com⟧", to)
    end
  end
end

Sidekiq.configure_server { |c| c.redis = { url: "⟦CONNECTION_STRING|mongodb://svc_orders:t-.Sh7J2~Y-DO@orders.y6i5hh5r4shx.us-east-1.rds.amazonaws.com:27017/warehouse⟧" } }
