provider "aws" {
  region     = "eu-central-1"
  access_key = "⟦AWS_ACCESS_KEY|ASIADEUEGR7PCHY5IIZS⟧"
  secret_key = "⟦AWS_SECRET_KEY|SKtmBLfVAd3cLVe0gcwWSJu8jz3p1dhvj+aFTyY5⟧"
}

provider "cloudflare" {
  api_token = "⟦CLOUD_CREDENTIAL|CLheBr1So7D8EAoNVryaU7S-I0m6DC3hQHl9P8qS⟧"
}

resource "aws_db_instance" "main" {
  identifier        = "rag-pipeline-db"
  engine            = "postgres"
  instance_class    = "db.t3.medium"
  allocated_storage = 50
  username          = "admin"
  password          = "⟦PASSWORD|Banana806!!⟧"
  skip_final_snapshot = true
}
