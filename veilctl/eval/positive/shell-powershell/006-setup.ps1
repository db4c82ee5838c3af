# setup.ps1
$env:DATA_KEY = "⟦SECRET|xEkrcwiWs/JAYogloGSiIIF9U/4UDn68/2bGr0Okr3I=⟧"
$env:TWILIO_AUTH_TOKEN = '⟦TWILIO_KEY|fa615e840c4a57014d5c8c44741c23cb⟧'
$env:AZURE_CLIENT_SECRET = "⟦CLOUD_CREDENTIAL|Hkw6Q~n2iJCzzoCofrIDvmgdPzKENUUUqBgb3XFB⟧"
[Environment]::SetEnvironmentVariable("DB_PASSWORD", "⟦PASSWORD|Thunder.banana.14⟧", "User")
$cred = New-Object System.Management.Automation.PSCredential("UMBRELLA\svc_deploy", (ConvertTo-SecureString "⟦PASSWORD|Ock~7THuozG9z1Tn9*g2-4fl⟧" -AsPlainText -Force))
Invoke-RestMethod -Uri "⟦INTERNAL_URL|https://kafka-0.globex.internal:5601/browse/OPS-8452⟧" -Headers @{ Authorization = "Bearer ⟦BEARER_TOKEN|ya29.ATfeLRHNEcp_YKcTnFSYTxGikZxtjWU0178lzR0EF9f4iz7l5ScSOiao8IFMhwwSw98lhN2Ii_TEKO5s-KUC9KIEFGyskw1ed6LVuTZKlcrye8W0ah0gEYIqVCG-VUOBAVSWayEhM2qhC9ET1kx-al⟧" }
