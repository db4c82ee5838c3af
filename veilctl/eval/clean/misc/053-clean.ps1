$env:OPENAI_API_KEY = Read-Host -AsSecureString "API key"
$env:BUILD_ID = "df6f68ba-c722-4be4-9013-7aa840740304"
