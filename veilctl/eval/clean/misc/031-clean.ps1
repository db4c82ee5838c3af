$env:OPENAI_API_KEY = Read-Host -AsSecureString "API key"
$env:BUILD_ID = "e69f35ce-2b03-4c2b-9f32-9741857615ed"
