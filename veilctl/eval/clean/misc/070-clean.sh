export API_KEY="${API_KEY:?set API_KEY first}"
read -s -p "DB password: " DB_PASSWORD
export GIT_SHA=9d96e82f68a8fae4b26ca3873cd174dd1cec0ad8
docker pull ghcr.io/example/app@sha256:5909021fa4dd5e76286f01f2c3f8294ccd73f431644f21c3cf5c7b272e161369
