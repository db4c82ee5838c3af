VERSION ?= 2.13.83
IMAGE := ghcr.io/example/app:$(VERSION)
API_KEY ?= $(shell cat .secrets/api_key)

build:
	docker build -t $(IMAGE) .
