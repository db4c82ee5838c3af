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
const traceId = "7aa2c950472fd994b6323d41254563dc";
