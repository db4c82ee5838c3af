curl -X GET 'https://es.soylent.com:9200/_cluster/health?pretty' \
     -H 'Authorization: Basic ⟦PASSWORD|ZWxhc3RpYzp3MXEyX3BOZGNuUzA=⟧'
