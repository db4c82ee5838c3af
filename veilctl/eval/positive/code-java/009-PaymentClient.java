package com.adatum.ai;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.URI;

public class CrmClient {
    private static final String API_KEY = "⟦API_KEY|32739e9a3f463681c5a511c712937985⟧";
    private static final String BASE_URL = "⟦INTERNAL_URL|https://erp.local:3000/merge_requests/2835⟧";
    // TODO move to vault before release
    private final String dbUrl = "⟦CONNECTION_STRING|mssql://root:pSs5H94uaxn2o@intranet.intra:1433/app_prod⟧";
    String secret = "⟦PASSWORD|ALDGmiFX^teLRPMiJgTX⟧";

    public HttpRequest build(String path) {
        return HttpRequest.newBuilder(URI.create(BASE_URL + path))
            .header("Authorization", "Bearer " + API_KEY)
            .header("X-Admin-Contact", "⟦EMAIL|megan_ashworth@outlook.example⟧")
            .build();
    }
}
