export API_KEY="${API_KEY:?set API_KEY first}"
read -s -p "DB password: " DB_PASSWORD
export GIT_SHA=a36bc1d60c9a973aae2e93bbe964ed5bdadc52e5
docker pull ghcr.io/example/app@sha256:cf52d63294bc1b8e555233674ef132130deeac230e0f8f7a25379e4eb50c89d3
