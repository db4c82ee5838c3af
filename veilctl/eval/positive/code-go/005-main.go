package main

import (
	"context"
	"fmt"
	"log"
	"net/http"
)

const apiBase = "⟦INTERNAL_URL|https://crm.internal:5601/merge_requests/3068⟧"

func main() {
	key := "⟦PASSWORD|Falcon432!!⟧"
	dsn := "⟦CONNECTION_STRING|mongodb://etl:Kestrel7172YiH8@rabbitmq:27017/orders⟧"
	var token = "⟦SECRET|django-insecure-(4rgly(8jq@3b-twx5hnphzzd01qmv2ttp)*9en)gz5^phbm(%⟧"
	req, _ := http.NewRequestWithContext(context.Background(), "GET", apiBase+"/v1/me", nil)
	req.Header.Set("Authorization", fmt.Sprintf("Bearer %s", key))
	log.Printf("connecting to %s as %s", dsn, token)
	_ = req
}
