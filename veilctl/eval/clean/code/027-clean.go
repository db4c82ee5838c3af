package config

import "os"

type Config struct {
	APIKey   string `env:"API_KEY,required"`
	Password string `env:"DB_PASSWORD"`
}

func Load() Config {
	return Config{APIKey: os.Getenv("API_KEY"), Password: os.Getenv("DB_PASSWORD")}
}

const buildCommit = "7d23f5b91e06d0ddbd49b89c6244e41f872507f0"
