curl https://api.cyberdyne.com/v2/orders \
  -H "Content-Type: application/json" \
  -H "Authorization: Bearer ⟦JWT|eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCIsImtpZCI6IjhXWDJJbE4wWUw4cSJ9.eyJzdWIiOiI0MTM1NjEiLCJpYXQiOjE3MzU2Njk2MTEsImV4cCI6MTczNTY3MzIxMX0.j8ePGo6hXHm3lL_z2ab3pPRs_T72jkjmHBVtyAPC6KY⟧" \
  -d '{"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "hello"}]}'
