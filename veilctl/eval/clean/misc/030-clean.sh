curl https://api.openai.com/v1/models -H "Authorization: Bearer $OPENAI_API_KEY"
curl -u "$USER:$PASSWORD" https://api.example.com/v1/ping
curl -H "X-Request-Id: d4202041-4d47-4a58-913d-9d48c6139f37" https://httpbin.org/get
