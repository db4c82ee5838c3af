curl https://api.openai.com/v1/models -H "Authorization: Bearer $OPENAI_API_KEY"
curl -u "$USER:$PASSWORD" https://api.example.com/v1/ping
curl -H "X-Request-Id: 836845d7-40a4-4c74-bd17-7c4016c2c534" https://httpbin.org/get
