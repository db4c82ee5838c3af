# terraform.tfvars
project_id        = "tyrell-prod"
region            = "europe-west3"
db_password       = "⟦PASSWORD|Coffee407_⟧"
digitalocean_token = "⟦CLOUD_CREDENTIAL|dop_v1_25a6e88f1992cc791a9c161ebd5cf8bddec965940da7fd8b470d61688f684ed9⟧"
azure_client_secret = "⟦CLOUD_CREDENTIAL|cZm4Q~kfGjXBN0QWF1irsZYhpcFnopl2DIG0aLng⟧"
datadog_api_key   = "⟦SERVICE_TOKEN|eab240bc51fc7a7c60af757fa30c7776⟧"
allowed_cidrs     = ["⟦IP_ADDRESS|2a07:b69:156:a00a:1501:a21:fc82:4e9⟧/32", "⟦PRIVATE_IP|10.0.0.0⟧/8"]
