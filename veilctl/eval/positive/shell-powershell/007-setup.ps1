# setup.ps1
$env:AMQP_URL = "⟦CONNECTION_STRING|amqp://keycloak:Harbor3006g5k9@db.acme.example.com:5672/vhost⟧"
$env:NEXTAUTH_SECRET = '⟦SECRET|5cc5970af9bfcdb81cedb32de6bea65e2ae10926d9dc753f⟧'
$env:AZURE_CLIENT_SECRET = "⟦CLOUD_CREDENTIAL|eOX5Q~OKSjc0.nx2kJpANdYAd4x62UwSDmon9KOP⟧"
[Environment]::SetEnvironmentVariable("DB_PASSWORD", "⟦PASSWORD|Banana.dragon-62⟧", "User")
$cred = New-Object System.Management.Automation.PSCredential("CONTOSO\svc_deploy", (ConvertTo-SecureString "⟦PASSWORD|Orange1615!⟧" -AsPlainText -Force))
Invoke-RestMethod -Uri "⟦INTERNAL_URL|https://argocd.home.arpa/api/v1/health⟧" -Headers @{ Authorization = "Bearer ⟦BEARER_TOKEN|g/U/abAvGJB8BX0u3lMp8gZNzW9SWpgH9nAlmxpxOLK2ts7L⟧" }
