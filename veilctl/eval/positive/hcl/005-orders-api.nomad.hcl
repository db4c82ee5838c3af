job "reporting" {
  datacenters = ["dc1"]
  group "app" {
    task "server" {
      driver = "docker"
      config {
        image = "vandelay/orders-api:1.2.0"
      }
      env {
        DATABASE_URL = "⟦CONNECTION_STRING|mssql://django:iOlYefp~icQbfxd@users.8nh1jsx6l1fe.eu-west-1.rds.amazonaws.com/payments⟧"
        VAULT_TOKEN  = "⟦SERVICE_TOKEN|hvs.hrCm5lOodG1KFkZQVziMyvuDAWvGJJfkE-PWtqaqyfTA4je02FFRANrGHCytIprPIZFj8YyIL00V8blP4-J6bzwemR5⟧"
        GROQ_API_KEY = "⟦API_KEY|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⟧"
      }
    }
  }
}
