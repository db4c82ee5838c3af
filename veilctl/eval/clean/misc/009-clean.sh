export API_KEY="${API_KEY:?set API_KEY first}"
read -s -p "DB password: " DB_PASSWORD
export GIT_SHA=e9669f615071b8bd41a8df105527af9a8b9eb2ac
docker pull ghcr.io/example/app@sha256:cc417acc22d30213d9e48cc87144cb5709c0941f949dda29294dc4ed6c463c79
