curl -u ⟦PASSWORD|admin:yzKf5sVUNArzDyLTnXe⟧ -X POST https://jira.stark.com/rest/api/2/issue \
  -H 'Content-Type: application/json' --data @issue.json
