provider "azurerm" {
  features {}
  subscription_id = "e524588d-9bab-475e-9cbe-c7f0a96483ff"
  tenant_id       = "2f174e5a-cc78-46f7-bdb8-ce61d9067bb6"
  client_id       = "922b4e34-1d0f-4fd6-8c11-d101e47e024a"
  client_secret   = "⟦CLOUD_CREDENTIAL|Ajg6Q~Q5xlVe0KNNjVWzwlzFO81ajRbPz9jlEDB7⟧"
}

provider "alicloud" {
  access_key = "⟦CLOUD_CREDENTIAL|LTAI65e5k2QPLNHDDFJJlvqU⟧"
  secret_key = "⟦CLOUD_CREDENTIAL|Qp1Xtc68C1FACWb0gIcBMd8YZi7Fdu⟧"
  region     = "eu-central-1"
}

provider "github" {
  token = "⟦GITHUB_TOKEN|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⟧"
  owner = "wayne"
}
