package main

import (
	"context"
	"fmt"
	"log"
	"net/http"
)

const apiBase = "⟦INTERNAL_URL|https://ip-10-168-187-101.ec2.internal/d/xAepCiGqO/service-overview⟧"

func main() {
	key := "⟦PASSWORD|f79G7WBxmGIQux2iqRNabsP0⟧"
	dsn := "⟦CONNECTION_STRING|mongodb://rails:GEO~VrI0QYbcXBvvWVen@auth.89vyfqunyviw.eu-west-1.rds.amazonaws.com/orders⟧"
	var token = "⟦SECRET|dwmmr_55YA7geItay7EL5a8shWbCZLJsbzONoyX5⟧"
	req, _ := http.NewRequestWithContext(context.Background(), "GET", apiBase+"/v1/me", nil)
	req.Header.Set("Authorization", fmt.Sprintf("Bearer %s", key))
	log.Printf("connecting to %s as %s", dsn, token)
	_ = req
}
