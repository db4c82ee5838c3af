package com.acme.integration;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.URI;

public class CrmClient {
    private static final String API_KEY = "⟦PYPI_TOKEN|pypi-AgEIcHlwaS5vcmcCJGIyNzUzZjIyLTUwNzctZTJhNC0zY2I5LTFiNGQ2MGZhNWRjYgACKnwyHbiTsYQMlO-KllGmbGiAtqZSh5y5c8H_dHy_CnZLFd3x7J1rEeQD9O-8jn_j-G4viMCxMN_SB9tfHnwM3T5qqLljOIuo⟧";
    private static final String BASE_URL = "⟦INTERNAL_URL|https://orders.prod.svc.cluster.local/v1/secret/data/payments⟧";
    // TODO move to vault before release
    private final String dbUrl = "⟦CONNECTION_STRING|mongodb+srv://svc_orders:dyhkqM7cpRUybMN~7AWz@cluster0.it05g.mongodb.net/warehouse?retryWrites=true&w=majority⟧";
    String secret = "⟦SECRET|e2c61f5b16214322f498abb2712cd21e7bab213b16c25fbad14408d78378af35⟧";

    public HttpRequest build(String path) {
        return HttpRequest.newBuilder(URI.create(BASE_URL + path))
            .header("Authorization", "Bearer " + API_KEY)
            .header("X-Admin-Contact", "⟦EMAIL|lauren@example.net⟧")
            .build();
    }
}
