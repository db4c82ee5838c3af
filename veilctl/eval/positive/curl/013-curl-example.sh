curl -X GET 'https://es.globex.com:9200/_cluster/health?pretty' \
     -H 'Authorization: Basic ⟦PASSWORD|Y2k6RGRHSW53X2xHZ183Yw==⟧'
