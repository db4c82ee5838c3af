curl https://api.openai.com/v1/models -H "Authorization: Bearer $OPENAI_API_KEY"
curl -u "$USER:$PASSWORD" https://api.example.com/v1/ping
curl -H "X-Request-Id: e571b8c4-1df7-4f86-b6a3-991999154baf" https://httpbin.org/get
