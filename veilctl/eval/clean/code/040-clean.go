package config

import "os"

type Config struct {
	APIKey   string `env:"API_KEY,required"`
	Password string `env:"DB_PASSWORD"`
}

func Load() Config {
	return Config{APIKey: os.Getenv("API_KEY"), Password: os.Getenv("DB_PASSWORD")}
}

const buildCommit = "aacbd879f0b53d9b5017d4746d32c018b6fc64f5"
