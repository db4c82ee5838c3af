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
const traceId = "eb84a52f0762fc9109763752b4e0d9af";
