export API_KEY="${API_KEY:?set API_KEY first}"
read -s -p "DB password: " DB_PASSWORD
export GIT_SHA=e5c86f667a85a80d57aba0c295ad9e7eed864b69
docker pull ghcr.io/example/app@sha256:2227acef8bdcb3b50b94463d779e864cca2575c744bec362d5a089891067103c
