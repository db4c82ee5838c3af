provider "azurerm" {
  features {}
  subscription_id = "39645c47-c752-44b8-98e6-344a5e73e63c"
  tenant_id       = "179149f3-d8bd-4141-90c1-056b06f52732"
  client_id       = "59eb1612-2ff1-446b-8d7d-b309c1abc713"
  client_secret   = "⟦CLOUD_CREDENTIAL|ORb8Q~LIQ5UJuEt_w9fYl4yatFAGlmYTDVl8MqP4⟧"
}

provider "alicloud" {
  access_key = "⟦CLOUD_CREDENTIAL|LTAIaMQ85kjipaaZx7nYy287⟧"
  secret_key = "⟦CLOUD_CREDENTIAL|IRS55KRPZifKu3ET6t9ndERN7YDTj8⟧"
  region     = "eu-central-1"
}

provider "github" {
  token = "⟦GITHUB_TOKEN|ghu_GfloGuzmAtPaQGXwwP3zi4z4purz0Z2I5Dl8⟧"
  owner = "northwind"
}
