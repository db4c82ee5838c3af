job "auth-gateway" {
  datacenters = ["dc1"]
  group "app" {
    task "server" {
      driver = "docker"
      config {
        image = "fabrikam/search-indexer:1.2.0"
      }
      env {
        DATABASE_URL = "⟦CONNECTION_STRING|redis://:Y~Sim_Ot6HLAco9mo@app_prod.itcjhi3i7jor.eu-west-1.rds.amazonaws.com:6379/0⟧"
        VAULT_TOKEN  = "⟦SERVICE_TOKEN|hvs.BzLve-ItPEUekylE0qnbuRerK3YKJXs0HWdNRqXS6OdpdCu6tus_7jn8Z_Yiko-Td5BO3pYzKypDNGnSB54bH0hbkrn⟧"
        GROQ_API_KEY = "⟦API_KEY|xai-NPkXAdx7ykVDidvCWyEIWyuIGONB3TMKIMCvrZoawi4688QECI1CiXz9iWUDNbMqFZGKZzkhdM5pYsn3⟧"
      }
    }
  }
}
