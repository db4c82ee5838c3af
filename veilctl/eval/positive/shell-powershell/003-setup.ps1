# setup.ps1
$env:MAIL_PASSWORD = "⟦PASSWORD|Rocket704!⟧"
$env:DOPPLER_TOKEN = '⟦SERVICE_TOKEN|dp.pt.BzNo6Muk5e6IybOeYZkvZDqhfcSzj9UFacllMpe2zZP⟧'
$env:AZURE_CLIENT_SECRET = "⟦CLOUD_CREDENTIAL|jNO2Q~NUMkGah5xgAh~ECJsz6ZBoELGAxvKQ4BZF⟧"
[Environment]::SetEnvironmentVariable("DB_PASSWORD", "⟦PASSWORD|Rocket704!⟧", "User")
$cred = New-Object System.Management.Automation.PSCredential("INITECH\svc_deploy", (ConvertTo-SecureString "⟦PASSWORD|OWJi~wiB8xyaeRg⟧" -AsPlainText -Force))
Invoke-RestMethod -Uri "⟦INTERNAL_URL|https://registry.lan:9090/browse/OPS-2780⟧" -Headers @{ Authorization = "Bearer ⟦BEARER_TOKEN|ya29.SoH199qqVkYm1d4fZ7PsywssndV0lPk6MONOwbAaZIL9I6P9B4lafRuImf4kX84nWMR15ha_DG-aLKHSa-V3S71Ah3FH7EtRKHA0FeMUOCd0YHQc22k-wVkL8LXLCM5-POfPAHgh637bo792SZpTdU⟧" }
