export API_KEY="${API_KEY:?set API_KEY first}"
read -s -p "DB password: " DB_PASSWORD
export GIT_SHA=34daad3a6c6f57b058b5d8e8ccecf2c9cbe8d410
docker pull ghcr.io/example/app@sha256:38997dfd5bdf8a71cbbf8414f9eb28d9871dd5dc73ec1be5eaff433a6d613864
