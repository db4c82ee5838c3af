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
const traceId = "2efba412ae2a02779fda2fdd4af7c4e7";
