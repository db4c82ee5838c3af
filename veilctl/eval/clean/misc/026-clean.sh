export API_KEY="${API_KEY:?set API_KEY first}"
read -s -p "DB password: " DB_PASSWORD
export GIT_SHA=42445dfbdbe5c611b75a4e2c37f863d3befcaaf1
docker pull ghcr.io/example/app@sha256:ba5a551b1c2d12827793d8675ee1f4c909105dac823350b4d7d9b61c4d1e77d1
