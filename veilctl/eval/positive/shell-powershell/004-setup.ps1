# setup.ps1
$env:VOYAGE_API_KEY = "⟦API_KEY|pa-SlhJ0gTrUz82IQCDQK90hX_XlY04GoCb-KHwk6wk9bO⟧"
$env:FTP_URL = '⟦CONNECTION_STRING|ftp://django:2.YkkgWNjzj8ub-@redis-cache.intra:21/incoming/⟧'
$env:AZURE_CLIENT_SECRET = "⟦CLOUD_CREDENTIAL|las6Q~kt0HqwTB~NQ~s0D6lb1xrExihfRAzI39SG⟧"
[Environment]::SetEnvironmentVariable("DB_PASSWORD", "⟦PASSWORD|Tiger1305!⟧", "User")
$cred = New-Object System.Management.Automation.PSCredential("WOODGROVE\svc_deploy", (ConvertTo-SecureString "⟦PASSWORD|o4R5cV278c97ToYa⟧" -AsPlainText -Force))
Invoke-RestMethod -Uri "⟦INTERNAL_URL|https://ldap.intra/api/v1/health⟧" -Headers @{ Authorization = "Bearer ⟦BEARER_TOKEN|NQnTjmtBUYNrazknJfEPjns6GQ1u1jt6UGv0U6NV⟧" }
