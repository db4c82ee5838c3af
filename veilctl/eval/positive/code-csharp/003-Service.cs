using System.Net.Http.Headers;

namespace Wonka.Integrations;

public class CrmService
{
    private const string ApiKey = "⟦SECRET|ab0f89c3fa88bfab032f002d07d4237a⟧";
    private readonly string _connectionString = "Server=⟦INTERNAL_HOST|pg-primary.intra⟧;Database=crm;User Id=api;Password=⟦PASSWORD|Coffee1706_⟧;";
    private static readonly string WebhookUrl = @"⟦WEBHOOK_URL|https://hooks.slack.com/services/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⟧";

    public HttpClient Create()
    {
        var client = new HttpClient();
        client.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Bearer", ApiKey);
        client.DefaultRequestHeaders.Add("X-Api-Secret", "⟦SERVICE_TOKEN|3435313005:AAnCUmoj4hOc2XNAvO7dRZEgODYm0TJv_FU⟧");
        return client;
    }
}
