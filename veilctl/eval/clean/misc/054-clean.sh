curl https://api.openai.com/v1/models -H "Authorization: Bearer $OPENAI_API_KEY"
curl -u "$USER:$PASSWORD" https://api.example.com/v1/ping
curl -H "X-Request-Id: 2f39e593-7fb8-4949-a6b0-6b0a526f6317" https://httpbin.org/get
