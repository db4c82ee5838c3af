# list the org's repositories with the old token scheme
curl -s -H "Authorization: token ⟦BEARER_TOKEN|4c7e1a9f0b3d5e8a2f6c1b7d9e0a3f5c8b2d4e6a⟧" \
  -H "Accept: application/vnd.github+json" https://api.github.com/orgs/example-org/repos
curl -s -H 'Authorization: GenieKey ⟦BEARER_TOKEN|8d2f6a1c-4e7b-4b9a-a3c5-1f0e9d7b6c42⟧' https://api.opsgenie.com/v2/alerts
