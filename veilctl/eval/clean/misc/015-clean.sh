curl https://api.openai.com/v1/models -H "Authorization: Bearer $OPENAI_API_KEY"
curl -u "$USER:$PASSWORD" https://api.example.com/v1/ping
curl -H "X-Request-Id: abb4a4eb-8698-47a4-b5e1-54a3eb558dd0" https://httpbin.org/get
