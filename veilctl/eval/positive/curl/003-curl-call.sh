curl --request POST \
  --url https://api.soylent.com/v1/messages \
  --header 'x-api-key: ⟦SENDGRID_KEY|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⟧' \
  --header 'content-type: application/json' \
  --data '{"to": "⟦PHONE|020 7946 0819⟧", "from": "⟦EMAIL|nathan.abernathy13@gmail.example⟧"}'
