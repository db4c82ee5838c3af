export API_KEY="${API_KEY:?set API_KEY first}"
read -s -p "DB password: " DB_PASSWORD
export GIT_SHA=64870122da3804c3cef3376ec44766f839536665
docker pull ghcr.io/example/app@sha256:7f32c485ccdf03ede1d225aa80f594a6221cbb07958a7af6a102ecb25fc54bf3
