provider "aws" {
  region     = "eu-central-1"
  access_key = "⟦AWS_ACCESS_KEY|AKIAMNRCRDAFEQEOBMEM⟧"
  secret_key = "⟦AWS_SECRET_KEY|xlW2K22hani4a8vJDUvNXLbDhIg3aXnyJYofV3rh⟧"
}

provider "cloudflare" {
  api_token = "⟦CLOUD_CREDENTIAL|hnNKD5yGHJ-Abt8acMxIFotU0yPsAT8-qFbV2_-l⟧"
}

resource "aws_db_instance" "main" {
  identifier        = "ml-inference-db"
  engine            = "postgres"
  instance_class    = "db.t3.medium"
  allocated_storage = 50
  username          = "rails"
  password          = "⟦PASSWORD|buYoneheesAVWLKplneNJYYzCv1f7⟧"
  skip_final_snapshot = true
}
