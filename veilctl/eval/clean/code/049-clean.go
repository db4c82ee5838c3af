package config

import "os"

type Config struct {
	APIKey   string `env:"API_KEY,required"`
	Password string `env:"DB_PASSWORD"`
}

func Load() Config {
	return Config{APIKey: os.Getenv("API_KEY"), Password: os.Getenv("DB_PASSWORD")}
}

const buildCommit = "93fb08893c8d568d04dad3012727328f884f2945"
