using System.Net.Http.Headers;

namespace Vandelay.Integrations;

public class LlmService
{
    private const string ApiKey = "⟦SECRET|aZ7Zmdq0Tx-alnsh_L8-A4R_0-KzICrl⟧";
    private readonly string _connectionString = "Server=⟦INTERNAL_HOST|ip-10-154-224-22.ec2.internal⟧;Database=warehouse;User Id=keycloak;Password=⟦PASSWORD|Ms4qi1x5EIHK76cz6d⟧;";
    private static readonly string WebhookUrl = @"⟦WEBHOOK_URL|https://hooks.slack.com/services/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⟧";

    public HttpClient Create()
    {
        var client = new HttpClient();
        client.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Bearer", ApiKey);
        client.DefaultRequestHeaders.Add("X-Api-Secret", "⟦JWT|eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCIsImtpZCI6IjJ0b0xHc1M1VW5uNCJ9.eyJzdWIiOiIyNTM1MzciLCJpYXQiOjE3MDA3NjE5NTEsImV4cCI6MTcwMDc2NTU1MSwic2NvcGUiOiJvcGVuaWQgcHJvZmlsZSBlbWFpbCJ9.KEaJw8ZQLgIr6qHuoyqi1hChjROOfEQvsmog0PBHIdq⟧");
        return client;
    }
}
