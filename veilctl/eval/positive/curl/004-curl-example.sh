curl -u ⟦PASSWORD|deploy:GcYdNONqb06I⟧ -X POST https://jira.oscorp.com/rest/api/2/issue \
  -H 'Content-Type: application/json' --data @issue.json
