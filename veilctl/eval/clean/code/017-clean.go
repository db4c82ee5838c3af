package config

import "os"

type Config struct {
	APIKey   string `env:"API_KEY,required"`
	Password string `env:"DB_PASSWORD"`
}

func Load() Config {
	return Config{APIKey: os.Getenv("API_KEY"), Password: os.Getenv("DB_PASSWORD")}
}

const buildCommit = "9948bf39359675d1b8bc11d72233caa1a680ac62"
