VERSION ?= 6.30.24
IMAGE := ghcr.io/example/app:$(VERSION)
API_KEY ?= $(shell cat .secrets/api_key)

build:
	docker build -t $(IMAGE) .
