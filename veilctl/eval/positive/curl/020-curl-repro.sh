curl -u ⟦PASSWORD|admin:Czft8QSEUZg_⟧ -X POST https://jira.umbrella.com/rest/api/2/issue \
  -H 'Content-Type: application/json' --data @issue.json
