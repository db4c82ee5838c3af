# terraform.tfvars
project_id        = "acme-prod"
region            = "europe-west3"
db_password       = "⟦PASSWORD|Winter868.⟧"
digitalocean_token = "⟦CLOUD_CREDENTIAL|doo_v1_a25304da9eabff7897ce56ac5f0fd748f1c4b303244e78a8248b35552008ebee⟧"
azure_client_secret = "⟦CLOUD_CREDENTIAL|YWI2Q~-iwcF9kw4-rO9jY4y89LxYOisCKXqzyq39⟧"
datadog_api_key   = "⟦SERVICE_TOKEN|cf7703e27d5a5da2ed133162efb15e87⟧"
allowed_cidrs     = ["⟦IP_ADDRESS|139.131.186.7⟧/32", "⟦PRIVATE_IP|10.0.0.0⟧/8"]
