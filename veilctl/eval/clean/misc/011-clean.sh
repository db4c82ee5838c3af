export API_KEY="${API_KEY:?set API_KEY first}"
read -s -p "DB password: " DB_PASSWORD
export GIT_SHA=9fb05a88f86d4c4135d3d66c28180c059cef5ae6
docker pull ghcr.io/example/app@sha256:e41c86ba42dd6addd44d439629649c2dd87fcce74520711ea2a8154983b636db
