curl https://api.github.com/user/repos \
  -H "Content-Type: application/json" \
  -H "Authorization: Bearer ⟦GITHUB_TOKEN|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⟧" \
  -d '{"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "hello"}]}'
