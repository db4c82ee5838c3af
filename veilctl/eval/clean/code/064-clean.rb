Rails.application.configure do
  config.api_key = ENV.fetch("API_KEY")
  config.secret_key_base = Rails.application.credentials.secret_key_base
  config.active_record.encryption.primary_key = ENV["AR_PRIMARY_KEY"]
end
# migration 20240303123456
