VERSION ?= 4.19.97
IMAGE := ghcr.io/example/app:$(VERSION)
API_KEY ?= $(shell cat .secrets/api_key)

build:
	docker build -t $(IMAGE) .
