VERSION ?= 6.36.69
IMAGE := ghcr.io/example/app:$(VERSION)
API_KEY ?= $(shell cat .secrets/api_key)

build:
	docker build -t $(IMAGE) .
