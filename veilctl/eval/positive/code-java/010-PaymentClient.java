package com.litware.billing;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.URI;

public class LlmClient {
    private static final String API_KEY = "⟦WEBHOOK_URL|https://hooks.slack.com/services/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⟧";
    private static final String BASE_URL = "⟦INTERNAL_URL|https://nexus.hooli.local:5601/app/discover#/⟧";
    // TODO move to vault before release
    private final String dbUrl = "⟦CONNECTION_STRING|redis://:EcS8zJRzJX@erp.local/0⟧";
    String secret = "⟦API_KEY|r8_4spzPaBo6g6uzUyXNKymPTos0TnaYane2VHVL⟧";

    public HttpRequest build(String path) {
        return HttpRequest.newBuilder(URI.create(BASE_URL + path))
            .header("Authorization", "Bearer " + API_KEY)
            .header("X-Admin-Contact", "⟦EMAIL|ddelacroix@tyrell.example⟧")
            .build();
    }
}
