curl -X GET '⟦INTERNAL_URL|https://10.55.120.203:9200/_cluster/health?pretty⟧' \
     -H 'Authorization: Basic ⟦PASSWORD|ZWxhc3RpYzppM1RkMUd+VnlsS1R+MUp+⟧'
