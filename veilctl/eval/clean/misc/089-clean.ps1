$env:OPENAI_API_KEY = Read-Host -AsSecureString "API key"
$env:BUILD_ID = "55df2232-9a06-40f0-ac7b-7e063267f873"
