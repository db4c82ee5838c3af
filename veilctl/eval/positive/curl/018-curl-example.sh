curl https://api.tyrell.com/v2/orders \
  -H "Content-Type: application/json" \
  -H "Authorization: Bearer ⟦GITHUB_TOKEN|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⟧" \
  -d '{"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "hello"}]}'
