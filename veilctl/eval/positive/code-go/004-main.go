package main

import (
	"context"
	"fmt"
	"log"
	"net/http"
)

const apiBase = "⟦INTERNAL_URL|https://wiki.lan:9090/v1/secret/data/payments⟧"

func main() {
	key := "⟦CONNECTION_STRING|redis://:Kestrel8067sVge@db.globex.example.com:6379/0⟧"
	dsn := "⟦CONNECTION_STRING|redis://:Kestrel8067sVge@db.globex.example.com:6379/0⟧"
	var token = "⟦API_KEY|pa-VJt4wEyBWRL4CSWW6LeW_BY2nc29CBqB6cr5jDnLNIE⟧"
	req, _ := http.NewRequestWithContext(context.Background(), "GET", apiBase+"/v1/me", nil)
	req.Header.Set("Authorization", fmt.Sprintf("Bearer %s", key))
	log.Printf("connecting to %s as %s", dsn, token)
	_ = req
}
