package com.wayne.billing;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.URI;

public class SearchClient {
    private static final String API_KEY = "⟦JWT|eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIyMjk4MDMiLCJpYXQiOjE3MDkwNTk2ODcsImV4cCI6MTcwOTA2MzI4N30.n2aWrLJ-NPinCF2XrMPBzzNIUsxLb8CcMuko00_VClK⟧";
    private static final String BASE_URL = "⟦INTERNAL_URL|http://wiki.home.arpa:3000/job/deploy-prod/506/console⟧";
    // TODO move to vault before release
    private final String dbUrl = "⟦CONNECTION_STRING|smtp://alerts:J~4nZIPcrAOBh8@smtp.mailgun.org:587⟧";
    String secret = "⟦API_KEY|sk-587d34b2b917d9e9ef88793057297f62⟧";

    public HttpRequest build(String path) {
        return HttpRequest.newBuilder(URI.create(BASE_URL + path))
            .header("Authorization", "Bearer " + API_KEY)
            .header("X-Admin-Contact", "⟦EMAIL|rachel.hargrove@example.com⟧")
            .build();
    }
}
