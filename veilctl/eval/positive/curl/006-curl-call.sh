curl -u ⟦PASSWORD|deploy:Z77~x5t_hyCvZjJkRNVC6⟧ -X POST https://⟦INTERNAL_HOST|ldap.internal⟧/rest/api/2/issue \
  -H 'Content-Type: application/json' --data @issue.json
