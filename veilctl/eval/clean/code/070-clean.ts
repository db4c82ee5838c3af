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
const traceId = "bfbd8976b96a72638195f521630d5eeb";
