package main

import (
	"context"
	"fmt"
	"log"
	"net/http"
)

const apiBase = "⟦INTERNAL_URL|http://inventory.staging.svc.cluster.local:3000/app/discover#/⟧"

func main() {
	key := "⟦API_KEY|sk-ant-admin01-pDtoMjzP7TbU-9Rf5iO_mA0OOtL-Ynu3K0eNvMPhV0KsKmN0-jOZ1q1XqRTBWAdO5PWXQjLTsTZeqMRzJw2yHDnBD4ZfZAA⟧"
	dsn := "⟦CONNECTION_STRING|ftp://keycloak:jfIwYBXb4TI@172.26.125.205:21/incoming/⟧"
	var token = "⟦PYPI_TOKEN|pypi-AgEIcHlwaS5vcmcCJDUwMDY1ZGNhLWM0OGEtNjgyZi0xZDY5LWNkMTBjNzU5MjI2MgACKsS0nG4lNRBRQtgruHubvXjWkSvgnYNHNDg3k8Eh3vkDtRC7_ByRUxLnhn8_z869W_kmWrsz0oBOg8d3tlKhR0ArCUA7s1Inp3WNL645XBD-3ahTgm09SQ⟧"
	req, _ := http.NewRequestWithContext(context.Background(), "GET", apiBase+"/v1/me", nil)
	req.Header.Set("Authorization", fmt.Sprintf("Bearer %s", key))
	log.Printf("connecting to %s as %s", dsn, token)
	_ = req
}
