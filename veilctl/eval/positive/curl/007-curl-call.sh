curl https://api.anthropic.com/v1/messages \
  -H "Content-Type: application/json" \
  -H "Authorization: Bearer ⟦SERVICE_TOKEN|sbp_a1e648f6931a3607176b2ffcac72d59674666d6b⟧" \
  -d '{"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "hello"}]}'
