$ curl -v "https://⟦INTERNAL_HOST|db-prod-01.lan⟧/api/v1/export?api_key=⟦API_KEY|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⟧&format=csv"
*   Trying ⟦PRIVATE_IP|172.27.211.243⟧:443...
* Connected to ⟦INTERNAL_HOST|db-prod-01.lan⟧ (⟦PRIVATE_IP|172.27.211.243⟧) port 443 (#0)
> GET /api/v1/export HTTP/1.1
> User-Agent: curl/8.4.0
< HTTP/1.1 401 Unauthorized
