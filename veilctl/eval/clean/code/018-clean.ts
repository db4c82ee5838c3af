export interface AuthConfig {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}

export const config: AuthConfig = {
  clientId: process.env.OAUTH_CLIENT_ID!,
  clientSecret: process.env.OAUTH_CLIENT_SECRET!,
  redirectUri: "https://app.example.com/callback",
};
const traceId = "57892ca8cad9962cccb628e45f4ce7ac";
