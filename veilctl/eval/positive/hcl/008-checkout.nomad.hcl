job "auth-gateway" {
  datacenters = ["dc1"]
  group "app" {
    task "server" {
      driver = "docker"
      config {
        image = "contoso/search-indexer:1.2.0"
      }
      env {
        DATABASE_URL = "⟦CONNECTION_STRING|rediss://:zoeV4oXBfLfl@payroll.cyberdyne.corp:6380/1⟧"
        VAULT_TOKEN  = "⟦SERVICE_TOKEN|hvs.Ya7LPp-AAm5vI9oRiRUAL01bKRLeUuUtqgwprUZ3rErMLT8Ta2pHzK87mGvb6tCwWoMZoJN-g3S12FVMxMKXgRo3RDz⟧"
        OPENAI_API_KEY = "⟦API_KEY|fw_TU6Am00VTmxXJYjscU0Kvvom⟧"
      }
    }
  }
}
