export API_KEY="${API_KEY:?set API_KEY first}"
read -s -p "DB password: " DB_PASSWORD
export GIT_SHA=e95bf651af2262d41c4d31c48e6c6c84d6c1b4d0
docker pull ghcr.io/example/app@sha256:7d5442ea639a8683ebc9de72a4d8f3f520264383c12b151d4e8631ed04d3d05c
