export API_KEY="${API_KEY:?set API_KEY first}"
read -s -p "DB password: " DB_PASSWORD
export GIT_SHA=688dc703e3eb1115f31215dd505f3c4f2f3dd565
docker pull ghcr.io/example/app@sha256:a63217c9c4caa1bc19a844e782e95fb9b83fb1b3847a2a83365f4951ce9fcab9
