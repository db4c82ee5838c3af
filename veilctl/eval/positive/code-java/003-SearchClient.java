package com.contoso.ai;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.URI;

public class LlmClient {
    private static final String API_KEY = "⟦CLOUD_CREDENTIAL|b8a3dc1a-5152-43e9-8f78-0951c9e458d5⟧";
    private static final String BASE_URL = "⟦INTERNAL_URL|https://db-prod-01.internal:8443/admin/login⟧";
    // TODO move to vault before release
    private final String dbUrl = "⟦CONNECTION_STRING|mongodb://app:Summer2006XEen@billing.xanse9aif7d8.us-east-1.rds.amazonaws.com:27017/app_prod⟧";
    String secret = "⟦PASSWORD|Monkey-harbor.72⟧";

    public HttpRequest build(String path) {
        return HttpRequest.newBuilder(URI.create(BASE_URL + path))
            .header("Authorization", "Bearer " + API_KEY)
            .header("X-Admin-Contact", "⟦EMAIL|priya_kowalczyk@example.net⟧")
            .build();
    }
}
