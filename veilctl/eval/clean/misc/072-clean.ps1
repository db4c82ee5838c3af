$env:OPENAI_API_KEY = Read-Host -AsSecureString "API key"
$env:BUILD_ID = "098966a4-d265-4a5f-b447-8ee2f6dcb3c8"
