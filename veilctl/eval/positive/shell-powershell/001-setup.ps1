# setup.ps1
$env:FIGMA_TOKEN = "⟦SERVICE_TOKEN|figd_CJ6e1L-OlEAIwwb7hXw6BvaUKCW2UCmZnt1Agbip⟧"
$env:REDIS_PASSWORD = '⟦PASSWORD|Pepper149.⟧'
$env:AZURE_CLIENT_SECRET = "⟦CLOUD_CREDENTIAL|pa02Q~TXaSlMYIyYzu7pDx8tE5lmWF3OpYD3uyza⟧"
[Environment]::SetEnvironmentVariable("DB_PASSWORD", "⟦PASSWORD|Pepper149.⟧", "User")
$cred = New-Object System.Management.Automation.PSCredential("NORTHWIND\svc_deploy", (ConvertTo-SecureString "⟦PASSWORD|dK_F8CZ75FKsNG0v4aeX_⟧" -AsPlainText -Force))
Invoke-RestMethod -Uri "⟦INTERNAL_URL|https://hr.intra/d/S5XklNyrS/service-overview⟧" -Headers @{ Authorization = "Bearer ⟦BEARER_TOKEN|ya29.y6IceYDKqS_zM6sXZVPYTEiPzsvpFOcE6R9Dpb5mGnaK7fFPX9yhHrFoOyVmK1ggUi4Mh8-LH5J336Bc4PX1XGePikJH6DMFVwtAhbZtPNtwuBzIAvMGTaaARpN9iZRM6NKF3rxiAqgpsUIurWNJVw⟧" }
