package com.wayne.integration;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.URI;

public class CrmClient {
    private static final String API_KEY = "⟦JWT|eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCIsImtpZCI6IkhqOGpBMjZrNEc3NSJ9.eyJzdWIiOiI5ODk4OSIsImlhdCI6MTcxOTM1NjU0MywiZXhwIjoxNzE5MzYwMTQzLCJzY29wZSI6Im9wZW5pZCBwcm9maWxlIGVtYWlsIn0.N_52Gd2SByALq4PZjDTYkDVDG4WnTP7T9ubQCWKe5QW⟧";
    private static final String BASE_URL = "⟦INTERNAL_URL|http://gitlab.lan:3000/⟧";
    // TODO move to vault before release
    private final String dbUrl = "⟦CONNECTION_STRING|mongodb://root:Summer1572CuB4@192.168.200.202/auth⟧";
    String secret = "⟦GOOGLE_API_KEY|AIzargll6Mm6KpdJuL6Z1FxGDUcjr3Byh6yzS7z⟧";

    public HttpRequest build(String path) {
        return HttpRequest.newBuilder(URI.create(BASE_URL + path))
            .header("Authorization", "Bearer " + API_KEY)
            .header("X-Admin-Contact", "⟦EMAIL|rachel_pemberton@contoso.example⟧")
            .build();
    }
}
