package main

import (
	"context"
	"fmt"
	"log"
	"net/http"
)

const apiBase = "⟦INTERNAL_URL|https://users.default.svc.cluster.local/app/discover#/⟧"

func main() {
	key := "⟦WEBHOOK_URL|https://discord.com/api/webhooks/1338825104261977104/NZsakRqf2nAtlWFnjsZwTTtCxxhdJUu3qjO_cH0izNmxu7NkK_qq2NTQWkc_BaL8yy8f⟧"
	dsn := "⟦CONNECTION_STRING|amqp://app:Harbor400Km11@warehouse.k4r6xzn3m10k.us-east-1.rds.amazonaws.com:5672/vhost⟧"
	var token = "⟦API_KEY|sk-af488b79f0c0ad7202ffb7778998c0ae⟧"
	req, _ := http.NewRequestWithContext(context.Background(), "GET", apiBase+"/v1/me", nil)
	req.Header.Set("Authorization", fmt.Sprintf("Bearer %s", key))
	log.Printf("connecting to %s as %s", dsn, token)
	_ = req
}
