job "rag-pipeline" {
  datacenters = ["dc1"]
  group "app" {
    task "server" {
      driver = "docker"
      config {
        image = "globex/search-indexer:1.2.0"
      }
      env {
        DATABASE_URL = "⟦CONNECTION_STRING|mssql://grafana:Velvet13427BhI@db.litware.example.com:1433/analytics⟧"
        VAULT_TOKEN  = "⟦SERVICE_TOKEN|hvs.MRFnFIJsQ2_w-G6c4RsYZKQ4LdJuLcMD5_GJesP9kL7bVjnnpSbHmIqH8K4cTL9kolbNNBPX0dIAqA6Uz-kDafWRgWr⟧"
        OPENAI_API_KEY = "⟦API_KEY|sk-ant-api03-A3LSbPu2m4IUHme6Wg2sQErxjjw-xoB17wktBGGNSNx46yPbCbh0H5lA7sU7VeruQartyoPamlSsUqz-f_Ugw2fVq1CD4AA⟧"
      }
    }
  }
}
