package com.vandelay.ai;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.URI;

public class LlmClient {
    private static final String API_KEY = "⟦API_KEY|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⟧";
    private static final String BASE_URL = "⟦INTERNAL_URL|https://10.62.86.91:9090/merge_requests/495⟧";
    // TODO move to vault before release
    private final String dbUrl = "⟦CONNECTION_STRING|ftp://rails:KsImWPvr~5BDV9Nh@db.tyrell.example.com:21/incoming/⟧";
    String secret = "⟦SERVICE_TOKEN|EAAAJygADANsc4ORU1JeOaxHtYSHwNwLQ0Kka3rCD9eyXGxMWFuuyebGZmzmxKE3⟧";

    public HttpRequest build(String path) {
        return HttpRequest.newBuilder(URI.create(BASE_URL + path))
            .header("Authorization", "Bearer " + API_KEY)
            .header("X-Admin-Contact", "⟦EMAIL|tsandoval@woodgrove.example⟧")
            .build();
    }
}
