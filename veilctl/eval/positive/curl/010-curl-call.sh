curl --request POST \
  --url https://api.litware.com/v1/messages \
  --header 'x-api-key: ⟦SERVICE_TOKEN|lin_api_pYQ0yW8cTm166nMNNSImXYQByMvStEQkGPRn3IjD⟧' \
  --header 'content-type: application/json' \
  --data '{"to": "⟦PHONE|(512) 555-0117⟧", "from": "⟦EMAIL|lsandoval@adatum.test⟧"}'
