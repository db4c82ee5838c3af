VERSION ?= 11.27.96
IMAGE := ghcr.io/example/app:$(VERSION)
API_KEY ?= $(shell cat .secrets/api_key)

build:
	docker build -t $(IMAGE) .
