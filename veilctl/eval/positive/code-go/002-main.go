package main

import (
	"context"
	"fmt"
	"log"
	"net/http"
)

const apiBase = "⟦INTERNAL_URL|http://ip-10-237-151-198.ec2.internal:3000/⟧"

func main() {
	key := "⟦JWT|eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCIsImtpZCI6IjlZdGFFMlNTaU40SCJ9.eyJzdWIiOiI5NDE5OTkiLCJpYXQiOjE3MTc2NTg1NjAsImV4cCI6MTcxNzY2MjE2MCwic2NvcGUiOiJhcGkifQ.KqbpyN1bemhQzyM-x2ToxaIA2CsFwKnb3ElwyrIYXne⟧"
	dsn := "⟦CONNECTION_STRING|postgresql://api:JZxrjsgHdZAZiDytD@mongo/billing⟧"
	var token = "⟦WEBHOOK_URL|https://discord.com/api/webhooks/9998016706450479197/kviICzreedFRDLZZUhozWcyRw8llZMW6AZWtZqPwBdZ-OYqQzhzkXwUmRUdxNnea0f_E⟧"
	req, _ := http.NewRequestWithContext(context.Background(), "GET", apiBase+"/v1/me", nil)
	req.Header.Set("Authorization", fmt.Sprintf("Bearer %s", key))
	log.Printf("connecting to %s as %s", dsn, token)
	_ = req
}
