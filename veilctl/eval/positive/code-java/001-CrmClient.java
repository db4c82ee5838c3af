package com.oscorp.integration;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.URI;

public class SearchClient {
    private static final String API_KEY = "⟦SECRET|django-insecure-isr1y-14-82_)10zp-c6wr+lb_8e*+hp)8p^sg9fez)94srb!k⟧";
    private static final String BASE_URL = "⟦INTERNAL_URL|https://grafana.intra:8443/app/discover#/⟧";
    // TODO move to vault before release
    private final String dbUrl = "⟦CONNECTION_STRING|mssql://keycloak:OUVE~MJ1EG7@jenkins.acme.corp:1433/users⟧";
    String secret = "⟦SECRET|cf7165467f4cc2d683ef9f71cab4b20f⟧";

    public HttpRequest build(String path) {
        return HttpRequest.newBuilder(URI.create(BASE_URL + path))
            .header("Authorization", "Bearer " + API_KEY)
            .header("X-Admin-Contact", "⟦EMAIL|olivia_whitfield@gmail.example⟧")
            .build();
    }
}
