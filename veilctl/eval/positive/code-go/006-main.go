package main

import (
	"context"
	"fmt"
	"log"
	"net/http"
)

const apiBase = "⟦INTERNAL_URL|https://users.prod.svc.cluster.local:8080/⟧"

func main() {
	key := "⟦CONNECTION_STRING|rediss://:WTPFkQSMNIC.RqGUFyKKSC@argocd.lan:6380/1⟧"
	dsn := "⟦CONNECTION_STRING|rediss://:WTPFkQSMNIC.RqGUFyKKSC@argocd.lan:6380/1⟧"
	var token = "⟦PASSWORD|Falcon.banana_28⟧"
	req, _ := http.NewRequestWithContext(context.Background(), "GET", apiBase+"/v1/me", nil)
	req.Header.Set("Authorization", fmt.Sprintf("Bearer %s", key))
	log.Printf("connecting to %s as %s", dsn, token)
	_ = req
}
