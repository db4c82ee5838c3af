job "notification-worker" {
  datacenters = ["dc1"]
  group "app" {
    task "server" {
      driver = "docker"
      config {
        image = "wayne/webhooks-relay:1.2.0"
      }
      env {
        DATABASE_URL = "⟦CONNECTION_STRING|amqp://keycloak:tcdAaQBpME@sonar.corp.initech.com:5672/⟧"
        VAULT_TOKEN  = "⟦SERVICE_TOKEN|hvs.F9Hlo_iO2tZ6e48Ada0qFfEzWkD-N2XCxBqotR38eXxhjs4ia__naTzeJ2fxfgJpfL5TTJLnNwGf_XdglnAAuRjXdzV⟧"
        OPENAI_API_KEY = "⟦API_KEY|zlWXxqe6gVNKu8pXCa6AvSY0QcxWNLMS⟧"
      }
    }
  }
}
