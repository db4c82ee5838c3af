package com.contoso.integration;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.URI;

public class LlmClient {
    private static final String API_KEY = "⟦SECRET|89HqeCEzpDMp6ZlsigApewFszh99g1DaFvik4lAfENE=⟧";
    private static final String BASE_URL = "⟦INTERNAL_URL|https://argocd.hooli.local:8080/api/v1/health⟧";
    // TODO move to vault before release
    private final String dbUrl = "⟦CONNECTION_STRING|redis://default:Kestrel6178WjuZ@analytics.v887l42kzn2w.eu-central-1.rds.amazonaws.com:6379/0⟧";
    String secret = "⟦SERVICE_TOKEN|HRKU-AA82cjfRJT5O6I8JDxnK0xiJ2x7LA3kE5s1ftlWO_MuuZhZzWK-9ktOgaK32⟧";

    public HttpRequest build(String path) {
        return HttpRequest.newBuilder(URI.create(BASE_URL + path))
            .header("Authorization", "Bearer " + API_KEY)
            .header("X-Admin-Contact", "⟦EMAIL|jokafor@example.com⟧")
            .build();
    }
}
