# terraform.tfvars
project_id        = "tailspin-prod"
region            = "europe-west3"
db_password       = "⟦PASSWORD|zWAriK9CgRDq7pOoJSWaBo!⟧"
digitalocean_token = "⟦CLOUD_CREDENTIAL|doo_v1_3687a0049f540dc71674db8cd0858bc66166fade5db3ad7b5ab762a97d6e55dd⟧"
azure_client_secret = "⟦CLOUD_CREDENTIAL|Aij1Q~doQ5sRaa.b6gaYwEONXgzeT9YViy~0.31X⟧"
datadog_api_key   = "⟦SERVICE_TOKEN|8b6a48619dea37e5bfaa538ac2cd2cae⟧"
allowed_cidrs     = ["⟦IP_ADDRESS|87.53.223.161⟧/32", "⟦PRIVATE_IP|10.0.0.0⟧/8"]
