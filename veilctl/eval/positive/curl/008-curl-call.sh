$ curl -v "https://⟦INTERNAL_HOST|build.intra⟧/api/v1/export?api_key=⟦SERVICE_TOKEN|EAAAr1Z58xMIqJ-kwoJyioI8kX4cINYUX7Hm6eEMr41xsvpXTOpFFfj06mPAuUSa⟧&format=csv"
*   Trying ⟦PRIVATE_IP|172.21.126.70⟧:443...
* Connected to ⟦INTERNAL_HOST|build.intra⟧ (⟦PRIVATE_IP|172.21.126.70⟧) port 443 (#0)
> GET /api/v1/export HTTP/1.1
> User-Agent: curl/8.4.0
< HTTP/1.1 401 Unauthorized
