provider "aws" {
  region     = "eu-central-1"
  access_key = "⟦AWS_ACCESS_KEY|AKIACH4LZ7X55WECC2KT⟧"
  secret_key = "⟦AWS_SECRET_KEY|Xr4LC7y3umQhE+SVtIDZqvaGqQKdfTFG/S9IlG4+⟧"
}

provider "cloudflare" {
  api_token = "⟦CLOUD_CREDENTIAL|4kAJN17sz5XfzW-hjtos4r-sWk9iybXeTirtN0Qo⟧"
}

resource "aws_db_instance" "main" {
  identifier        = "chatbot-db"
  engine            = "postgres"
  instance_class    = "db.t3.medium"
  allocated_storage = 50
  username          = "etl"
  password          = "⟦PASSWORD|Rocket907^⟧"
  skip_final_snapshot = true
}
