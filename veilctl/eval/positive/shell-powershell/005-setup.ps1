# setup.ps1
$env:DEEPSEEK_API_KEY = "⟦API_KEY|sk-0bfea8b710ce09a10fdd57d82bf5ae5b⟧"
$env:POSTGRES_PASSWORD = '⟦PASSWORD|Pepper1399!!⟧'
$env:AZURE_CLIENT_SECRET = "⟦CLOUD_CREDENTIAL|3ZH5Q~SIxVoz_3SbREEqwv.TWznV8kyAo.Rwy_G-⟧"
[Environment]::SetEnvironmentVariable("DB_PASSWORD", "⟦PASSWORD|Pepper1399!!⟧", "User")
$cred = New-Object System.Management.Automation.PSCredential("NORTHWIND\svc_deploy", (ConvertTo-SecureString "⟦PASSWORD|Summer-monkey_69⟧" -AsPlainText -Force))
Invoke-RestMethod -Uri "⟦INTERNAL_URL|http://notifications.staging.svc.cluster.local:3000/display/ENG/Runbook⟧" -Headers @{ Authorization = "Bearer ⟦BEARER_TOKEN|VxzOBZN7zgju4R9Xmt8wJKfQxVCc7RekuGjtBEU1⟧" }
