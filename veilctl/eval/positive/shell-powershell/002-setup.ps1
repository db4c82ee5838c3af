# setup.ps1
$env:STRIPE_WEBHOOK_SECRET = "⟦STRIPE_KEY|whsec_RJVW8uxT5P0DrRqimIssrEJl72WhVVvx⟧"
$env:TWILIO_AUTH_TOKEN = '⟦TWILIO_KEY|99fbc85a992c3dc6daa657f5616cad21⟧'
$env:AZURE_CLIENT_SECRET = "⟦CLOUD_CREDENTIAL|aWl2Q~jSA-w-UOzkSPZ2WwQXKB8YKMSGleuvLF.D⟧"
[Environment]::SetEnvironmentVariable("DB_PASSWORD", "⟦PASSWORD|Velvet540_⟧", "User")
$cred = New-Object System.Management.Automation.PSCredential("ACME\svc_deploy", (ConvertTo-SecureString "⟦PASSWORD|2oCkANAaS2vEom3YIU6z⟧" -AsPlainText -Force))
Invoke-RestMethod -Uri "⟦INTERNAL_URL|http://ldap.hooli.corp/merge_requests/2032⟧" -Headers @{ Authorization = "Bearer ⟦BEARER_TOKEN|34Ny5LzT3slwcEetwoIEzy7tC5na3y5nRC5Ih6Nv8pQH30HW⟧" }
