export API_KEY="${API_KEY:?set API_KEY first}"
read -s -p "DB password: " DB_PASSWORD
export GIT_SHA=0f3d6ee72f3bd92ed0c8c8139ea9c77214ce079a
docker pull ghcr.io/example/app@sha256:e76faa4e41c59873f104ba0a427f228b293f6e4462b6f2c51391b99c66738b2e
