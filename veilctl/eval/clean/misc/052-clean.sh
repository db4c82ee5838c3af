curl https://api.openai.com/v1/models -H "Authorization: Bearer $OPENAI_API_KEY"
curl -u "$USER:$PASSWORD" https://api.example.com/v1/ping
curl -H "X-Request-Id: 04cc562f-4555-4424-ae50-293b56e43758" https://httpbin.org/get
