curl --request POST \
  --url https://api.wayne.com/v1/messages \
  --header 'x-api-key: ⟦TWILIO_KEY|SK890b9c76da2c99dfb75b516c578774e0⟧' \
  --header 'content-type: application/json' \
  --data '{"to": "⟦PHONE|0491 570 158⟧", "from": "⟦EMAIL|rachel@oscorp.test⟧"}'
