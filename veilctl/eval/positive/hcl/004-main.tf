provider "aws" {
  region     = "eu-central-1"
  access_key = "⟦AWS_ACCESS_KEY|AKIANNPENB643NQRPZXB⟧"
  secret_key = "⟦AWS_SECRET_KEY|P5Rw0OI1KJpkp/Yysoc3on4akBpoPEh52JK0rcQK⟧"
}

provider "cloudflare" {
  api_token = "⟦CLOUD_CREDENTIAL|H-mjleuEunn1Ek7JSE3uy5MXyUYMPYoYm5szJUXE⟧"
}

resource "aws_db_instance" "main" {
  identifier        = "crm-sync-db"
  engine            = "postgres"
  instance_class    = "db.t3.medium"
  allocated_storage = 50
  username          = "svc_orders"
  password          = "⟦PASSWORD|Tiger431!⟧"
  skip_final_snapshot = true
}
