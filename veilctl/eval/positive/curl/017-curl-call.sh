curl -u ⟦PASSWORD|admin:TnlCjuWTDLgbKGNN1i-⟧ -X POST https://⟦INTERNAL_HOST|prometheus.litware.corp⟧/rest/api/2/issue \
  -H 'Content-Type: application/json' --data @issue.json
