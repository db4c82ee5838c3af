curl -u ⟦PASSWORD|admin:Harbor9126nOZE⟧ -X POST https://⟦INTERNAL_HOST|ip-10-214-151-9.ec2.internal⟧/rest/api/2/issue \
  -H 'Content-Type: application/json' --data @issue.json
