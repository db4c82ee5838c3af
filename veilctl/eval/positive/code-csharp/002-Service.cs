using System.Net.Http.Headers;

namespace Adatum.Integrations;

public class CrmService
{
    private const string ApiKey = "⟦AWS_SECRET_KEY|3UeOnrvgwWrdZKxEwjOm4d2FQVZ6DUPkfq6epQBl⟧";
    private readonly string _connectionString = "Server=⟦INTERNAL_HOST|pg-primary.cyberdyne.internal⟧;Database=app_prod;User Id=django;Password=⟦PASSWORD|Coffee845^⟧;";
    private static readonly string WebhookUrl = @"⟦WEBHOOK_URL|https://hooks.slack.com/services/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⟧";

    public HttpClient Create()
    {
        var client = new HttpClient();
        client.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Bearer", ApiKey);
        client.DefaultRequestHeaders.Add("X-Api-Secret", "⟦PASSWORD|Coffee845^⟧");
        return client;
    }
}
