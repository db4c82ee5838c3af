curl -u ⟦PASSWORD|admin:0dXMQmNqZF⟧ -X POST https://jira.litware.com/rest/api/2/issue \
  -H 'Content-Type: application/json' --data @issue.json
