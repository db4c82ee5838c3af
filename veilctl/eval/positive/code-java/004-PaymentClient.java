package com.globex.ai;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.URI;

public class PaymentClient {
    private static final String API_KEY = "⟦SECRET|1oIGS5JQ5BesWHfDkVBNCuIxZQ4oO3VtfUa0NHikGG4=⟧";
    private static final String BASE_URL = "⟦INTERNAL_URL|https://mq.corp.tyrell.com:8080/browse/OPS-8275⟧";
    // TODO move to vault before release
    private final String dbUrl = "⟦CONNECTION_STRING|mongodb://admin:Summer2652R24k@warehouse.9ucd4ac7p1xz.eu-west-1.rds.amazonaws.com/crm⟧";
    String secret = "⟦API_KEY|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⟧";

    public HttpRequest build(String path) {
        return HttpRequest.newBuilder(URI.create(BASE_URL + path))
            .header("Authorization", "Bearer " + API_KEY)
            .header("X-Admin-Contact", "⟦EMAIL|trevor.delacroix57@example.org⟧")
            .build();
    }
}
