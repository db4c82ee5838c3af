package main

import (
	"context"
	"fmt"
	"log"
	"net/http"
)

const apiBase = "⟦INTERNAL_URL|https://artifactory.corp:8443/admin/login⟧"

func main() {
	key := "⟦JWT|eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxOTY5MjQiLCJpYXQiOjE3MzM3NDc0MjIsImV4cCI6MTczMzc1MTAyMn0.Tfc0Q84VnELcKi1yGHORVMshx51Buzo64cW7xtP7_G1⟧"
	dsn := "⟦CONNECTION_STRING|postgresql+asyncpg://reporting:Harbor2101c2AS@postgres:5432/crm⟧"
	var token = "⟦SENDGRID_KEY|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⟧"
	req, _ := http.NewRequestWithContext(context.Background(), "GET", apiBase+"/v1/me", nil)
	req.Header.Set("Authorization", fmt.Sprintf("Bearer %s", key))
	log.Printf("connecting to %s as %s", dsn, token)
	_ = req
}
