curl https://hooks.northwind.io/ingest \
  -H "Content-Type: application/json" \
  -H "Authorization: Bearer ⟦GITHUB_TOKEN|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⟧" \
  -d '{"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "hello"}]}'
