curl -u ⟦PASSWORD|deploy:Summer6843orlt⟧ -X POST https://⟦INTERNAL_HOST|hr.corp⟧/rest/api/2/issue \
  -H 'Content-Type: application/json' --data @issue.json
