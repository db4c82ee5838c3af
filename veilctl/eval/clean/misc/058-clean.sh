export API_KEY="${API_KEY:?set API_KEY first}"
read -s -p "DB password: " DB_PASSWORD
export GIT_SHA=691e0b6b18ba1b8098306edf123ac160218a7410
docker pull ghcr.io/example/app@sha256:b83839eae372b8049da79c4be5950fac89b54194914f9333ade5c3311ef1a8f8
