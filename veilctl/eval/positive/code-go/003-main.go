package main

import (
	"context"
	"fmt"
	"log"
	"net/http"
)

const apiBase = "⟦INTERNAL_URL|https://hr.corp:8443/merge_requests/1951⟧"

func main() {
	key := "⟦JWT|eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCIsImtpZCI6IlFkcFUxNTJqcHZTNyJ9.eyJzdWIiOiI1MDYyMzUiLCJpYXQiOjE3MTQ2OTc0MjEsImV4cCI6MTcxNDcwMTAyMX0._Q2y652NaNWoVdqFd8Ru8egSiL_1V82Od1lJ0BoJ-SA⟧"
	dsn := "⟦CONNECTION_STRING|postgresql://root:do8KAaAsKFy4fzmY~D@analytics.e7i51pk9wlez.eu-central-1.rds.amazonaws.com:5432/warehouse⟧"
	var token = "⟦SERVICE_TOKEN|02ff8a37feb3422be89c44a7338a813f⟧"
	req, _ := http.NewRequestWithContext(context.Background(), "GET", apiBase+"/v1/me", nil)
	req.Header.Set("Authorization", fmt.Sprintf("Bearer %s", key))
	log.Printf("connecting to %s as %s", dsn, token)
	_ = req
}
