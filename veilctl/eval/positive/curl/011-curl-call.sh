curl -u ⟦PASSWORD|deploy:-54eUiippNOPbC⟧ -X POST https://jira.contoso.com/rest/api/2/issue \
  -H 'Content-Type: application/json' --data @issue.json
